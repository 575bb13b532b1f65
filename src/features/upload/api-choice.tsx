import { useId } from 'react';

export type ApiVersion = 'v2' | 'v1';

interface Props {
  value: ApiVersion;
  onChange: (api: ApiVersion) => void;
}

/** Which API the documents go to: v2 extraction (a model) or the earlier v1 prediction (a product). */
export function ApiChoice({ value, onChange }: Props) {
  const hintId = useId();
  return (
    <fieldset aria-describedby={hintId} className="flex flex-col gap-1">
      <legend className="text-sm font-medium">API</legend>
      <div className="flex flex-wrap gap-4 text-sm">
        {(
          [
            ['v2', 'Extraction API (v2)'],
            ['v1', 'Prediction API (v1)'],
          ] as const
        ).map(([api, label]) => (
          <label key={api} className="flex items-center gap-2">
            <input
              type="radio"
              name="api-version"
              value={api}
              checked={value === api}
              onChange={() => onChange(api)}
            />
            {label}
          </label>
        ))}
      </div>
      <p id={hintId} className="text-xs text-slate-600">
        {value === 'v1'
          ? 'The earlier API: a product by account, name and version; files only, no options.'
          : 'The current API: send to a model, with its options.'}
      </p>
    </fieldset>
  );
}
