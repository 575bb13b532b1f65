import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { modelsQueryOptions } from '../../api/v2/queries';

interface Props {
  value: string;
  onChange: (modelId: string) => void;
}

/**
 * The models the upstream knows (its `GET /v2/search/models`). When the list cannot be had, the
 * operator can still paste a model id.
 */
export function ModelPicker({ value, onChange }: Props) {
  const id = useId();
  const models = useQuery(modelsQueryOptions());
  const extraction = models.data?.models.filter((m) => m.model_type === 'extraction') ?? [];

  if (models.isError || (models.isSuccess && extraction.length === 0)) {
    return (
      <div className="flex flex-col gap-1">
        <label htmlFor={id} className="text-sm font-medium">
          Model id
        </label>
        <input
          id={id}
          value={value}
          onChange={(e) => onChange(e.target.value.trim())}
          placeholder="00000000-0000-0000-0000-000000000000"
          className="rounded-md border border-slate-300 px-3 py-2 font-mono text-sm"
        />
        <p className="text-xs text-slate-600">
          {models.isError
            ? 'The list of models could not be loaded; paste the id of the model to use.'
            : 'No extraction model is listed; paste the id of the model to use.'}
        </p>
      </div>
    );
  }

  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        Model
      </label>
      <select
        id={id}
        value={value}
        disabled={models.isPending}
        onChange={(e) => onChange(e.target.value)}
        className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm"
      >
        {models.isPending && <option value="">Loading models…</option>}
        {extraction.map((m) => (
          <option key={m.id} value={m.id}>
            {m.name}
          </option>
        ))}
      </select>
    </div>
  );
}
