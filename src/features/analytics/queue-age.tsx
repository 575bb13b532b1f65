/** The queue's age now: documents without a decision by how long they have waited since their result. */
import {
  Bar,
  BarChart,
  CartesianGrid,
  LabelList,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { AnalyticsResponse } from '@extraction-review/contract/review/analytics';
import { FILLS } from './chart-patterns';
import { ChartSection, FiguresTable } from './chart-section';
import { formatDuration, plural } from './format';

interface Props {
  figures: AnalyticsResponse;
  csvUrl: string;
}

export function QueueAge({ figures, csvUrl }: Props) {
  const { queue } = figures;
  const said = `${plural(queue.total, 'document')} without a decision (${String(queue.waiting)} waiting, ${String(queue.inReview)} in review, ${String(queue.postponed)} postponed): median age ${formatDuration(queue.medianMs)}, 90 % younger than ${formatDuration(queue.p90Ms)}, oldest ${formatDuration(queue.maxMs)}.`;
  return (
    <ChartSection
      title="Queue's age"
      description="Now, whatever the period: documents with a result and no decision yet, by the time since their result arrived."
      summary={said}
      csvUrl={csvUrl}
      chart={
        <ResponsiveContainer width="100%" height={220}>
          <BarChart data={queue.ages} margin={{ top: 20, right: 8, left: 0 }} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="label" tick={{ fontSize: 12 }} />
            <YAxis allowDecimals={false} width={36} tick={{ fontSize: 12 }} />
            <Tooltip />
            <Bar dataKey="count" name="Documents" fill={FILLS.dots} stroke="#7c2d12">
              <LabelList dataKey="count" position="top" fill="currentColor" fontSize={12} />
            </Bar>
          </BarChart>
        </ResponsiveContainer>
      }
      table={
        <>
          <p className="mb-2 text-sm">{said}</p>
          <FiguresTable
            caption="Documents without a decision, by age"
            columns={[{ label: 'Age' }, { label: 'Documents', numeric: true }]}
            rows={queue.ages.map((r) => ({ key: r.label, cells: [r.label, r.count] }))}
          />
        </>
      }
    />
  );
}
