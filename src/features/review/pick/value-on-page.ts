/**
 * Values compared as their field's type, against the words of a page:
 *
 * - **amounts** in every common form: `1 234,50`, `1.234,50`, `1,234.50`, `1'234.50`, `1234.5`, with a
 *   currency sign or code, a minus or brackets; a lone separator before three digits (`1,234`) is
 *   read both ways. OCR's usual confusions in figures are forgiven (`O`→0, `l`/`I`→1, `S`→5, `B`→8).
 * - **dates**: ISO, `03/15/2026` (month first when the first part cannot be a month, day first when
 *   the second cannot, both readings otherwise), `15.03.2026`, two-digit years, month names in
 *   English, French and German (`15 March 2026`, `Mar 15, 2026`, `15-mars-26`).
 * - **text**: without accents, case, spacing or punctuation, with the same confusions folded.
 *
 * A value is on the page when its words are there in reading order (across line breaks, in any text
 * the page has), or when it still reads as the words it was picked from; otherwise the whole values
 * of its type that read nearest (edit distance of their normal forms, then nearness to the field's
 * label) are the candidates offered, never pieces of one. Pure: the words come in, nothing is fetched.
 */
import type { ValueType } from '@extraction-review/review-domain/fields/review-tree';
import { joinWords, unionPolygon, type PageWord } from './pick-words';
import { boundingBox, type Polygon } from '@extraction-review/review-domain/viewer/geometry';

// ─── Amounts ─────────────────────────────────────────────────────────────────────────────────────

/** Letters OCR reads in place of digits, inside something that is otherwise a figure. */
const DIGIT_CONFUSIONS: Record<string, string> = {
  O: '0',
  o: '0',
  D: '0',
  l: '1',
  I: '1',
  '|': '1',
  S: '5',
  s: '5',
  B: '8',
};

const CURRENCY_CODES =
  /^(?:EUR|USD|GBP|CHF|CAD|AUD|NZD|JPY|CNY|INR|SEK|NOK|DKK|PLN|CZK|HUF|RON|BGN|ZAR|BRL|MXN|SGD|HKD)\s*|\s*(?:EUR|USD|GBP|CHF|CAD|AUD|NZD|JPY|CNY|INR|SEK|NOK|DKK|PLN|CZK|HUF|RON|BGN|ZAR|BRL|MXN|SGD|HKD)$/gi;

/**
 * Every number `text` can be read as (none when it is not an amount): `1,234` gives 1234 and 1.234.
 * Currency signs and codes around the figure are ignored.
 */
