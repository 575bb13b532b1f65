/**
 * The fields operators correct most: a bar per field (documents in which it was corrected, with the
 * share of the documents confirmed by an operator written at its end), then before → after examples
 * (extracted text, shown as text), and the list items added and removed.
 */
import { Link } from 'wouter';
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
import type { AnalyticsResponse, CorrectionExample } from '@extraction-review/contract/review/analytics';
import { FILLS } from './chart-patterns';
import { ChartSection, FiguresTable } from './chart-section';
import { formatShare, plural } from './format';

interface Props {
  figures: AnalyticsResponse;
  csvUrl: (table: 'fields' | 'examples' | 'list-edits') => string;
}

export function CorrectedFields({ figures, csvUrl }: Props) {
  const { corrections } = figures;
  const data = corrections.fields.map((f) => ({
    field: f.field,
    documents: f.documents,
    label: `${String(f.documents)} (${formatShare(f.share)})`,
  }));
  const top = corrections.fields[0];
  return (
    <>
      <ChartSection
        title="Fields corrected most"
        description={`Of the ${plural(corrections.documentsConfirmed, 'document')} confirmed by an operator in the period, how many had each field corrected (the correction kept at confirmation; list items counted once per document: line_items[].quantity).`}
        summary={
          top === undefined
            ? 'No field was corrected in the period.'
            : `${top.field} was corrected most, in ${plural(top.documents, 'document')} (${formatShare(top.share)}).`
        }
        csvUrl={csvUrl('fields')}
        chart={
          data.length === 0 ? undefined : (
            <ResponsiveContainer width="100%" height={40 + 30 * data.length}>
              <BarChart
                data={data}
                layout="vertical"
                margin={{ right: 80, left: 8 }}
                accessibilityLayer={false}
              >
                <CartesianGrid strokeDasharray="3 3" horizontal={false} />
                <XAxis type="number" allowDecimals={false} tick={{ fontSize: 12 }} />
                <YAxis type="category" dataKey="field" width={200} tick={{ fontSize: 12 }} />
                <Tooltip />
                <Bar dataKey="documents" name="Documents" fill={FILLS.solid}>
                  <LabelList dataKey="label" position="right" fill="currentColor" fontSize={12} />
                </Bar>
              </BarChart>
            </ResponsiveContainer>
          )
        }
        table={
          <FiguresTable
            caption="Fields corrected most"
            columns={[
              { label: 'Field' },
              { label: 'Documents', numeric: true },
              { label: 'Values', numeric: true },
              { label: 'Share of documents', numeric: true },
            ]}
            rows={corrections.fields.map((f) => ({
              key: f.field,
              cells: [<code key="f">{f.field}</code>, f.documents, f.values, formatShare(f.share)],
            }))}
          />
        }
      />
      <ChartSection
        title="Before → after"
        description="The latest corrections of the fields corrected most: the value as extracted, and as confirmed."
        csvUrl={csvUrl('examples')}
        table={
          <FiguresTable
            caption="Examples of corrections, before and after"
            columns={[{ label: 'Field' }, { label: 'Before → after' }, { label: 'Document' }]}
            rows={corrections.fields.flatMap((f) =>
              f.examples.map((e, index) => ({
                key: `${f.field}:${String(index)}`,
                cells: [
                  <code key="p">{e.path}</code>,
                  <Change key="c" example={e} />,
                  <DocumentLink key="d" example={e} />,
                ],
              })),
            )}
          />
        }
      />
      <ChartSection
        title="List items added and removed"
        description="Items operators added to or removed from a list (the corrections above count values only)."
        csvUrl={csvUrl('list-edits')}
        table={
          <FiguresTable
            caption="List items added and removed"
            columns={[
              { label: 'List' },
              { label: 'Documents', numeric: true },
              { label: 'Items added', numeric: true },
              { label: 'Items removed', numeric: true },
            ]}
            rows={corrections.listEdits.map((l) => ({
              key: l.list,
              cells: [<code key="l">{l.list}</code>, l.documents, l.added, l.removed],
            }))}
          />
        }
      />
    </>
  );
}

function Change({ example }: { example: CorrectionExample }) {
  return (
    <span>
      <Value text={example.before} /> <span aria-hidden="true">→</span>
      <span className="sr-only">became</span> <Value text={example.after} />
    </span>
  );
}

/** Extracted text, as text; an empty value said in words. */
function Value({ text }: { text: string | null }) {
  return text === null || text === '' ? (
    <em className="text-slate-600">(empty)</em>
  ) : (
    <span className="rounded bg-slate-100 px-1 font-mono whitespace-pre-wrap">{text}</span>
  );
}

function DocumentLink({ example }: { example: CorrectionExample }) {
  return (
    <Link href={`/review/${encodeURIComponent(example.documentId)}`} className="text-blue-900 underline">
      {example.fileName}
    </Link>
  );
}
