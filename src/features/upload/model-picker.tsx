import { useId, useState } from 'react';
import { Uuid } from '@extraction-review/contract/common-schemas';
import type { Model } from '@extraction-review/contract/v2/schemas';

interface Props {
  /** The extraction models the upstream lists; undefined while loading. */
  models: readonly Model[] | undefined;
  /** Why the list is missing, when it could not be loaded. */
  listError: string | null;
  value: string;
  onChange: (modelId: string) => void;
}

const OTHER = '__other__';

/**
 * The models the upstream knows (its `GET /v2/search/models`), by name, or any model id pasted by hand:
 * a model the list does not show (another page of it, an account's private model), or every model
 * when the list cannot be had.
 */
export function ModelPicker({ models, listError, value, onChange }: Props) {
  const selectId = useId();
  const inputId = useId();
  const hintId = useId();
  const listed = models ?? [];
  const isListed = listed.some((m) => m.id === value);
  const [pasting, setPasting] = useState(false);
  const manual = pasting || listError !== null || (models !== undefined && listed.length === 0);
  const invalid = manual && value !== '' && !Uuid.safeParse(value).success;

  return (
    <div className="flex flex-col gap-2">
      {!(listError !== null || (models !== undefined && listed.length === 0)) && (
        <div className="flex flex-col gap-1">
          <label htmlFor={selectId} className="text-sm font-medium">
            Model
          </label>
          <select
            id={selectId}
            value={manual && !isListed ? OTHER : value}
            disabled={models === undefined}
            onChange={(e) => {
              const next = e.target.value;
              setPasting(next === OTHER);
              onChange(next === OTHER ? '' : next);
            }}
            className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm"
          >
            {models === undefined && <option value="">Loading models…</option>}
            {listed.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
            {models !== undefined && <option value={OTHER}>Another one: paste its id…</option>}
          </select>
        </div>
      )}
      {manual && (
        <div className="flex flex-col gap-1">
          <label htmlFor={inputId} className="text-sm font-medium">
            Model id
          </label>
          <input
            id={inputId}
            value={value}
            onChange={(e) => onChange(e.target.value.trim())}
            placeholder="00000000-0000-0000-0000-000000000000"
            aria-invalid={invalid}
            aria-describedby={hintId}
            spellCheck={false}
            className="rounded-md border border-slate-300 px-3 py-2 font-mono text-sm aria-invalid:border-red-700"
          />
          <p id={hintId} className={`text-xs ${invalid ? 'text-red-800' : 'text-slate-600'}`}>
            {invalid
              ? 'A model id is a UUID, such as 12345678-1234-1234-1234-123456789abc.'
              : listError !== null
                ? `${listError} Paste the id of the model to use.`
                : listed.length === 0 && models !== undefined
                  ? 'The service lists no extraction model; paste the id of the one to use.'
                  : 'As shown in the model’s settings on the platform.'}
          </p>
        </div>
      )}
    </div>
  );
}
