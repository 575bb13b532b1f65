import { useId } from 'react';
import type { CorrectionValue } from '../../../lib/draft-store';
import { confidenceStyle } from '../confidence';
import { firstPageOf, type FieldLeaf } from './flatten-fields';
import { ValueEditor } from './value-editor';

interface Props {
  leaf: FieldLeaf;
  correction: { value: CorrectionValue } | null;
  hovered: boolean;
  selected: boolean;
  onFieldHover: (path: string | null) => void;
  onFieldSelect: (path: string | null) => void;
  onFieldChange: (path: string, value: CorrectionValue) => void;
}

export function FieldRow({
  leaf,
  correction,
  hovered,
  selected,
  onFieldHover,
  onFieldSelect,
  onFieldChange,
}: Props) {
  const id = useId();
  const page = firstPageOf(leaf);
  const value = correction ? correction.value : leaf.value;
  return (
    <li
      data-field-path={leaf.path}
      data-active={hovered || selected ? 'true' : undefined}
      onMouseEnter={() => onFieldHover(leaf.path)}
      onMouseLeave={() => onFieldHover(null)}
      className={`rounded-md border px-3 py-2 ${
        hovered || selected ? 'border-blue-700 bg-blue-50' : 'border-transparent hover:bg-slate-100'
      }`}
    >
      <div className="flex items-baseline justify-between gap-2">
        <label htmlFor={id} className="font-mono text-xs font-medium break-all text-slate-800">
          {leaf.path}
        </label>
        <span className="flex shrink-0 items-center gap-2 text-xs text-slate-600">
          {correction && <span className="font-medium text-violet-800">edited</span>}
          {page != null && <span>p. {page + 1}</span>}
          {leaf.confidence && (
            <span className={`rounded border px-1.5 py-0.5 ${confidenceStyle[leaf.confidence].badge}`}>
              {leaf.confidence}
            </span>
          )}
        </span>
      </div>
      <ValueEditor
        id={id}
        original={leaf.value}
        value={value}
        onFocus={() => onFieldSelect(leaf.path)}
        onChange={(v) => onFieldChange(leaf.path, v)}
      />
    </li>
  );
}
