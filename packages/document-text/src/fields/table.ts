/**
 * A list of objects printed as a table (line items): find the header row (a line where the labels of
 * at least two sub-fields stand: "Description", "Qty", "Unit price", "Amount"), then read each line
 * under it by columns until the table ends:
 *
 * - a line is cut into cells at gaps wider than a word space; each cell goes to the column whose
 *   header it overlaps, else the nearest one (numbers to number columns first);
 * - a line with a number in a number column starts a row; a line with text only in text columns
 *   continues the row above (a description on two lines);
 * - the table ends at a blank gap of 4 lines, a label of another field ("Subtotal", "Total"), text in
 *   a number column, or the end of the page. A header printed again (next page) starts a new table.
 *
 * A row whose quantity × unit price equals its total (the sub-fields are recognised by name:
 * quantity/qty, unit price, total/amount) is more certain; one where they disagree, less.
 */
import type { FieldSchema, SubFieldSchema } from '@extraction-review/contract/v2/field-schema';
import type { Word } from '../extractor';
import { boxHeight, heightInWidthUnits, unionBox, type Box } from '../geometry';
import { AMBIGUOUS_PARSE, LABEL_FACTOR, POSITION_FACTOR, scoreOf, type Evidence } from './confidence';
import { makeCandidate, parseWords, type Candidate, type FinderContext } from './candidates';
import type { LabelMatch, PageLayout, TokenLine } from './document-index';
import type { LabelStrength } from './label-phrases';

interface Column {
  field: SubFieldSchema;
  box: Box;
  strength: LabelStrength;
  numeric: boolean;
}

export interface TableRow {
  page: number;
  cells: Map<SubFieldSchema, Candidate>;
  words: Word[];
}

/** Cells are cut at gaps wider than this, in font heights (a word space is about 0.3). */
const CELL_GAP_EM = 1.2;
/** A blank gap of this many row heights ends the table. */
const END_GAP_LINES = 4;
/** A continuation line is at most this many line heights under the row above. */
const CONTINUATION_GAP_LINES = 1.6;
/** A cell farther than this (page widths) from every column header belongs to none. */
const MAX_COLUMN_DISTANCE = 0.08;
const ARITHMETIC_AGREES = 1.1;
/** A number with decimals: a value, never a column title. */
const AMOUNT = /\d[.,]\d{2}(?!\d)/;
const ARITHMETIC_DISAGREES = 0.85;

export function readTables(ctx: FinderContext, field: FieldSchema): TableRow[] | undefined {
  const headers = findHeaders(ctx, field);
  if (headers.length === 0) return undefined;
  const rows: TableRow[] = [];
  headers.forEach((header, i) => {
    const next = headers[i + 1];
    rows.push(...readRows(ctx, field, header, next?.line));
  });
  for (const row of rows) checkArithmetic(row, field);
  return rows;
}

export interface Header {
  line: TokenLine;
  columns: Column[];
}

