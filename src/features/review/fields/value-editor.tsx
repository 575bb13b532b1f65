import { useEffect, useRef, type KeyboardEvent } from 'react';
import type { CorrectionValue } from '../../../lib/draft-store';
import { isValidValue, type SimpleNode } from '@extraction-review/review-domain/fields/review-tree';

interface Props {
  node: SimpleNode;
  /** Given when a visible `<label htmlFor>` names the control (the field's title). */
  id?: string;
  /** Else the control's accessible name: `label`, or the field's title. */
  label?: string | undefined;
  disabled?: boolean;
  compact?: boolean;
  onFocus: () => void;
  onChange: (value: CorrectionValue) => void;
  onConfirm: () => void;
  onLeave: () => void;
}

const base =
  'w-full rounded border bg-white px-2 py-1 text-sm text-slate-900 focus:border-blue-700 focus:outline-2 focus:outline-blue-700 disabled:bg-slate-100 disabled:text-slate-500';

/**
 * A typed editor for one value, its accessible name the field's title; it carries its path in
 * `data-field-path` (what the review's focus moves and the end-to-end journeys find it by). Text is kept as typed: a number
 * that does not parse is flagged (`aria-invalid`), never lost. Enter confirms, Escape leaves.
 */
export function ValueEditor({
  node,
  id,
  label,
  disabled,
  compact,
  onFocus,
  onChange,
  onConfirm,
  onLeave,
}: Props) {
  const naming = id ? { id } : { 'aria-label': label ?? node.title };
  const pointer = useRef(false);
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      onLeave();
    } else if (event.key === 'Enter' && !event.nativeEvent.isComposing) {
      event.preventDefault();
      onConfirm();
    }
  };
  const common = { ...naming, 'data-field-path': node.path, disabled, onFocus, onKeyDown };
  const border = compact ? 'border-slate-300 min-w-24' : 'border-slate-300 mt-1';

  switch (node.type) {
    case 'boolean':
      return <BooleanEditor {...common} value={node.value} onChange={onChange} />;
    case 'classification':
      return (
        <select
          {...common}
          value={node.value == null ? '' : String(node.value)}
          onChange={(e) => onChange(e.target.value === '' ? null : e.target.value)}
          className={`${base} ${border}`}
        >
          <option value="">(none)</option>
          {node.options?.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
          {node.value != null && !node.options?.includes(String(node.value)) && (
            <option value={String(node.value)}>{String(node.value)} (not in the schema)</option>
          )}
        </select>
      );
    case 'date':
      return (
        <input
          {...common}
          type="date"
          value={typeof node.value === 'string' ? node.value : ''}
          onChange={(e) => onChange(e.target.value === '' ? null : e.target.value)}
          className={`${base} ${border} font-mono`}
        />
      );
    default: {
      const invalid = !isValidValue(node);
      return (
        <input
          {...common}
          onPointerDown={() => (pointer.current = true)}
          onFocus={(e) => {
            // Opened from the keyboard (Enter on the row, Tab): the whole value selected, so that typing
            // replaces it as in a spreadsheet's cell; a click keeps the caret where it lands.
            if (!pointer.current) e.currentTarget.select();
            pointer.current = false;
            onFocus();
          }}
          onBlur={() => (pointer.current = false)}
          type="text"
          inputMode={node.type === 'number' ? 'decimal' : undefined}
          value={node.value == null ? '' : String(node.value)}
          aria-invalid={invalid || undefined}
          onChange={(e) => onChange(e.target.value === '' ? null : e.target.value)}
          className={`${base} ${border} ${node.type === 'number' ? 'font-mono' : ''} ${invalid ? 'border-red-700 bg-red-50' : ''}`}
        />
      );
    }
  }
}

interface BooleanProps {
  value: CorrectionValue;
  onChange: (value: CorrectionValue) => void;
  onFocus: () => void;
  onKeyDown: (event: KeyboardEvent<HTMLElement>) => void;
  disabled?: boolean | undefined;
  id?: string;
  'aria-label'?: string;
  'data-field-path': string;
}

/** A checkbox; an unknown value (null) shows as indeterminate until the operator decides. */
function BooleanEditor({ value, onChange, ...props }: BooleanProps) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = value == null;
  }, [value]);
  return (
    <span className="mt-1 flex items-center gap-2 text-sm text-slate-800">
      <input
        ref={ref}
        {...props}
        type="checkbox"
        checked={value === true}
        onChange={(e) => onChange(e.target.checked)}
        className="size-4 accent-blue-800"
      />
      <span aria-hidden="true">{value == null ? 'unknown' : value ? 'yes' : 'no'}</span>
    </span>
  );
}
