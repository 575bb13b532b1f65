/**
 * Readings of one simple value (string, number, date; booleans and classifications have their own
 * modules but share these shapes): each strategy proposes candidates with their evidence, and the
 * best one wins. Strategies, strongest first:
 *
 * 1. a label of the field, the value right of it on its line or under it (label-phrases.ts);
 * 2. the text context names the value and it is printed somewhere (text-context.ts);
 * 3. a word with the prefix the guidelines expect (`starts with INV`);
 * 4. the first text at the top of page 1, when the guidelines say the value is printed there;
 * 5. any value of the field's type, when the guidelines say it may have no label.
 *
 * Words already taken by a labelled value of another field are not proposed again by 3–5.
 */
import type { FieldSchema } from '@extraction-review/contract/v2/field-schema';
import type { Word } from '../extractor';
import {
  AMBIGUOUS_PARSE,
  CONTEXT_AGREES,
  CONTEXT_DISAGREES,
  FORMAT_MISMATCH,
  LABEL_FACTOR,
  POSITION_FACTOR,
  readingOf,
  scoreOf,
  type Evidence,
  type Position,
} from './confidence';
import {
  MAX_WORD_GAP_EM,
  type AnyField,
  type DocumentIndex,
  type LabelMatch,
  type TokenLine,
} from './document-index';
import { parseBoolean, parseDate, parseNumber, parsePercent, parseString, type Parsed } from './parse-value';
import { normalizeToken } from './label-phrases';
import { expectsPercent, foldText, schemaHints, type DateOrder } from './schema-hints';
import { CONNECTORS, TITLE_WORDS } from './vocabulary';

export { expectsPercent } from './schema-hints';
import type { TextContext } from './text-context';

export type Value = string | number | boolean;

export interface Candidate {
  value: Value;
  words: Word[];
  page: number;
  evidence: Evidence;
  score: number;
  /** Breaks ties between equal scores: a colon after the label counts. */
  tie: number;
  labelled: boolean;
}

export interface FinderContext {
  index: DocumentIndex;
  context: TextContext;
  schema: readonly FieldSchema[];
  /**
   * Words taken by the best labelled value of some field: other fields leave them alone (the "Date"
   * label read on "Due date: ..." does not take the due date).
   */
  claimed: Map<Word, AnyField>;
  /** Classification values and synonyms of the whole schema, folded: never a name or a label value. */
  vocabulary: Set<string>;
  /** How ambiguous numeric dates are read, when something says. */
  dateOrder: DateOrder | undefined;
  /** Words of tables' header rows: a column title is no label of a single value. */
  tableHeaders: Set<Word>;
}

/** Longest value read for a typed field: "March 14, 2025" is 3 words, "14 de marzo de 2025" 5. */
const MAX_SPAN_WORDS = 5;
/** A tab-stop gap (in font heights) after a label without a colon: the value may be another column's. */
const TAB_GAP_EM = MAX_WORD_GAP_EM;
/** A string printed right of a label across a tab stop, without a colon (maybe another column). */
const ACROSS_TAB = 0.75;
/** A value right of its label, but on the neighbouring line (a slanted photo). */
const SLANTED = 0.9;
/** A value that is itself a label of some field. */
const LOOKS_LIKE_LABEL = 0.6;
/** How far down page 1 "the top of the document" reaches. */
const TOP_OF_PAGE = 0.3;

export function makeCandidate(
  value: Value,
  words: Word[],
  page: number,
  parts: Partial<Evidence> & { position: number },
  labelled: boolean,
  tie = 0,
): Candidate {
  const evidence: Evidence = {
    label: parts.label ?? 1,
    position: parts.position,
    parse: parts.parse ?? 1,
    reading: parts.reading ?? readingOf(words),
    hints: parts.hints ?? 1,
  };
  return { value, words, page, evidence, score: scoreOf(evidence), tie, labelled };
}

export const byRank = (a: Candidate, b: Candidate): number =>
  b.score - a.score || b.tie - a.tie || byReadingOrder(a, b);

export function byReadingOrder(a: Candidate, b: Candidate): number {
  const [boxA, boxB] = [a.words[0]?.box, b.words[0]?.box];
  return a.page - b.page || (boxA?.y0 ?? 0) - (boxB?.y0 ?? 0) || (boxA?.x0 ?? 0) - (boxB?.x0 ?? 0);
}

type Parser = (text: string) => Parsed<Value> | undefined;