export function findHeaders(ctx: FinderContext, field: FieldSchema): Header[] {
  const byLine = new Map<TokenLine, { field: SubFieldSchema; match: LabelMatch }[]>();
  for (const sub of field.nested_fields) {
    for (const match of ctx.index.labelMatches(sub)) {
      const list = byLine.get(match.at) ?? [];
      list.push({ field: sub, match });
      byLine.set(match.at, list);
    }
  }
  const headers: Header[] = [];
  for (const [line, found] of byLine) {
    // Longer and stronger labels first; each word serves one column, each sub-field one label.
    found.sort(
      (a, b) =>
        b.match.end - b.match.start - (a.match.end - a.match.start) ||
        strengthRank(b.match.strength) - strengthRank(a.match.strength),
    );
    const used = new Set<number>();
    const columns: Column[] = [];
    for (const { field: sub, match } of found) {
      if (columns.some((c) => c.field === sub)) continue;
      const span = Array.from({ length: match.end - match.start }, (_, k) => match.start + k);
      if (span.some((k) => used.has(k))) continue;
      span.forEach((k) => used.add(k));
      const box = ctx.index.labelBox(match);
      if (!box) continue;
      columns.push({ field: sub, box, strength: match.strength, numeric: sub.type === 'number' });
    }
    // A header names at least two columns, one of them exactly, and holds little else.
    const labelled = used.size;
    // ... and no amount: "Total tax USD 2576.70" names two columns but is a total's line.
    const amount = line.line.words.some((w, k) => !used.has(k) && AMOUNT.test(w.text));
    if (
      columns.length >= 2 &&
      columns.some((c) => c.strength === 'exact') &&
      labelled >= line.line.words.length / 2 &&
      !amount
    ) {
      headers.push({ line, columns: columns.sort((a, b) => a.box.x0 - b.box.x0) });
    }
  }
  return headers.sort(
    (a, b) => a.line.page.index - b.line.page.index || a.line.line.box.y0 - b.line.line.box.y0,
  );
}

const strengthRank = (s: LabelStrength): number => ({ exact: 2, variant: 1, fuzzy: 0 })[s];

function readRows(
  ctx: FinderContext,
  field: FieldSchema,
  header: Header,
  nextHeader?: TokenLine,
): TableRow[] {
  const { page } = header.line;
  const rows: TableRow[] = [];
  const ownLabels = new Set(field.nested_fields);
  const otherLabelWords = new Set<Word>();
  for (const other of ctx.schema.filter((f) => f !== field)) {
    for (const f of [other, ...other.nested_fields]) {
      if (ownLabels.has(f as SubFieldSchema)) continue;
      for (const m of ctx.index.labelMatches(f)) {
        if (m.at.page === page && m.strength === 'exact') {
          m.at.line.words.slice(m.start, m.end).forEach((w) => otherLabelWords.add(w));
        }
      }
    }
  }
  let lastBox = header.line.line.box;
  let current: { row: TableRow; text: Map<SubFieldSchema, Word[]> } | undefined;
  const finish = (): void => {
    if (current) rows.push(finishRow(ctx, header, current.text, page));
    current = undefined;
  };
  for (const line of page.lines.slice(header.line.lineIndex + 1)) {
    if (nextHeader && line === nextHeader.line) break;
    if (line.box.y0 - lastBox.y1 > END_GAP_LINES * boxHeight(lastBox)) break;
    if (line.words.some((w) => otherLabelWords.has(w))) break;
    const cells = cellsOf(line.words, page).map((words) => ({
      words,
      column: columnFor(words, header.columns),
    }));
    const numberCells = cells.filter(
      (c) => c.column?.numeric && parseWords(c.words, c.column.field, ctx.dateOrder),
    );
    const textInNumberColumn = cells.some(
      (c) =>
        c.column?.numeric &&
        !parseWords(c.words, c.column.field, ctx.dateOrder) &&
        /\p{L}{2}/u.test(c.words.map((w) => w.text).join('')),
    );
    if (textInNumberColumn && numberCells.length === 0) break;
    if (numberCells.length > 0) {
      finish();
      current = { row: { page: page.index, cells: new Map(), words: [] }, text: new Map() };
    } else if (!current || line.box.y0 - lastBox.y1 > CONTINUATION_GAP_LINES * boxHeight(lastBox)) {
      if (current) finish();
      continue;
    }
    for (const cell of cells) {
      if (!cell.column) continue;
      const list = current.text.get(cell.column.field) ?? [];
      list.push(...cell.words);
      current.text.set(cell.column.field, list);
    }
    lastBox = line.box;
  }
  finish();
  return rows;
}

