/**
 * A document's timeline as CSV for admins (RFC 4180: CRLF, quotes doubled; a BOM so spreadsheet
 * programs read UTF-8; cells that a spreadsheet would run as a formula are prefixed with `'`).
 */
import type { TimelineEntry } from '@extraction-review/contract/review/schemas';

const FORMULA_START = /^[=+\-@\t\r]/;

function cell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function timelineCsv(events: readonly TimelineEntry[]): string {
  const lines = [['at', 'event', 'operator', 'field', 'before', 'after', 'reason', 'details']];
  for (const event of events) {
    const data = event.data ?? {};
    const text = (key: string) => (data[key] === undefined ? '' : JSON.stringify(data[key]));
    const { field, before, after, reason, ...rest } = data;
    lines.push([
      event.at,
      event.kind,
      event.actor?.name ?? event.actor?.id ?? '',
      typeof field === 'string' ? field : '',
      before === undefined ? '' : text('before'),
      after === undefined ? '' : text('after'),
      typeof reason === 'string' ? reason : '',
      Object.keys(rest).length === 0 ? '' : JSON.stringify(rest),
    ]);
  }
  return `\uFEFF${lines.map((line) => line.map(cell).join(',')).join('\r\n')}\r\n`;
}
