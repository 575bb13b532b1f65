/**
 * Time spent: how many documents took how long (one bar per range), and each operator's total, with
 * their median per document in the table.
 */
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
  csvUrl: (table: 'time' | 'operators') => string;
}

export function WorkTime({ figures, csvUrl }: Props) {
  const { time } = figures;
  const operators = time.operators.map((o) => ({
    name: o.name ?? '(removed operator)',
    minutes: o.totalMs / 60_000,
    label: formatDuration(o.totalMs),
  }));
  return (
    <>
      <ChartSection
        title="Time per document"
        description={`Documents an operator confirmed or rejected in the period, by the time spent on them: from being taken to the decision, every session added up (a document released and taken again counts both).`}
        summary={`${plural(time.documents, 'document')}: median ${formatDuration(time.medianMs)}, 90 % within ${formatDuration(time.p90Ms)}, ${formatDuration(time.totalMs)} in all.`}
        csvUrl={csvUrl('time')}
        chart={
          <ResponsiveContainer width="100%" height={220}>
            <BarChart data={time.ranges} margin={{ top: 20, right: 8, left: 0 }} accessibilityLayer={false}>
              <CartesianGrid strokeDasharray="3 3" vertical={false} />
              <XAxis dataKey="label" tick={{ fontSize: 12 }} />
              <YAxis allowDecimals={false} width={36} tick={{ fontSize: 12 }} />
              <Tooltip />
              <Bar dataKey="count" name="Documents" fill={FILLS.solid}>
                <LabelList dataKey="count" position="top" fill="currentColor" fontSize={12} />
              </Bar>
            </BarChart>
          </ResponsiveContainer>
        }
        table={
          <>
            <p className="mb-2 text-sm">
              Median <strong>{formatDuration(time.medianMs)}</strong>, 90 % within{' '}
              <strong>{formatDuration(time.p90Ms)}</strong>, {formatDuration(time.totalMs)} over{' '}
              {plural(time.documents, 'document')}.
            </p>
            <FiguresTable
              caption="Documents by time spent"
              columns={[{ label: 'Time spent' }, { label: 'Documents', numeric: true }]}
              rows={time.ranges.map((r) => ({ key: r.label, cells: [r.label, r.count] }))}
            />
          </>
        }
      />
      <ChartSection
        title="Time per operator"
        description="Each operator's time on those documents (their own sessions only), and their median per document."
        summary={
          operators.length === 0
            ? 'No operator worked on a document decided in the period.'
            : operators.map((o) => `${o.name}: ${o.label}`).join('; ')
        }
        csvUrl={csvUrl('operators')}
        chart={
          operators.length === 0 ? undefined : (
            <ResponsiveContainer width="100%" height={40 + 30 * operators.length}>
              <BarChart
                data={operators}
                layout="vertical"
                margin={{ right: 90, left: 8 }}
                accessibilityLayer={false}
              >
                <CartesianGrid strokeDasharray="3 3" horizontal={false} />
                <XAxis type="number" unit=" min" tick={{ fontSize: 12 }} />
                <YAxis type="category" dataKey="name" width={140} tick={{ fontSize: 12 }} />
                <Tooltip />
                <Bar dataKey="minutes" name="Minutes" fill={FILLS.stripes} stroke="#1e3a8a">
                  <LabelList dataKey="label" position="right" fill="currentColor" fontSize={12} />
                </Bar>
              </BarChart>
            </ResponsiveContainer>
          )
        }
        table={
          <FiguresTable
            caption="Time per operator"
            columns={[
              { label: 'Operator' },
              { label: 'Documents', numeric: true },
              { label: 'Total', numeric: true },
              { label: 'Median per document', numeric: true },
            ]}
            rows={time.operators.map((o) => ({
              key: o.operatorId,
              cells: [
                o.name ?? '(removed operator)',
                o.documents,
                formatDuration(o.totalMs),
                formatDuration(o.medianMs),
              ],
            }))}
          />
        }
      />
    </>
  );
}
