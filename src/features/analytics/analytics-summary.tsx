/** The page's answers in four sentences, before the charts that explain them. */
import type { AnalyticsResponse } from '@extraction-review/contract/review/analytics';
import { formatDuration, formatShare, plural } from './format';

export function AnalyticsSummary({ figures }: { figures: AnalyticsResponse }) {
  const { confirmations, corrections, time, queue } = figures;
  const top = corrections.fields[0];
  const items: [string, string][] = [
    [
      'Corrected most',
      top === undefined
        ? 'No field was corrected.'
        : `${top.field}, in ${plural(top.documents, 'document')} of ${String(corrections.documentsConfirmed)} confirmed by an operator (${formatShare(top.share)}).`,
    ],
    [
      'Confirmed automatically',
      `${formatShare(confirmations.automaticShare)} (${String(confirmations.automatic)} of ${plural(confirmations.automatic + confirmations.byOperator, 'confirmation')}).`,
    ],
    [
      'Time per document',
      `median ${formatDuration(time.medianMs)} over ${plural(time.documents, 'document')} decided by an operator.`,
    ],
    [
      'Queue',
      queue.total === 0
        ? 'No document waits for a decision.'
        : `${plural(queue.total, 'document')} without a decision, the oldest waiting ${formatDuration(queue.maxMs)}.`,
    ],
  ];
  return (
    <dl className="grid gap-3 sm:grid-cols-2">
      {items.map(([term, text]) => (
        <div key={term} className="rounded-lg border border-slate-200 bg-white p-3">
          <dt className="text-sm font-medium text-slate-600">{term}</dt>
          <dd className="mt-1 text-sm break-words">{text}</dd>
        </div>
      ))}
    </dl>
  );
}
