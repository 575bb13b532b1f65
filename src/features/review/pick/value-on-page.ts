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
 * A value is on the page when a run of consecutive words (reading order) reads as it does; otherwise
 * the runs that read nearest (by edit distance of their normal forms) are the candidates offered.
 * Pure: the words come in, nothing is fetched.
 */
import type { ValueType } from '@extraction-review/review-domain/fields/review-tree';
import { joinWords, unionPolygon, type PageWord } from './pick-words';
import type { Polygon } from '@extraction-review/review-domain/viewer/geometry';

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
  // Group separators: spaces (plain, no-break, thin) and apostrophes.
  t = t.replace(/(\d)[\s\u00a0\u202f'’](?=\d)/g, '$1');
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

/** Runs of up to this many words are tried (an address line, a long name). */
const MAX_RUN = 8;

/**
 * Whether `value` occurs on the pages, compared as `type`, and if not the nearest runs of words that
 * read as that type (at most `limit`). Booleans and empty values are not checked (found).
 */
export function checkValueOnPage(
  value: TypedValue,
  type: ValueType,
  pages: readonly PageWordsOf[],
  limit = 3,
  options: readonly string[] | null = null,
): PageCheck {
  if (value === null || value === '' || typeof value === 'boolean' || type === 'boolean')
    return { found: true, candidates: [] };
  const text = String(value);
  const compare = comparerFor(text, type);
  if (!compare) return { found: true, candidates: [] };
  const scored: (Candidate & { score: number })[] = [];
  for (const { page, words } of pages) {
    const maxRun = type === 'text' || type === 'classification' ? Math.min(MAX_RUN, wordCount(text) + 2) : 4;
    for (let i = 0; i < words.length; i++) {
      for (let n = 1; n <= maxRun && i + n <= words.length; n++) {
        const run = words.slice(i, i + n);
        // A value read on the page does not straddle lines unless it is text.
        if (type !== 'text' && type !== 'classification' && run[n - 1]?.line !== run[0]?.line) break;
        const runText = joinWords(run);
        const score = compare(runText);
        if (score === 0) return { found: true, candidates: [] };
        if (score === null) continue;
        const polygon = unionPolygon(run);
        if (polygon)
          scored.push({ text: runText, value: typedValue(runText, type, options), page, polygon, score });
      }
    }
  }
  scored.sort((a, b) => a.score - b.score);
  const seen = new Set<string>();
  const candidates: Candidate[] = [];
  for (const { score: _score, ...c } of scored) {
    const key = `${String(c.value)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    candidates.push(c);
    if (candidates.length >= limit) break;
  }
  return { found: false, candidates };
}

function wordCount(text: string): number {
  return text.trim().split(/\s+/).length;
}

/**
 * A function scoring a run of words against the value: 0 the same, a positive distance (lower is
 * nearer) for a candidate, null for a run that cannot be one (not an amount, too far off).
 */
function comparerFor(text: string, type: ValueType): ((run: string) => number | null) | null {
  if (type === 'number') {
    const mine = amountReadings(text);
    if (mine.length === 0) return null;
    const keys = mine.map(amountKey);
    return (run) => {
      const theirs = amountReadings(run);
      if (theirs.length === 0) return null;
      if (sameAmount(mine, theirs)) return 0;
      const d = Math.min(...theirs.flatMap((t) => keys.map((k) => distance(k, amountKey(t)))));
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