export function amountReadings(text: string): number[] {
  let t = text.normalize('NFKC').trim();
  let negative = false;
  if (/^\(.*\)$/.test(t)) {
    negative = true;
    t = t.slice(1, -1);
  }
  // Currency signs and codes, before or after (`EUR 12,50`, `12.50 $`, `CHF`).
  t = t
    .replace(CURRENCY_CODES, '')
    .replace(/[$€£¥₹₩¤]/g, '')
    .trim();
  if (/^[-−–]/.test(t)) {
    negative = true;
    t = t.slice(1).trim();
  } else if (/[-−]$/.test(t)) {
    negative = true;
    t = t.slice(0, -1).trim();
  } else if (t.startsWith('+')) t = t.slice(1).trim();
  // Confusions only inside a figure: at least one real digit, and no more letters than digits.
  const digits = (t.match(/\d/g) ?? []).length;
  const letters = (t.match(/[A-Za-z|]/g) ?? []).length;
  if (digits === 0 || letters > digits) return [];
  t = t.replace(/[A-Za-z|]/g, (c) => DIGIT_CONFUSIONS[c] ?? c);
  // Group separators: spaces (plain, no-break, thin) and apostrophes, each before a group of three
  // (`1 2` is two figures, a quantity and a line number, not twelve).
  t = t.replace(/(\d)[\s\u00a0\u202f'’](?=\d{3}(?!\d))/g, '$1');
  if (!/^\d[\d.,]*$/.test(t) || /[.,]$/.test(t) || /[.,]{2}/.test(t)) return [];
  const sign = negative ? -1 : 1;
  const dots = count(t, '.');
  const commas = count(t, ',');
  const read = (decimal: '.' | ',' | null): number | null => {
    const group = decimal === '.' ? ',' : decimal === ',' ? '.' : null;
    let s = t;
    if (group) {
      // Groups of three after the first.
      const whole = s.split(decimal ?? '')[0] ?? '';
      if (whole.includes(group) && !new RegExp(`^\\d{1,3}(\\${group}\\d{3})+$`).test(whole)) return null;
      s = s.split(group).join('');
    } else if (dots + commas > 0) {
      // No decimals: every separator groups thousands.
      if (!/^\d{1,3}([.,]\d{3})+$/.test(s) || (dots > 0 && commas > 0)) return null;
      s = s.replace(/[.,]/g, '');
    }
    if (decimal === ',') s = s.replace(',', '.');
    if (decimal && count(s, '.') > 1) return null;
    const n = Number(s);
    return Number.isFinite(n) ? sign * n : null;
  };
  let options: ('.' | ',' | null)[];
  if (dots > 0 && commas > 0) options = [t.lastIndexOf('.') > t.lastIndexOf(',') ? '.' : ','];
  else if (dots + commas === 0) options = [null];
  else {
    const sep = dots > 0 ? '.' : ',';
    const many = dots + commas > 1;
    const three = new RegExp(`\\${sep}\\d{3}$`).test(t);
    options = many ? [null] : three ? [null, sep] : [sep];
  }
  return unique(options.map(read).filter((n): n is number => n !== null));
}

function count(s: string, c: string): number {
  return s.split(c).length - 1;
}

function unique<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}

function sameAmount(a: readonly number[], b: readonly number[]): boolean {
  return a.some((x) => b.some((y) => Math.abs(x - y) < 0.005));
}

/** The digits of an amount with two decimals (`1234.5` → `123450`): what a typo changes. */
function amountKey(n: number): string {
  return Math.abs(n).toFixed(2).replace('.', '');
}

// ─── Dates ───────────────────────────────────────────────────────────────────────────────────────

const MONTHS: Record<string, number> = {};
[
  ['january', 'jan', 'janvier', 'janv', 'januar', 'jän'],
  ['february', 'feb', 'février', 'fevrier', 'févr', 'fevr', 'februar'],
  ['march', 'mar', 'mars', 'märz', 'marz', 'mrz'],
  ['april', 'apr', 'avril', 'avr'],
  ['may', 'mai'],
  ['june', 'jun', 'juin', 'juni'],
  ['july', 'jul', 'juillet', 'juil', 'juli'],
  ['august', 'aug', 'août', 'aout'],
  ['september', 'sep', 'sept', 'septembre'],
  ['october', 'oct', 'octobre', 'oktober', 'okt'],
  ['november', 'nov', 'novembre'],
  ['december', 'dec', 'décembre', 'decembre', 'dezember', 'dez', 'déc'],
].forEach((names, i) => names.forEach((n) => (MONTHS[n] = i + 1)));

/** Every ISO date (`YYYY-MM-DD`) `text` can be read as; none when it is not a date. */
export function dateReadings(text: string): string[] {
  const t = text.normalize('NFKC').trim().toLowerCase().replace(/,/g, ' ').replace(/\s+/g, ' ');
  let m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[ t].*)?$/.exec(t);
  if (m) return iso(part(m, 1), part(m, 2), part(m, 3));
  m = /^(\d{1,2})[-/. ](\d{1,2})[-/. ](\d{2}|\d{4})$/.exec(t);
  if (m) {
    const [a, b, y] = [part(m, 1), part(m, 2), year(m[3] ?? '')];
    // Month first (`03/15/2026`) and day first (`15/03/2026`): whichever is a date, both when both are.
    return unique([...iso(y, a, b), ...iso(y, b, a)]);
  }
  const word = '([a-zà-ÿ]+)\\.?';
  m = new RegExp(`^(\\d{1,2})(?:st|nd|rd|th|er)?[-/. ]*${word}[-/. ]*(\\d{2}|\\d{4})$`).exec(t);
  if (m) return monthNamed(m[2] ?? '', part(m, 1), m[3] ?? '');
  m = new RegExp(`^${word}[-/. ]*(\\d{1,2})(?:st|nd|rd|th)?[-/. ]+(\\d{4})$`).exec(t);
  if (m) return monthNamed(m[1] ?? '', part(m, 2), m[3] ?? '');
  return [];
}

