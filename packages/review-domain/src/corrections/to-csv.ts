/**
 * The corrected result as CSV (RFC 4180), one row per list item:
 *
 * - The document's own values (simple fields, and the sub-fields of objects as `supplier_address.city`)
 *   are repeated on every row. A list of simple values (`reference_numbers`) is one cell, its items
 *   joined with `; `.
 * - Each list of objects (a table: `line_items`, `taxes`) gives one row per item, its sub-fields in
 *   columns named `line_items.description`; `list` and `item` (1-based) say which table and row it is.
 *   A document with one table thus gives one row per table row, the document's values repeated.
 * - A document without any table item gives one row.
 * - Deeper content of an item (an object inside a row, a list inside a row) is flattened into the row:
 *   objects as `line_items.sub.name` columns, lists as one cell joined with `; `.
 *
 * Cells: numbers as JavaScript writes them (`1234.5`), booleans `true`/`false`, null empty. A text that
 * starts with `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `'`, so that a spreadsheet
 * does not run it as a formula (OWASP "CSV injection"). Cells with a quote, comma, line break or
 * surrounding spaces are quoted, quotes doubled. Lines end with CRLF; the file starts with a UTF-8
 * byte-order mark, so that spreadsheets read accents correctly.
 */
import type { FieldMap, FieldResult, SimpleValue } from '@extraction-review/contract/v2/schemas';

/** One CSV line, cell by column name. */
export type CsvRecord = Map<string, string>;
type Row = CsvRecord;

interface Table {
  path: string;
  rows: Row[];
  columns: string[];
}

export function toCsv(fields: FieldMap): string {
  const { header, rows } = csvRecords(fields);
  const lines = [header, ...rows.map((row) => header.map((column) => row.get(column) ?? ''))];
  return `\uFEFF${lines.map(csvLine).join('')}`;
}

/** One CSV line (CRLF-terminated) of already-formatted cells. */
export const csvLine = (cells: readonly string[]): string => `${cells.map(quote).join(',')}\r\n`;

/**
 * The rows `toCsv` writes and their columns in order, for a caller that writes several documents into
 * one file (the review store's exports).
 */
export function csvRecords(fields: FieldMap): { header: string[]; rows: CsvRecord[] } {
  const documentRow: Row = new Map();
  const tables: Table[] = [];
  collect(fields, '', documentRow, tables);

  const documentColumns = [...documentRow.keys()];
  const rows: Row[] = [];
  for (const table of tables) {
    table.rows.forEach((cells, i) => {
      const row: Row = new Map([
        ['list', table.path],
        ['item', String(i + 1)],
      ]);
      for (const [k, v] of documentRow) row.set(k, v);
      for (const [k, v] of cells) row.set(k, v);
      rows.push(row);
    });
  }
  const tableColumns = tables.flatMap((t) => t.columns);
  const header = tables.length > 0 ? ['list', 'item', ...documentColumns, ...tableColumns] : documentColumns;
  if (rows.length === 0) rows.push(documentRow);
  return { header, rows };
}

/** The document's values into `row`; each list of objects into a table of its own. */
function collect(fields: FieldMap, prefix: string, row: Row, tables: Table[]): void {
  for (const [name, field] of Object.entries(fields)) {
    const path = `${prefix}${name}`;
    if ('items' in field && field.items.some((item) => 'fields' in item)) {
      const rows = field.items.map((item) => {
        const cells: Row = new Map();
        flatten(item, path, cells);
        return cells;
      });
      const columns = [...new Set(rows.flatMap((r) => [...r.keys()]))];
      tables.push({ path, rows, columns });
    } else if ('fields' in field) {
      collect(field.fields, `${path}.`, row, tables);
    } else {
      row.set(path, cellText(field));
    }
  }
}

/** One table row: objects into dotted columns, lists into one cell. */
function flatten(field: FieldResult, path: string, cells: Row): void {
  if ('fields' in field)
    for (const [name, sub] of Object.entries(field.fields)) flatten(sub, `${path}.${name}`, cells);
  else cells.set(path, cellText(field));
}

function cellText(field: FieldResult): string {
  if ('items' in field)
    return field.items
      .map(cellText)
      .filter((t) => t !== '')
      .join('; ');
  if ('fields' in field)
    return Object.entries(field.fields)
      .map(([name, sub]) => `${name}=${cellText(sub)}`)
      .join(', ');
  return scalar(field.value);
}

function scalar(value: SimpleValue): string {
  if (value == null) return '';
  if (typeof value === 'string') return safeCellText(value);
  return String(value);
}

/** A text cell a spreadsheet will not run as a formula (OWASP "CSV injection"). */
export const safeCellText = (value: string): string => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

export function quote(cell: string): string {
  return /[",\r\n]|^\s|\s$/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
}