export function parserFor(field: AnyField, dateOrder: DateOrder | undefined): Parser | undefined {
  const hints = schemaHints(field);
  switch (field.type) {
    case 'number':
      if (expectsPercent(field)) {
        return (text) => {
          const percent = parsePercent(text);
          if (percent) return hints.fraction ? { ...percent, value: round(percent.value / 100) } : percent;
          return undefined;
        };
      }
      return (text) => (text.includes('%') ? undefined : parseNumber(text));
    case 'date':
      return (text) => parseDate(text, hints.dateOrder ?? dateOrder);
    case 'boolean':
      return parseBoolean;
    default:
      return undefined;
  }
}

const round = (n: number): number => Math.round(n * 1e9) / 1e9;

/** A string takes the whole run; a typed value the first span of up to 4 words that parses. */
export function parseWords(
  words: readonly Word[],
  field: AnyField,
  dateOrder: DateOrder | undefined,
): (Parsed<Value> & { words: Word[] }) | undefined {
  const join = (span: readonly Word[]): string => span.map((w) => w.text).join(' ');
  if (words.length === 0) return undefined;
  if (field.type === 'string') {
    if (isIdentifier(field)) return identifierOf(words, dateOrder);
    const parsed = parseString(join(words));
    return parsed && { ...parsed, words: [...words] };
  }
  const parse = parserFor(field, dateOrder);
  if (!parse) return undefined;
  for (let start = 0; start < words.length; start++) {
    for (let length = Math.min(MAX_SPAN_WORDS, words.length - start); length > 0; length--) {
      const span = words.slice(start, start + length);
      const parsed = parse(join(span));
      if (parsed) return { ...parsed, words: span };
    }
  }
  return undefined;
}

/**
 * Every reading of a simple field, best first. `scope` limits the search to some lines (a nested
 * object's block); `fallbacks` allows strategies 3–5.
 */
export function simpleCandidates(
  ctx: FinderContext,
  field: AnyField,
  options: { scope?: (line: TokenLine) => boolean; fallbacks?: boolean } = {},
): Candidate[] {
  const out: Candidate[] = [];
  const taken = (c: Candidate): boolean => c.words.some((w) => (ctx.claimed.get(w) ?? field) !== field);
  for (const match of ctx.index.labelMatches(field)) {
    if (options.scope && !options.scope(match.at)) continue;
    if (match.at.line.words.slice(match.start, match.end).some((w) => ctx.tableHeaders.has(w))) continue;
    out.push(...labelledCandidates(ctx, field, match).filter((c) => !taken(c)));
  }
  if (options.fallbacks ?? true) out.push(...fallbackCandidates(ctx, field, out));
  return applyHints(ctx, field, out).sort(byRank);
}

export function labelledCandidates(ctx: FinderContext, field: AnyField, match: LabelMatch): Candidate[] {
  const { index } = ctx;
  const out: Candidate[] = [];
  const straight = index.wordsRightOf(match);
  if (match.adjacent) {
    // A joining word ("of", "du", "vom"): its value is the very next words, or it is no label here.
    const parsed = parseWords(straight, field, ctx.dateOrder);
    if (!parsed || parsed.words[0] !== straight[0]) return [];
    return [
      makeCandidate(
        parsed.value,
        parsed.words,
        match.at.page.index,
        {
          label: LABEL_FACTOR.variant,
          position: POSITION_FACTOR.right,
          parse: parsed.clean ? 1 : AMBIGUOUS_PARSE,
        },
        true,
      ),
    ];
  }
  const right = straight.length > 0 ? straight : index.wordsRightOfSlanted(match);
  const slanted = straight.length === 0 && right.length > 0;
  const last = match.at.line.words[match.end - 1];
  // Only text can be another column's: a number or a date right of a label is its value.
  const acrossTab =
    field.type === 'string' &&
    !match.colon &&
    last !== undefined &&
    right[0] !== undefined &&
    index.gapEm(last, right[0], match.at.page) > TAB_GAP_EM;
  const readings: [Position, Word[], number][] = [
    ['right', right, (acrossTab ? ACROSS_TAB : 1) * (slanted ? SLANTED : 1)],
  ];
  // "Invoice Number: 14": a value right of a label that owns it (a colon, no tab stop) excludes one below.
  const ownsRight = right.length > 0 && !acrossTab && parseWords(right, field, ctx.dateOrder) !== undefined;
  if (!ownsRight) readings.push(['below', index.wordsBelow(match), 1]);
  for (const [position, words, extra] of readings) {
    const parsed = parseWords(words, field, ctx.dateOrder);
    if (!parsed) continue;
    const looksLikeLabel = parsed.words.every((w) => index.labelWords.has(w));
    // "VAT Net 8.50" read for "VAT": the words skipped make the label a longer one.
    const skipped = words.slice(0, words.indexOf(parsed.words[0] as Word));
    const longer = skipped.some((w) => /\p{L}{2}/u.test(w.text) && !/^[A-Z]{3}$/.test(w.text));
    out.push(
      makeCandidate(
        parsed.value,
        parsed.words,
        match.at.page.index,
        {
          label: longer
            ? Math.min(LABEL_FACTOR[match.strength], LABEL_FACTOR.variant)
            : LABEL_FACTOR[match.strength],
          position: POSITION_FACTOR[position] * extra * (looksLikeLabel ? LOOKS_LIKE_LABEL : 1),
          parse: parsed.clean ? 1 : AMBIGUOUS_PARSE,
        },
        true,
        match.colon ? 1 : 0,
      ),
    );
  }
  return out;
}