/** A group of a match as a number (NaN when absent, which no check passes). */
const part = (m: RegExpExecArray, i: number): number => Number(m[i] ?? NaN);

function monthNamed(name: string, day: number, y: string): string[] {
  const month = MONTHS[name];
  return month ? iso(year(y), month, day) : [];
}

function year(y: string): number {
  const n = Number(y);
  return y.length === 2 ? (n < 70 ? 2000 + n : 1900 + n) : n;
}

function iso(y: number, m: number, d: number): string[] {
  if (m < 1 || m > 12 || d < 1 || d > 31) return [];
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCMonth() !== m - 1) return [];
  return [`${String(y).padStart(4, '0')}-${pad(m)}-${pad(d)}`];
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** The reading of an ambiguous date to prefer: month first with slashes (`03/04/2026`), else day first. */
function preferredDate(text: string, readings: readonly string[]): string | null {
  if (readings.length < 2) return readings[0] ?? null;
  const slashes = text.includes('/');
  const m = /^\s*(\d{1,2})\D(\d{1,2})\D/.exec(text);
  if (!m) return readings[0] ?? null;
  const monthFirst = readings.find((r) => +r.slice(5, 7) === part(m, 1) && +r.slice(8, 10) === part(m, 2));
  const dayFirst = readings.find((r) => r !== monthFirst);
  return (slashes ? monthFirst : dayFirst) ?? readings[0] ?? null;
}

// ─── Text ────────────────────────────────────────────────────────────────────────────────────────

/** Letters and digits OCR mixes up, folded to one: what is compared is what a reader could see. */
const TEXT_CONFUSIONS: Record<string, string> = { '0': 'o', '1': 'l', i: 'l', '5': 's', '8': 'b', '|': 'l' };

/** Text without accents, case, spacing, punctuation; OCR confusions folded (`Café  O1` → `cafeol`). */
export function textKey(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/[^\p{L}\p{N}|]/gu, '')
    .replace(/[01i58|]/g, (c) => TEXT_CONFUSIONS[c] ?? c);
}

// ─── Typed values ────────────────────────────────────────────────────────────────────────────────

export type TypedValue = string | number | boolean | null;

/**
 * Text read on the page as the field's value: a number for a number field, an ISO date for a date,
 * one of the options for a classification (the nearest, when close), yes/no for a boolean. Text that
 * does not read as the type is kept as it is, for the operator to see and fix.
 */
export function typedValue(
  text: string,
  type: ValueType,
  options: readonly string[] | null = null,
): TypedValue {
  const t = text.trim();
  if (t === '') return null;
  switch (type) {
    case 'number': {
      const readings = amountReadings(t);
      // `1,234` reads 1234 or 1.234: an amount on a page more often has two decimals than three.
      return readings.find((n) => Number.isInteger(n * 100)) ?? readings[0] ?? t;
    }
    case 'date':
      return preferredDate(t, dateReadings(t)) ?? t;
    case 'boolean': {
      const k = textKey(t);
      if (['yes', 'ye5', 'true', 'x', 'oui', 'ja', 'y'].includes(k) || t === '✓' || t === '☑') return true;
      if (['no', 'false', 'non', 'nein', 'n'].includes(k)) return false;
      return t;
    }
    case 'classification': {
      if (!options || options.length === 0) return t;
      const k = textKey(t);
      const exact = options.find((o) => textKey(o) === k);
      if (exact) return exact;
      const ranked = options
        .map((o) => ({ o, d: distance(textKey(o), k) / Math.max(1, textKey(o).length) }))
        .sort((a, b) => a.d - b.d);
      const best = ranked[0];
      return best && best.d <= 0.34 ? best.o : t;
    }
    case 'text':
      return t;
  }
}

