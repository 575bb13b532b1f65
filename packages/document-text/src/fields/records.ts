/**
 * A list of objects printed as summary lines rather than a table: taxes ("Sales Tax 5.0% 9.75",
 * "20% VAT Net 8.50" / "20% VAT 1.70"). Each line where a label of the object stands (its title,
 * name, quoted labels: "Tax", "VAT", "Sales tax") is a record:
 *
 * - a rate sub-field (a number whose name, title or description says rate, percent or %) takes the
 *   line's percentage;
 * - a number sub-field whose own label is on the line ("Net", "Base") takes the number right of it;
 * - the line's last amount (a number with decimals or a currency sign) goes to the main sub-field (the
 *   first other number sub-field, preferring one named amount or value);
 * - a sub-field still missing is looked for by its labels on the two lines above and below
 *   ("Subtotal 195.00" over "Sales Tax 5.0% 9.75" is the tax base).
 *
 * A line that also carries a label of another field ("20% VAT Total 10.20": "Total") is not a record.
 * Records with the same rate are one item.
 */
import type { FieldSchema, SubFieldSchema } from '@extraction-review/contract/v2/field-schema';
import type { Word } from '../extractor';
import { LABEL_FACTOR, POSITION_FACTOR } from './confidence';
import {
  expectsPercent,
  makeCandidate,
  parserFor,
  parseWords,
  type Candidate,
  type FinderContext,
} from './candidates';
import type { LabelMatch, TokenLine } from './document-index';

export interface RecordItem {
  page: number;
  cells: Map<SubFieldSchema, Candidate>;
  /** Records are located by their cells only. */
  words?: undefined;
}

