/**
 * A select of models by name, for filters (the queue's, Exports', Where time goes'): the operator
 * picks a name; the value is still the model's key (v2 id, v1 `account/name/vN`), as the API wants.
 * The models listed are the ones given (those the review store has seen), named by useModelNames.
 */
import { useModelNames, type ApiVersion } from './model-name';

export interface ModelOption {
  apiVersion: ApiVersion;
  model: string;
}

interface Props {
  id?: string;
  value: string;
  onChange: (model: string) => void;
  models: readonly ModelOption[];
  /** The first option, for "no filter" (value ""). */
  anyLabel?: string;
  className?: string;
}

export function ModelSelect({ id, value, onChange, models, anyLabel = 'All models', className }: Props) {
  const nameOf = useModelNames();
  const options = models
    .map((m) => ({ ...m, name: nameOf(m.apiVersion, m.model) }))
    .sort((a, b) => a.name.localeCompare(b.name));
  // A value no option names (a link from elsewhere) is still shown, by its id.
  const known = value === '' || options.some((o) => o.model === value);
  return (
    <select
      id={id}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      className={className ?? 'rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm'}
    >
      <option value="">{anyLabel}</option>
      {!known && <option value={value}>{value}</option>}
      {options.map((o) => (
        <option key={`${o.apiVersion}:${o.model}`} value={o.model}>
          {o.name}
          {o.apiVersion === 'v1' ? ' (v1)' : ''}
        </option>
      ))}
    </select>
  );
}
