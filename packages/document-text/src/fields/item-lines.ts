/**
 * Items printed without a header row (a till receipt: "Cappuccino   3.50", "2 x Croissant   4.20"):
 * when no table is found, the lines right above the totals block that read as text followed by an
 * amount at the line's end are the items. Each gives a description (the text, without a leading
 * "2 x" or "2x"), a quantity (that prefix, when printed) and a total (the amount).
 *
 * The block is found from the totals up: the first line holding an exact label of a number field of
 * the schema (Subtotal, Tax, Total...) ends it, and it starts after the last line above that is no
 * item (a date and time, a receipt number, the address). Lines after the totals (payment, change)
 * are never items. Read less surely than a table (no column says what each part is).
 */
import type { FieldSchema, SubFieldSchema } from '@extraction-review/contract/v2/field-schema';
import type { Word } from '../extractor';
import { LABEL_FACTOR, POSITION_FACTOR } from './confidence';
import { makeCandidate, parseWords, type Candidate, type FinderContext } from './candidates';
import type { TokenLine } from './document-index';
import type { TableRow } from './table';

/** An amount as a till prints it: decimals, maybe a sign or a code around it. */
const MONEY = /^[-(]?(?:[A-Z]{3}|[$€£¥])?\s?\d[\d.,' ]*[.,]\d{2}\)?(?:\s?(?:[A-Z]{3}|[$€£¥]))?$/;
const GLUED_QUANTITY = /^\d{1,3}[x×*]$/i;
const TIMES = /^[x×*]$/i;

export function readItemLines(ctx: FinderContext, field: FieldSchema): TableRow[] {
  const description = field.nested_fields.find(
    (s) => s.type === 'string' && /description|item|name/.test(s.name),
  );
  const total = field.nested_fields.find(
    (s) => s.type === 'number' && /total|amount/.test(s.name) && !/tax/.test(s.name),
  );
  const quantity = field.nested_fields.find((s) => s.type === 'number' && /quantity|qty/.test(s.name));
  if (!description || !total) return [];
  const end = firstTotalsLine(ctx);
  if (!end) return [];
  const lines = end.page.lines;
  const rows: TableRow[] = [];
  for (let i = end.lineIndex - 1; i >= 0; i--) {
    const item = readItem(ctx, lines[i]?.words ?? [], description, total, quantity, end.page.index);
    if (!item) break;
    rows.unshift(item);
  }
  return rows;
}

/** The first line holding an exact label of a top-level number field (the totals begin). */
function firstTotalsLine(ctx: FinderContext): TokenLine | undefined {
  let first: TokenLine | undefined;
  for (const field of ctx.schema) {
    if (field.type !== 'number' || field.is_array) continue;
    for (const match of ctx.index.labelMatches(field)) {
      if (match.strength !== 'exact') continue;
      const at = match.at;
      if (
        !first ||
        at.page.index < first.page.index ||
        (at.page === first.page && at.lineIndex < first.lineIndex)
      )
        first = at;
    }
  }
  return first;
}

function readItem(
  ctx: FinderContext,
  words: readonly Word[],
  description: SubFieldSchema,
  total: SubFieldSchema,
  quantity: SubFieldSchema | undefined,
  page: number,
): TableRow | undefined {
  // The amount: the line's last one or two words ("3,18 €").
  let cut = -1;
  for (const k of [words.length - 2, words.length - 1]) {
    if (k < 1) continue;
    const text = words
      .slice(k)
      .map((w) => w.text)
      .join(' ');
    if (MONEY.test(text)) {
      cut = k;
      break;
    }
  }
  if (cut < 0) return undefined;
  const amount = parseWords(words.slice(cut), total, ctx.dateOrder);
  let text = words.slice(0, cut);
  if (!amount || text.some((w) => ctx.index.labelWords.has(w))) return undefined;
  const cells = new Map<SubFieldSchema, Candidate>();
  const evidence = { label: LABEL_FACTOR.variant, position: POSITION_FACTOR.block };
  const [first = '', second = ''] = text.map((w) => w.text);
  // "2x Croissant" or "2 x Croissant".
  const used = GLUED_QUANTITY.test(first) ? 1 : /^\d{1,3}$/.test(first) && TIMES.test(second) ? 2 : 0;
  if (used > 0 && quantity) {
    cells.set(quantity, makeCandidate(parseInt(first, 10), text.slice(0, used), page, evidence, true));
  }
  text = text.slice(used);
  if (!text.some((w) => /\p{L}{2}/u.test(w.text))) return undefined;
  cells.set(description, makeCandidate(text.map((w) => w.text).join(' '), text, page, evidence, true));
  cells.set(total, makeCandidate(amount.value, amount.words, page, evidence, true));
  return { page, cells, words: [...words] };
}
