/**
 * One table of "Where time goes" as CSV (`?format=csv&table=…`): what each chart of the page draws,
 * in its table's columns. RFC 4180 (CRLF, quotes doubled), UTF-8 with a BOM, cells a spreadsheet would
 * run as formulas defused (the review's own CSV writer). Durations in whole seconds, shares as
 * fractions (0.25), times in ISO 8601 UTC.
 */
import type { AnalyticsResponse, AnalyticsTable } from '@extraction-review/contract/review/analytics';
import { csvLine, safeCellText } from '@extraction-review/review-domain/corrections/to-csv';

type Cell = string | number | null;

export function analyticsCsv(figures: AnalyticsResponse, table: AnalyticsTable): string {
  const [header, rows] = tableOf(figures, table);
  const text = (cell: Cell) =>
    cell === null ? '' : typeof cell === 'number' ? String(cell) : safeCellText(cell);
  return `\uFEFF${csvLine(header)}${rows.map((row) => csvLine(row.map(text))).join('')}`;
}

const seconds = (ms: number | null) => (ms === null ? null : Math.round(ms / 1000));

function tableOf(figures: AnalyticsResponse, table: AnalyticsTable): [string[], Cell[][]] {
  switch (table) {
    case 'confirmations':
      return [
        ['from', 'to', 'confirmed_automatically', 'confirmed_by_operator', 'rejected', 'automatic_share'],
        figures.confirmations.periods.map((p) => [
          p.from,
          p.to,
          p.automatic,
          p.byOperator,
          p.rejected,
          p.automaticShare,
        ]),
      ];
    case 'fields':
      return [
        ['field', 'documents', 'values', 'share_of_documents', 'documents_confirmed_by_operator'],
        figures.corrections.fields.map((f) => [
          f.field,
          f.documents,
          f.values,
          f.share,
          figures.corrections.documentsConfirmed,
        ]),
      ];
    case 'examples':
      return [
        ['field', 'path', 'before', 'after', 'document_id', 'file_name', 'confirmed_at'],
        figures.corrections.fields.flatMap((f) =>
          f.examples.map((e) => [
            f.field,
            e.path,
            e.before,
            e.after,
            e.documentId,
            e.fileName,
            e.confirmedAt,
          ]),
        ),
      ];
    case 'list-edits':
      return [
        ['list', 'documents', 'items_added', 'items_removed'],
        figures.corrections.listEdits.map((l) => [l.list, l.documents, l.added, l.removed]),
      ];
    case 'time':
      return [
        ['time_per_document', 'from_seconds', 'to_seconds', 'documents'],
        figures.time.ranges.map((r) => [r.label, seconds(r.fromMs), seconds(r.toMs), r.count]),
      ];
    case 'operators':
      return [
        ['operator', 'operator_id', 'documents', 'total_seconds', 'median_seconds_per_document'],
        figures.time.operators.map((o) => [
          o.name,
          o.operatorId,
          o.documents,
          seconds(o.totalMs),
          seconds(o.medianMs),
        ]),
      ];
    case 'queue':
      return [
        ['age', 'from_seconds', 'to_seconds', 'documents'],
        figures.queue.ages.map((r) => [r.label, seconds(r.fromMs), seconds(r.toMs), r.count]),
      ];
  }
}