// ─── On the page ─────────────────────────────────────────────────────────────────────────────────

export interface PageWordsOf {
  /** 0-based page. */
  page: number;
  words: readonly PageWord[];
}

export interface Candidate {
  /** As printed. */
  text: string;
  /** As the field's type (what choosing it sets). */
  value: TypedValue;
  page: number;
  polygon: Polygon;
}

export interface PageCheck {
  found: boolean;
  /** Nearest first; empty when found. */
  candidates: Candidate[];
}

/** What else is known of the value: where it was picked, what its field is called. */
export interface CheckContext {
  /**
   * The regions the operator picked the value from (node.locations of a picked value): the words
   * under them are what the value was read from, so a value that still reads as them is trusted.
   */
  picked?: readonly { page: number; polygon: Polygon }[] | undefined;
  /** The field's title (`Total amount`): candidates near where the page prints it rank first. */
  label?: string | undefined;
}

/** Runs of up to this many words are tried (an address line, a long name). */
const MAX_RUN = 8;

/**
 * Whether `value` occurs on the pages, compared as `type`, and if not the nearest whole values of
 * that type printed there (at most `limit`). Booleans and empty values are not checked (found).
 *
 * On the page means: its words are there in reading order, a line break allowed between any two
 * (also into the next line of the same column), in any text the page has (its text layer, OCR, the
 * words of its logos). A picked value that still reads as the words it was picked from is on the
 * page whatever their order (a box over two columns). Candidates are never pieces of a value: an
 * amount is a whole amount of the value's shape, a date a whole date, a text a run of comparable
 * length; ranked by similarity, then by nearness to the field's label.
 */
export function checkValueOnPage(
  value: TypedValue,
  type: ValueType,
  pages: readonly PageWordsOf[],
  limit = 3,
  options: readonly string[] | null = null,
  context: CheckContext = {},
): PageCheck {
  if (value === null || value === '' || typeof value === 'boolean' || type === 'boolean')
    return { found: true, candidates: [] };
  const text = String(value);
  const compare = comparerFor(text, type);
  if (!compare) return { found: true, candidates: [] };
  if (readsAsPicked(value, type, pages, context.picked, options, compare))
    return { found: true, candidates: [] };
  if (pages.some(({ words }) => foundInWords(text, type, words, compare)))
    return { found: true, candidates: [] };
  return { found: false, candidates: candidatesFor(text, type, pages, limit, options, compare, context) };
}

/** The words whose centre lies in one of the regions, on their page, in reading order. */
export function wordsUnder(
  words: readonly PageWord[],
  regions: readonly Polygon[],
  slop = 0.002,
): PageWord[] {
  const boxes = regions.filter((r) => r.length > 0).map((r) => boundingBox(r));
  return words.filter((w) => {
    const x = (w.box.x0 + w.box.x1) / 2;
    const y = (w.box.y0 + w.box.y1) / 2;
    return boxes.some((b) => x >= b.x0 - slop && x <= b.x1 + slop && y >= b.y0 - slop && y <= b.y1 + slop);
  });
}

function readsAsPicked(
  value: TypedValue,
  type: ValueType,
  pages: readonly PageWordsOf[],
  picked: CheckContext['picked'],
  options: readonly string[] | null,
  compare: Comparer,
): boolean {
  if (!picked || picked.length === 0) return false;
  const under = pages.flatMap(({ page, words }) =>
    wordsUnder(
      words,
      picked.filter((p) => p.page === page).map((p) => p.polygon),
    ),
  );
  if (under.length === 0) return false;
  const read = joinWords(under);
  // What picking set (the words typed for the field), or the same value written otherwise.
  return typedValue(read, type, options) === value || compare(read) === 0;
}

