import type { CorrectionValue } from '../../../lib/draft-store';
import type { LeafValue } from './flatten-fields';

interface Props {
  id: string;
  /** The extracted value: its type picks the editor. */
  original: LeafValue;
  value: CorrectionValue;
  onFocus: () => void;
  onChange: (value: CorrectionValue) => void;
}

const inputClass =
  'mt-1 w-full rounded border border-slate-300 bg-white px-2 py-1 text-sm focus:border-blue-700 focus:outline-none';

/** A typed editor for one value; the operator's text is kept as typed until it parses. */
export function ValueEditor({ id, original, value, onFocus, onChange }: Props) {
  if (typeof original === 'boolean') {
    return (
      <input
        id={id}
        type="checkbox"
        checked={value === true}
        onFocus={onFocus}
        onChange={(e) => onChange(e.target.checked)}
        className="mt-1 size-4"
      />
    );
  }
  if (typeof original === 'number') {
    // Kept as typed ("12." on the way to "12.5"); a value that is not a number is flagged, not lost.
    const text = value == null ? '' : String(value);
    const invalid = text.trim() !== '' && !Number.isFinite(Number(text));
    return (
      <input
        id={id}
        type="text"
        inputMode="decimal"
        value={text}
        aria-invalid={invalid || undefined}
        onFocus={onFocus}
        onChange={(e) => onChange(e.target.value === '' ? null : e.target.value)}
        className={`${inputClass} font-mono ${invalid ? 'border-red-600' : ''}`}
      />
    );
  }
  return (
    <input
      id={id}
      type="text"
      value={value == null ? '' : String(value)}
      onFocus={onFocus}
      onChange={(e) => onChange(e.target.value === '' ? null : e.target.value)}
      className={inputClass}
    />
  );
}
