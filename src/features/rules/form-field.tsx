import { useId, type ReactNode } from 'react';

interface Props {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** What is wrong with the value, under the input and read with it. */
  error?: string | undefined;
  hint?: ReactNode;
  /** Several lines (one value per line). */
  multiline?: boolean;
  type?: 'text' | 'date' | 'number';
  className?: string;
  mono?: boolean;
  /** The id of a `<datalist>` whose options the input offers as it is typed (the model's fields). */
  suggestions?: string | undefined;
}

/** A labelled input with its hint and its error, tied to it by `aria-describedby`. */
export function FormField({
  label,
  value,
  onChange,
  error,
  hint,
  multiline = false,
  type = 'text',
  className = '',
  mono = false,
  suggestions,
}: Props) {
  const id = useId();
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ');
  const common = {
    id,
    value,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy || undefined,
    className: `rounded-md border border-slate-300 bg-white px-2 py-1 text-sm aria-invalid:border-2 aria-invalid:border-red-700 ${mono ? 'font-mono' : ''}`,
  } as const;
  return (
    <div className={`flex flex-col gap-1 ${className}`}>
      <label htmlFor={id} className="text-xs font-medium text-slate-800">
        {label}
      </label>
      {multiline ? (
        <textarea {...common} rows={3} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input
          {...common}
          type={type}
          step={type === 'number' ? 'any' : undefined}
          list={suggestions}
          autoComplete={suggestions === undefined ? undefined : 'off'}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
      {error && (
        <p id={`${id}-error`} className="text-xs font-medium text-red-800">
          <span aria-hidden="true">⚠ </span>
          {error}
        </p>
      )}
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-slate-600">
          {hint}
        </p>
      )}
    </div>
  );
}