type Comparer = (run: string) => number | null;

/**
 * Whether a run of words reads as the value: consecutive in reading order, or going on at the start
 * of the next line under the run's first word (a value wrapped in its column while another column
 * stands beside it). Text runs grow only while they are a prefix of the value, so this stays cheap.
 */
function foundInWords(text: string, type: ValueType, words: readonly PageWord[], compare: Comparer): boolean {
  const isText = type === 'text' || type === 'classification';
  const key = textKey(text);
  const maxRun = isText ? Math.max(MAX_RUN, wordCount(text) + 2) : 4;
  const lines = linesOf(words);
  const visit = (run: PageWord[], keySoFar: string): boolean => {
    if (isText) {
      if (keySoFar === key) return true;
      if (!key.startsWith(keySoFar)) return false;
    } else if (compare(joinInRunOrder(run)) === 0) return true;
    if (run.length >= maxRun) return false;
    const last = run[run.length - 1];
    const first = run[0];
    if (!last || !first) return false;
    for (const next of successors(words, lines, first, last)) {
      if (run.includes(next)) continue;
      if (visit([...run, next], keySoFar + textKey(next.text))) return true;
    }
    return false;
  };
  return words.some((w) => visit([w], textKey(w.text)));
}

/** The run's text in the order its words were joined (not re-sorted: a column's run is not). */
function joinInRunOrder(run: readonly PageWord[]): string {
  return run.map((w) => w.text.trim()).join(' ');
}

function linesOf(words: readonly PageWord[]): Map<number, PageWord[]> {
  const lines = new Map<number, PageWord[]>();
  for (const w of words) {
    const line = lines.get(w.line);
    if (line) line.push(w);
    else lines.set(w.line, [w]);
  }
  return lines;
}

/** The next word in reading order, and the word of the next line that starts under the run's first. */
function successors(
  words: readonly PageWord[],
  lines: ReadonlyMap<number, readonly PageWord[]>,
  first: PageWord,
  last: PageWord,
): PageWord[] {
  const out: PageWord[] = [];
  const next = words[last.order + 1];
  if (next) out.push(next);
  const width = Math.max(first.box.x1 - first.box.x0, 0.005);
  const below = (lines.get(last.line + 1) ?? []).find(
    (w) => Math.abs(w.box.x0 - first.box.x0) <= width / 2 && w !== next,
  );
  if (below) out.push(below);
  return out;
}

function candidatesFor(
  text: string,
  type: ValueType,
  pages: readonly PageWordsOf[],
  limit: number,
  options: readonly string[] | null,
  compare: Comparer,
  context: CheckContext,
): Candidate[] {
  const isText = type === 'text' || type === 'classification';
  const key = textKey(text);
  const decimals = type === 'number' && hasDecimals(text);
  const scored: (Candidate & { score: number; words: readonly PageWord[] })[] = [];
  for (const { page, words } of pages) {
    const labels = labelCentres(words, context.label);
    const maxRun = isText ? Math.min(MAX_RUN, wordCount(text) + 2) : 4;
    for (let i = 0; i < words.length; i++) {
      for (let n = 1; n <= maxRun && i + n <= words.length; n++) {
        const run = words.slice(i, i + n);
        // An amount or a date offered stands on one line; text may wrap.
        if (!isText && run[n - 1]?.line !== run[0]?.line) break;
        if (type === 'number' && !wholeAmount(words, run, decimals)) continue;
        const runText = joinWords(run);
        if (isText && !comparableLength(key, textKey(runText))) continue;
        const score = compare(runText);
        if (score === null || score === 0) continue;
        if (!similarEnough(type, text, score)) continue;
        const polygon = unionPolygon(run);
        if (!polygon) continue;
        scored.push({
          text: runText,
          value: typedValue(runText, type, options),
          page,
          polygon,
          words: run,
          score: score + 0.3 * nearness(run, labels),
        });
      }
    }
  }
  scored.sort((a, b) => a.score - b.score);
  const seen = new Set<string>();
  const taken: (typeof scored)[number][] = [];
  for (const c of scored) {
    const key = String(c.value);
    if (seen.has(key)) continue;
    // A piece of a better candidate (or a better candidate with a word more) is not offered.
    if (taken.some((t) => t.page === c.page && t.words.some((w) => c.words.includes(w)))) continue;
    seen.add(key);
    taken.push(c);
    if (taken.length >= limit) break;
  }
  return taken.map(({ text: t, value, page, polygon }) => ({ text: t, value, page, polygon }));
}