/** Lines above and below a record searched for its missing sub-fields. */
const NEIGHBOUR_LINES = 2;
const MONEY = /[.,]\d{2}\)?$|^[-(]?[$€£¥₹]/;

export function readRecords(ctx: FinderContext, field: FieldSchema): RecordItem[] {
  const { index } = ctx;
  const anchors = new Map<TokenLine, LabelMatch>();
  for (const match of index.labelMatches(field)) {
    if (match.strength === 'fuzzy') continue;
    const known = anchors.get(match.at);
    if (!known || (known.strength !== 'exact' && match.strength === 'exact')) anchors.set(match.at, match);
  }
  const subLabels = new Map<SubFieldSchema, LabelMatch[]>(
    field.nested_fields.map((sub) => [sub, index.labelMatches(sub).filter((m) => m.strength !== 'fuzzy')]),
  );
  const items: RecordItem[] = [];
  for (const [line, anchor] of anchors) {
    const own = new Set<Word>(line.line.words.slice(anchor.start, anchor.end));
    for (const matches of subLabels.values()) {
      for (const m of matches)
        if (m.at === line) m.at.line.words.slice(m.start, m.end).forEach((w) => own.add(w));
    }
    if (carriesOtherLabel(ctx, field, line, own)) continue;
    const item: RecordItem = { page: line.page.index, cells: new Map() };
    const anchorFactor = LABEL_FACTOR[anchor.strength];
    const taken = new Set<Word>();
    // Rates: the line's percentage.
    for (const sub of field.nested_fields.filter(expectsPercent)) {
      const parse = parserFor(sub, ctx.dateOrder);
      const word = line.line.words.find((w) => parse?.(w.text.replace(/:$/, '')));
      const parsed = word && parse?.(word.text.replace(/:$/, ''));
      if (!word || !parsed) continue;
      taken.add(word);
      item.cells.set(
        sub,
        makeCandidate(
          parsed.value,
          [word],
          line.page.index,
          { label: anchorFactor, position: POSITION_FACTOR.cell },
          true,
        ),
      );
    }
    const numbers = field.nested_fields.filter((s) => s.type === 'number' && !expectsPercent(s));
    // Sub-fields with their own label on the line.
    for (const sub of numbers) {
      for (const m of subLabels.get(sub) ?? []) {
        if (m.at !== line || item.cells.has(sub)) continue;
        const right = index.wordsRightOf(m);
        const parsed = parseWords(
          right.length > 0 ? right : index.wordsRightOfSlanted(m),
          sub,
          ctx.dateOrder,
        );
        if (!parsed || parsed.words.some((w) => taken.has(w))) continue;
        parsed.words.forEach((w) => taken.add(w));
        item.cells.set(
          sub,
          makeCandidate(
            parsed.value,
            parsed.words,
            line.page.index,
            { label: anchorFactor * LABEL_FACTOR[m.strength], position: POSITION_FACTOR.right },
            true,
          ),
        );
      }
    }
    // The main sub-field: the line's last amount after the label.
    const main = [...numbers]
      .sort((a, b) => Number(isMain(b)) - Number(isMain(a)))
      .find((s) => !item.cells.has(s) && !(subLabels.get(s) ?? []).some((m) => m.at === line));
    if (main) {
      let after = line.line.words.slice(anchor.end).filter((w) => !taken.has(w) && !own.has(w));
      if (!after.some((w) => MONEY.test(w.text))) {
        after = index.wordsRightOfSlanted(anchor).filter((w) => !taken.has(w));
      }
      for (let k = after.length - 1; k >= 0; k--) {
        const word = after[k] as Word;
        if (!MONEY.test(word.text)) continue;
        // "$ 43.82": the sign may be a word of its own.
        const span = k > 0 && /^[$€£¥₹]$/.test(after[k - 1]?.text ?? '') ? after.slice(k - 1, k + 1) : [word];
        const parsed = parseWords(span, main, ctx.dateOrder);
        if (!parsed) continue;
        item.cells.set(
          main,
          makeCandidate(
            parsed.value,
            parsed.words,
            line.page.index,
            { label: anchorFactor, position: POSITION_FACTOR.cell },
            true,
          ),
        );
        break;
      }
    }
    if (![...item.cells.keys()].some((s) => numbers.includes(s))) continue;
    // Missing sub-fields: their labels on the lines around.
    for (const sub of numbers) {
      if (item.cells.has(sub)) continue;
      const near = (subLabels.get(sub) ?? []).filter(
        (m) =>
          m.at.page === line.page &&
          m.at !== line &&
          !anchors.has(m.at) &&
          Math.abs(m.at.lineIndex - line.lineIndex) <= NEIGHBOUR_LINES,
      );
      for (const m of near) {
        const parsed = parseWords(index.wordsRightOf(m), sub, ctx.dateOrder);
        if (!parsed) continue;
        item.cells.set(
          sub,
          makeCandidate(
            parsed.value,
            parsed.words,
            line.page.index,
            { label: anchorFactor * LABEL_FACTOR[m.strength], position: POSITION_FACTOR.block },
            true,
          ),
        );
        break;
      }
    }
    items.push(item);
  }
  return mergeByRate(items, field);
}

const isMain = (sub: SubFieldSchema): boolean =>
  /\bamount\b|\bvalue\b/.test(`${sub.name.replace(/_/g, ' ')} ${sub.title}`.toLowerCase());

/** Whether the line carries an exact or variant label of a field outside this object. */
function carriesOtherLabel(ctx: FinderContext, field: FieldSchema, line: TokenLine, own: Set<Word>): boolean {
  for (const other of ctx.schema) {
    if (other === field) continue;
    for (const f of [other, ...other.nested_fields]) {
      for (const m of ctx.index.labelMatches(f)) {
        if (m.at !== line || m.strength === 'fuzzy') continue;
        if (line.line.words.slice(m.start, m.end).some((w) => !own.has(w))) return true;
      }
    }
  }
  return false;
}

/** Records of the same rate (a tax's net, amount and total lines) are one item. */
function mergeByRate(items: RecordItem[], field: FieldSchema): RecordItem[] {
  const rate = field.nested_fields.find(expectsPercent);
  if (!rate) return items;
  const out: RecordItem[] = [];
  for (const item of items) {
    const value = item.cells.get(rate)?.value;
    const same = value === undefined ? undefined : out.find((o) => o.cells.get(rate)?.value === value);
    if (!same) {
      out.push(item);
      continue;
    }
    for (const [sub, cell] of item.cells) if (!same.cells.has(sub)) same.cells.set(sub, cell);
  }
  return out;
}