function finishRow(
  ctx: FinderContext,
  header: Header,
  text: Map<SubFieldSchema, Word[]>,
  page: PageLayout,
): TableRow {
  const cells = new Map<SubFieldSchema, Candidate>();
  for (const column of header.columns) {
    const words = text.get(column.field);
    if (!words || words.length === 0) continue;
    const parsed = parseWords(words, column.field, ctx.dateOrder);
    if (!parsed) continue;
    cells.set(
      column.field,
      makeCandidate(
        parsed.value,
        parsed.words,
        page.index,
        {
          label: LABEL_FACTOR[column.strength],
          position: POSITION_FACTOR.cell,
          parse: parsed.clean ? 1 : AMBIGUOUS_PARSE,
        },
        true,
      ),
    );
  }
  return { page: page.index, cells, words: [...text.values()].flat() };
}

/** A line's words cut at gaps wider than a word space. */
function cellsOf(words: readonly Word[], page: PageLayout): Word[][] {
  const cells: Word[][] = [];
  for (const word of words) {
    const cell = cells.at(-1);
    const prev = cell?.at(-1);
    const em = heightInWidthUnits(word.box, page.aspect);
    if (cell && prev && word.box.x0 - prev.box.x1 < CELL_GAP_EM * em) cell.push(word);
    else cells.push([word]);
  }
  return cells;
}

/** The column a cell belongs to: the header it overlaps most, else the nearest (type first). */
function columnFor(words: readonly Word[], columns: readonly Column[]): Column | undefined {
  const box = unionBox(words.map((w) => w.box));
  const numeric =
    /\d/.test(words.map((w) => w.text).join('')) && !/\p{L}{3}/u.test(words.map((w) => w.text).join(' '));
  let best: Column | undefined;
  let bestCost = Infinity;
  for (const column of columns) {
    const overlap = Math.min(box.x1, column.box.x1) - Math.max(box.x0, column.box.x0);
    const distance = overlap > 0 ? -overlap : Math.max(column.box.x0 - box.x1, box.x0 - column.box.x1);
    const cost = distance + (column.numeric === numeric ? 0 : 0.1);
    if (cost < bestCost && cost <= MAX_COLUMN_DISTANCE) {
      bestCost = cost;
      best = column;
    }
  }
  return best;
}

type Role = 'quantity' | 'unit' | 'total';

function roleOf(field: SubFieldSchema): Role | undefined {
  if (field.type !== 'number') return undefined;
  const text = `${field.name.replace(/_/g, ' ')} ${field.title}`.toLowerCase();
  if (/\bquantity\b|\bqty\b/.test(text)) return 'quantity';
  if (/\bunit\b.*\bprice\b|\bprice\b.*\bunit\b|\bunit price\b/.test(text)) return 'unit';
  if (/\btax\b|\brate\b|\bdiscount\b/.test(text)) return undefined;
  if (/\btotal\b|\bamount\b/.test(text)) return 'total';
  return undefined;
}

/** quantity × unit price = total raises the three cells' scores; a mismatch lowers them. */
function checkArithmetic(row: TableRow, field: FieldSchema): void {
  const byRole = new Map<Role, Candidate>();
  for (const sub of field.nested_fields) {
    const role = roleOf(sub);
    const cell = row.cells.get(sub);
    if (role && cell && !byRole.has(role)) byRole.set(role, cell);
  }
  const [q, u, t] = [byRole.get('quantity'), byRole.get('unit'), byRole.get('total')];
  if (!q || !u || !t) return;
  const [qv, uv, tv] = [q.value, u.value, t.value].map(Number) as [number, number, number];
  const agrees = Math.abs(qv * uv - tv) <= Math.max(0.011, Math.abs(tv) * 0.005);
  for (const sub of field.nested_fields) {
    const cell = row.cells.get(sub);
    if (!cell || !roleOf(sub)) continue;
    const evidence: Evidence = {
      ...cell.evidence,
      hints: cell.evidence.hints * (agrees ? ARITHMETIC_AGREES : ARITHMETIC_DISAGREES),
    };
    row.cells.set(sub, { ...cell, evidence, score: scoreOf(evidence) });
  }
}