function wordCount(text: string): number {
  return text.trim().split(/\s+/).length;
}

/** `12.00`, `1 234,5`: written with decimals (a typed amount with cents wants a printed one with cents). */
function hasDecimals(text: string): boolean {
  return /\d[.,]\d{1,2}\s*\)?\s*[A-Za-z$€£¥]*$/.test(text.trim()) || /\.\d+$/.test(text.trim());
}

/** `1` then `234,50` (thousands written with a space): two words of one amount. */
function groupsWithSpace(before: string, after: string): boolean {
  return /(?:^|[^\d.,])\d{1,3}$/.test(before.trim()) && /^\d{3}(?:[.,]\d+)?\)?$/.test(after.trim());
}

const CURRENCY_WORD = /^(?:[$€£¥₹₩¤]|[A-Z]{3})$/;

/**
 * A run of words that is one whole amount: each joint inside it a thousands space or a currency
 * beside the figure, no figure going on before or after it on the line (then it is a piece of a
 * longer one), and with decimals when the value has them (`12.00` is not offered `14`).
 */
function wholeAmount(words: readonly PageWord[], run: readonly PageWord[], decimals: boolean): boolean {
  for (let k = 1; k < run.length; k++) {
    const a = run[k - 1]?.text ?? '';
    const b = run[k]?.text ?? '';
    if (!(groupsWithSpace(a, b) || CURRENCY_WORD.test(a.trim()) || CURRENCY_WORD.test(b.trim())))
      return false;
  }
  const first = run[0];
  const last = run[run.length - 1];
  if (!first || !last) return false;
  const before = words[first.order - 1];
  const after = words[last.order + 1];
  if (before && before.line === first.line && groupsWithSpace(before.text, first.text)) return false;
  if (after && after.line === last.line && groupsWithSpace(last.text, after.text)) return false;
  const figure = run.filter((w) => !CURRENCY_WORD.test(w.text.trim()));
  if (figure.length === 0) return false;
  return !decimals || hasDecimals(figure.map((w) => w.text.trim()).join(' '));
}

/** Text runs about as long as the value: not one of its words, not a line that merely contains it. */
function comparableLength(key: string, runKey: string): boolean {
  return runKey.length >= key.length * 0.6 && runKey.length <= key.length * 1.6 + 1;
}

/** Scores (comparerFor) near enough to be offered: a typo or two, not any figure of the page. */
function similarEnough(type: ValueType, text: string, score: number): boolean {
  if (type === 'number') {
    // A typo or two in the digits, not a figure with other digits altogether.
    const digits = (text.match(/\d/g) ?? []).length;
    return Math.floor(score) <= 1 + Math.floor(digits / 6);
  }
  if (type === 'date') return score <= 2;
  return score <= 0.4;
}

type Point2 = readonly [number, number];

