import type { DocumentState } from '@extraction-review/contract/review/schemas';

/** Every state in words: shown in the counts, the badges and the filters, never by colour alone. */
export const STATE_LABEL: Record<DocumentState, string> = {
  to_review: 'To review',
  in_review: 'In review',
  postponed: 'Postponed',
  confirmed: 'Confirmed',
  rejected: 'Rejected',
  processing: 'Processing',
  failed: 'Failed',
};

/** The order the counts are shown in: the work first. */
export const STATE_ORDER: readonly DocumentState[] = [
  'to_review',
  'in_review',
  'postponed',
  'confirmed',
  'rejected',
  'processing',
  'failed',
];

const BADGE: Record<DocumentState, { icon: string; className: string }> = {
  to_review: { icon: '○', className: 'bg-blue-50 text-blue-900 ring-blue-300' },
  in_review: { icon: '◐', className: 'bg-indigo-50 text-indigo-900 ring-indigo-300' },
  postponed: { icon: '‖', className: 'bg-amber-50 text-amber-900 ring-amber-400' },
  confirmed: { icon: '✓', className: 'bg-green-50 text-green-900 ring-green-400' },
  rejected: { icon: '✕', className: 'bg-red-50 text-red-900 ring-red-400' },
  processing: { icon: '◌', className: 'bg-slate-50 text-slate-800 ring-slate-300' },
  failed: { icon: '!', className: 'bg-red-50 text-red-900 ring-red-400' },
};

/** A document's state as a badge: a shape and the word, the colour only repeating them. */
export function StateBadge({ state }: { state: DocumentState }) {
  const { icon, className } = BADGE[state];
  return (
    <span
      data-state={state}
      className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ${className}`}
    >
      <span aria-hidden="true">{icon}</span>
      {STATE_LABEL[state]}
    </span>
  );
}