function fallbackCandidates(ctx: FinderContext, field: AnyField, found: readonly Candidate[]): Candidate[] {
  const hints = schemaHints(field);
  const out: Candidate[] = [];
  // 2. The context names the value: find it printed.
  for (const stated of ctx.context.statedValues(field)) {
    const words = findPhrase(ctx.index, stated, field, ctx.dateOrder);
    if (words) {
      const parsed = parseWords(words.words, field, ctx.dateOrder);
      if (parsed)
        out.push(
          makeCandidate(parsed.value, parsed.words, words.page, { position: POSITION_FACTOR.scan }, false),
        );
    }
  }
  if (found.some((c) => c.labelled)) return out;
  const free = (w: Word): boolean => !ctx.claimed.has(w) && !ctx.index.labelWords.has(w);
  // 3. An expected prefix.
  if (hints.prefixes.length > 0) {
    for (const line of ctx.index.lines) {
      for (const word of line.line.words) {
        if (!free(word) || !hints.prefixes.some((p) => startsWithPrefix(word.text, p))) continue;
        const parsed = parseWords([word], field, ctx.dateOrder);
        if (parsed)
          out.push(
            makeCandidate(
              parsed.value,
              parsed.words,
              line.page.index,
              { position: POSITION_FACTOR.scan },
              false,
            ),
          );
      }
    }
  }
  // 4. The top of the first page.
  if (hints.atTop && field.type === 'string') {
    const segment = topSegment(ctx);
    if (segment) {
      const parsed = parseWords(segment.words, field, ctx.dateOrder);
      if (parsed)
        out.push(
          makeCandidate(parsed.value, parsed.words, segment.page, { position: POSITION_FACTOR.top }, false),
        );
    }
  }
  // 5. Any value of the type.
  if (hints.unlabelled && (field.type === 'date' || field.type === 'number')) {
    for (const line of ctx.index.lines) {
      const words = line.line.words.filter(free);
      const parsed = parseWords(words, field, ctx.dateOrder);
      if (parsed && parsed.words.every(free)) {
        out.push(
          makeCandidate(
            parsed.value,
            parsed.words,
            line.page.index,
            {
              position: POSITION_FACTOR.scan,
              parse: parsed.clean ? 1 : AMBIGUOUS_PARSE,
            },
            false,
          ),
        );
      }
    }
  }
  return out;
}

/** Guidelines' expected prefix and the text context, applied to every candidate. */
function applyHints(ctx: FinderContext, field: AnyField, candidates: Candidate[]): Candidate[] {
  const hints = schemaHints(field);
  const stated = ctx.context.statedValues(field);
  return candidates.map((c) => {
    let factor = 1;
    if (hints.prefixes.length > 0 && !hints.prefixes.some((p) => startsWithPrefix(String(c.value), p))) {
      factor *= FORMAT_MISMATCH;
    }
    if (stated.length > 0)
      factor *= stated.some((s) => sameValue(field, s, c.value, ctx.dateOrder))
        ? CONTEXT_AGREES
        : CONTEXT_DISAGREES;
    if (factor === 1) return c;
    const evidence = { ...c.evidence, hints: c.evidence.hints * factor };
    return { ...c, evidence, score: scoreOf(evidence) };
  });
}

const startsWithPrefix = (text: string, prefix: string): boolean =>
  text.toLowerCase().startsWith(prefix.toLowerCase()) && text.length > prefix.length;

/** Whether a value stated in words (the text context) is this value. */
export function sameValue(
  field: AnyField,
  stated: string,
  value: Value,
  dateOrder: DateOrder | undefined,
): boolean {
  if (typeof value === 'number') return parseNumber(stated)?.value === value;
  if (typeof value === 'boolean') return parseBoolean(stated)?.value === value;
  if (field.type === 'date') return parseDate(stated, dateOrder)?.value === value;
  return foldText(stated) === foldText(value);
}