/** Where the page prints the field's label (its whole title, else its longest word). */
function labelCentres(words: readonly PageWord[], label: string | undefined): Point2[] {
  if (!label) return [];
  const parts = label
    .split(/[\s_.]+/)
    .map(textKey)
    .filter((k) => k.length >= 3 && !/^\d+$/.test(k));
  if (parts.length === 0) return [];
  const whole = parts.join('');
  const centres: Point2[] = [];
  for (let i = 0; i < words.length; i++) {
    let k = '';
    for (let n = 0; n < parts.length + 2 && i + n < words.length; n++) {
      k += textKey(words[i + n]?.text ?? '');
      if (k === whole) {
        centres.push(centreOf(words.slice(i, i + n + 1)));
        break;
      }
      if (!whole.startsWith(k)) break;
    }
  }
  if (centres.length > 0) return centres;
  const longest = [...parts].sort((a, b) => b.length - a.length)[0] ?? '';
  return words.filter((w) => textKey(w.text).startsWith(longest)).map((w) => centreOf([w]));
}

function centreOf(words: readonly PageWord[]): Point2 {
  const x = words.reduce((s, w) => s + (w.box.x0 + w.box.x1) / 2, 0) / words.length;
  const y = words.reduce((s, w) => s + (w.box.y0 + w.box.y1) / 2, 0) / words.length;
  return [x, y];
}

/** 0 beside the label, up to about 1.4 across the page; 0 when the label is not printed. */
function nearness(run: readonly PageWord[], labels: readonly Point2[]): number {
  if (labels.length === 0) return 0;
  const [x, y] = centreOf(run);
  return Math.min(...labels.map(([lx, ly]) => Math.hypot(x - lx, y - ly)));
}

/**
 * A function scoring a run of words against the value: 0 the same, a positive distance (lower is
 * nearer) for a candidate, null for a run that cannot be one (not an amount, too far off).
 */
function comparerFor(text: string, type: ValueType): Comparer | null {
  if (type === 'number') {
    const mine = amountReadings(text);
    if (mine.length === 0) return null;
    const keys = mine.map(amountKey);
    return (run) => {
      const theirs = amountReadings(run);
      if (theirs.length === 0) return null;
      if (sameAmount(mine, theirs)) return 0;
      // A typo adds or drops a digit at most: `12.50` is no candidate for `1243.50`.
      const pairs = theirs.flatMap((t) =>
        keys
          .filter((k) => Math.abs(k.length - amountKey(t).length) <= 1)
          .map((k) => [k, amountKey(t)] as const),
      );
      if (pairs.length === 0) return null;
      const d = Math.min(...pairs.map(([k, t]) => distance(k, t)));
      // Nearness in digits first (a typo), in size second.
      const rel = Math.min(
        ...theirs.flatMap((t) => mine.map((m) => Math.abs(t - m) / Math.max(1, Math.abs(m)))),
      );
      return d + Math.min(rel, 0.99);
    };
  }
  if (type === 'date') {
    const mine = dateReadings(text);
    if (mine.length === 0) return null;
    return (run) => {
      const theirs = dateReadings(run);
      if (theirs.length === 0) return null;
      if (theirs.some((t) => mine.includes(t))) return 0;
      return Math.min(...theirs.flatMap((t) => mine.map((m) => distance(m, t))));
    };
  }
  const key = textKey(text);
  if (key === '') return null;
  return (run) => {
    const k = textKey(run);
    if (k === key) return 0;
    const d = distance(key, k) / Math.max(key.length, 1);
    return d <= 0.5 ? d : null;
  };
}

/** Edit distance with adjacent transpositions (a typo swapping two digits costs one). */
export function distance(a: string, b: string): number {
  const cols = b.length + 1;
  // One flat table, row by row: d[i * cols + j] is the distance of a[0..i) and b[0..j).
  const d = new Int32Array((a.length + 1) * cols);
  const at = (i: number, j: number): number => d[i * cols + j] ?? 0;
  for (let i = 0; i <= a.length; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, at(i - 2, j - 2) + 1);
      d[i * cols + j] = best;
    }
  }
  return at(a.length, b.length);
}
