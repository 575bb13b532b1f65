import type { DocumentState, StateCounts } from '@extraction-review/contract/review/schemas';
import { STATE_LABEL, STATE_ORDER } from './state-badge';

interface Props {
  /** The counts per state of the documents the other filters list; undefined while loading. */
  counts: StateCounts | undefined;
  selected: DocumentState | undefined;
  onSelect: (state: DocumentState | undefined) => void;
}

const base =
  'inline-flex items-center gap-2 rounded-md border px-3 py-1.5 text-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700';
const pressed = 'border-blue-800 bg-blue-800 font-semibold text-white';
const unpressed = 'border-slate-300 bg-white text-slate-800 hover:bg-slate-100';

/** The number of documents in each state, each a toggle that shows only that state. */
export function QueueCounts({ counts, selected, onSelect }: Props) {
  const total = counts ? STATE_ORDER.reduce((sum, state) => sum + (counts[state] ?? 0), 0) : undefined;
  return (
    <div role="group" aria-label="Show documents by state" className="flex flex-wrap gap-2">
      <CountButton
        label="All"
        count={total}
        pressed={selected === undefined}
        onClick={() => onSelect(undefined)}
      />
      {STATE_ORDER.map((state) => (
        <CountButton
          key={state}
          label={STATE_LABEL[state]}
          count={counts?.[state]}
          pressed={selected === state}
          onClick={() => onSelect(state)}
        />
      ))}
    </div>
  );
}

function CountButton({
  label,
  count,
  pressed: isPressed,
  onClick,
}: {
  label: string;
  count: number | undefined;
  pressed: boolean;
  onClick: () => void;
}) {
  return (
    <button
      type="button"
      aria-pressed={isPressed}
      onClick={onClick}
      className={`${base} ${isPressed ? pressed : unpressed}`}
    >
      {isPressed && <span aria-hidden="true">✓</span>}
      {label}{' '}
      <span
        className={`rounded-full px-1.5 text-xs tabular-nums ${isPressed ? 'bg-white text-blue-900' : 'bg-slate-100 text-slate-700'}`}
      >
        {count ?? '…'}
      </span>
    </button>
  );
}
