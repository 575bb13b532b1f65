/**
 * How documents were decided, per day or week: confirmed automatically (stripes), by an operator
 * (solid), rejected (dots), stacked, each part labelled with its count and each bar's automatic share
 * written above it.
 */
import {
  Bar,
  BarChart,
  CartesianGrid,
  LabelList,
  Legend,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { AnalyticsResponse } from '@extraction-review/contract/review/analytics';
import { FILLS } from './chart-patterns';
import { ChartSection, FiguresTable } from './chart-section';
import { formatDay, formatShare, plural } from './format';

interface Props {
  figures: AnalyticsResponse;
  csvUrl: string;
}

const hideZero = (value: unknown) => (value === 0 || value === undefined ? '' : String(value));

export function ConfirmationsChart({ figures, csvUrl }: Props) {
  const { confirmations, bucket } = figures;
  const per = bucket === 'day' ? 'day' : 'week';
  const data = confirmations.periods.map((p) => ({
    label: bucket === 'day' ? formatDay(p.from) : `from ${formatDay(p.from)}`,
    automatic: p.automatic,
    byOperator: p.byOperator,
    rejected: p.rejected,
    share: p.automaticShare === null ? '' : formatShare(p.automaticShare),
  }));
  const confirmed = confirmations.automatic + confirmations.byOperator;
  return (
    <ChartSection
      title="Confirmed automatically"
      description={`Documents decided in the period, per ${per}: confirmed at intake by their model's routing rules, by an operator, or rejected. The share above each bar is the automatic confirmations' share of the confirmations.`}
      summary={`${formatShare(confirmations.automaticShare)} of ${plural(confirmed, 'confirmation')} were automatic: ${String(confirmations.automatic)} automatic, ${String(confirmations.byOperator)} by an operator; ${String(confirmations.rejected)} rejected.`}
      csvUrl={csvUrl}
      chart={
        <ResponsiveContainer width="100%" height={260}>
          <BarChart data={data} margin={{ top: 24, right: 8, bottom: 0, left: 0 }} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="label" tick={{ fontSize: 12 }} />
            <YAxis allowDecimals={false} width={36} tick={{ fontSize: 12 }} />
            <Tooltip />
            <Legend />
            <Bar dataKey="automatic" name="Automatic" stackId="d" fill={FILLS.stripes} stroke="#1e3a8a">
              <LabelList dataKey="automatic" position="inside" formatter={hideZero} fill="#0f172a" />
            </Bar>
            <Bar dataKey="byOperator" name="By an operator" stackId="d" fill={FILLS.solid} stroke="#334155">
              <LabelList dataKey="byOperator" position="inside" formatter={hideZero} fill="#ffffff" />
            </Bar>
            <Bar dataKey="rejected" name="Rejected" stackId="d" fill={FILLS.dots} stroke="#7c2d12">
              <LabelList dataKey="rejected" position="inside" formatter={hideZero} fill="#0f172a" />
              <LabelList dataKey="share" position="top" fill="currentColor" fontSize={12} />
            </Bar>
          </BarChart>
        </ResponsiveContainer>
      }
      table={
        <FiguresTable
          caption={`Decisions per ${per}`}
          columns={[
            { label: bucket === 'day' ? 'Day' : 'Week from' },
            { label: 'Automatic', numeric: true },
            { label: 'By an operator', numeric: true },
            { label: 'Rejected', numeric: true },
            { label: 'Automatic share', numeric: true },
          ]}
          rows={confirmations.periods.map((p) => ({
            key: p.from,
            cells: [formatDay(p.from), p.automatic, p.byOperator, p.rejected, formatShare(p.automaticShare)],
          }))}
        />
      }
    />
  );
}