/** Where a phrase is printed, as consecutive words of one line. */
function findPhrase(
  index: DocumentIndex,
  phrase: string,
  field: AnyField,
  dateOrder: DateOrder | undefined,
): { words: Word[]; page: number } | undefined {
  const target = foldText(phrase);
  if (target === '') return undefined;
  for (const line of index.lines) {
    const words = line.line.words;
    for (let start = 0; start < words.length; start++) {
      for (let end = start + 1; end <= Math.min(words.length, start + 8); end++) {
        const span = words.slice(start, end);
        const text = span.map((w) => w.text).join(' ');
        const parsed = field.type === 'string' ? undefined : parseWords(span, field, dateOrder);
        if (foldText(text) === target || (parsed && sameValue(field, phrase, parsed.value, dateOrder))) {
          return { words: span, page: line.page.index };
        }
      }
    }
  }
  return undefined;
}

const NOT_A_NAME = /@|www\.|https?:|^\+?[\d\s().-]{7,}$/i;

const IDENTIFIER_NAME = /\b(?:numbers?|no|nr|ids?|identifiers?|refs?|references?|codes?)\b/;
const NOT_IDENTIFIER_NAME = /\b(?:phone|telephone|tel|fax|mobile)\b/;

/**
 * A string field that holds an identifier (its name or title says number, no, id, reference or code,
 * and it is not a phone number): its value has a digit, is no date, and ends before a joining word
 * or a date ("INV/26/1187 of 23.06.2026" is "INV/26/1187").
 */
export const isIdentifier = (field: AnyField): boolean => {
  if (field.type !== 'string') return false;
  const text = `${field.name.replace(/_/g, ' ')} ${field.title}`.toLowerCase();
  return IDENTIFIER_NAME.test(text) && !NOT_IDENTIFIER_NAME.test(text);
};

/** Words before an identifier that still belong to its label: "#", "No.", "n°", ":". */
const FILLER = new Set(['', '#', 'no', 'nr', 'n°', 'nº', 'num', 'number', 'nummer', 'numero']);
const CONNECTOR_TOKENS = new Set(CONNECTORS);
/** A time of day ("15:08", "9:07:30") is no identifier. */
const TIME = /^\d{1,2}[:h]\d{2}(?::\d{2})?$/;

function identifierOf(
  words: readonly Word[],
  dateOrder: DateOrder | undefined,
): (Parsed<Value> & { words: Word[] }) | undefined {
  let start = 0;
  while (start < words.length - 1 && FILLER.has(normalizeToken(words[start]?.text ?? ''))) start++;
  const span: Word[] = [];
  for (const word of words.slice(start)) {
    if (
      span.length > 0 &&
      (CONNECTOR_TOKENS.has(normalizeToken(word.text)) || parseDate(word.text, dateOrder))
    )
      break;
    span.push(word);
  }
  const text = span.map((w) => w.text).join(' ');
  if (!/\d/.test(text) || parseDate(text, dateOrder) || TIME.test(text) || isTitle(text)) return undefined;
  const parsed = parseString(text);
  return parsed && { ...parsed, words: span };
}

const TITLES = new Set(TITLE_WORDS.map((t) => foldText(t)));

/** "INVOICE", "FACTURE / INVOICE", "Tax invoice": the document's title, in one or more languages. */
export function isTitle(text: string): boolean {
  const parts = text
    .split(/\s*[/|–-]\s*/)
    .map((p) => foldText(p))
    .filter((p) => p !== '');
  return parts.length > 0 && parts.every((p) => TITLES.has(p));
}

/**
 * The first text block of page 1 that can be a name: not a label, not a number or a date, not a
 * classification word of the schema ("INVOICE"), not a phone number, e-mail or web address.
 */
export function topSegment(
  ctx: FinderContext,
  skip: ReadonlySet<Word> = new Set(),
): { words: Word[]; page: number } | undefined {
  const { index } = ctx;
  const page = index.pages[0];
  if (!page) return undefined;
  for (const line of page.lines) {
    if (line.box.y0 > TOP_OF_PAGE) break;
    for (const segment of index.segments(line, page)) {
      const words = segment.filter((w) => !ctx.claimed.has(w) && !skip.has(w));
      if (words.length === 0 || words.some((w) => index.labelStarts.has(w) || w.text.endsWith(':'))) continue;
      if (words.every((w) => index.labelWords.has(w))) continue;
      const text = words.map((w) => w.text).join(' ');
      // OCR noise at a photo's edge ("aa", "|"): too short or too badly read to be a name.
      if (!/\p{L}{3}/u.test(text) || NOT_A_NAME.test(text) || readingOf(words) < 0.5) continue;
      if (ctx.vocabulary.has(foldText(text)) || isTitle(text)) continue;
      if (parseNumber(text) || parseDate(text)) continue;
      return { words, page: page.index };
    }
  }
  return undefined;
}
