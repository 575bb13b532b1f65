/**
 * Typed parsing of the text found next to a label. Each parser answers the API's value (numbers as
 * floats, dates as `YYYY-MM-DD`) and whether the reading was unambiguous (`clean`): an ambiguous
 * reading such as `03/04/2025` or `1.234` lowers the field's confidence.
 */

export interface Parsed<T> {
  value: T;
  clean: boolean;
}

const CURRENCY_SYMBOLS = /^(?:[A-Z]{1,2}\$|[$€£¥₹₩₽¢])|[$€£¥₹₩₽¢]$/gu;
const CURRENCY_CODE = /^[A-Z]{3}\s*|\s*[A-Z]{3}$/g;

/**
 * `1,234.56`, `1 234,56`, `1.234,56`, `$1,234.56`, `1234.56 EUR`, `-12.50`, `(12.50)` → a float.
 */
export function parseNumber(text: string): Parsed<number> | undefined {
  let s = text
    .normalize('NFKC')
    .replace(/[\u00a0\u2009\u202f]/g, ' ')
    .replace(/[’‘]/g, "'")
    .trim();
  s = s.replace(/[.,;:]$/, '');
  let negative = false;
  if (/^\(.*\)$/.test(s)) {
    negative = true;
    s = s.slice(1, -1).trim();
  }
  s = s.replace(CURRENCY_CODE, '').replace(CURRENCY_SYMBOLS, '').trim();
  if (/^[-−]/.test(s)) {
    negative = true;
    s = s.slice(1).trim();
  }
  s = s.replace(CURRENCY_SYMBOLS, '').trim();
  if (!/^\d(?:[\d.,' ]*\d)?$/.test(s)) return undefined;

  const lastDot = s.lastIndexOf('.');
  const lastComma = s.lastIndexOf(',');
  let decimalSep: string | undefined;
  let clean = true;
  if (lastDot >= 0 && lastComma >= 0) {
    decimalSep = lastDot > lastComma ? '.' : ',';
  } else if (lastDot >= 0 || lastComma >= 0) {
    const sep = lastDot >= 0 ? '.' : ',';
    const count = s.split(sep).length - 1;
    const digitsAfter = s.length - s.lastIndexOf(sep) - 1;
    if (count > 1) {
      decimalSep = undefined; // 1,234,567 or 1.234.567: thousands only
    } else if (digitsAfter !== 3) {
      decimalSep = sep;
    } else {
      // "1,234" is read as thousands (English), "1.234" as a decimal; the latter is a guess.
      decimalSep = sep === ',' ? undefined : '.';
      clean = sep === ',';
    }
  }

  const [integerPart = '', fraction, extra] = decimalSep ? s.split(decimalSep) : [s];
  if (extra !== undefined || (fraction !== undefined && !/^\d+$/.test(fraction))) return undefined;
  const groups = integerPart.split(/[.,' ]/);
  const [first = '', ...rest] = groups;
  if (rest.length > 0 && (!/^\d{1,3}$/.test(first) || rest.some((g) => !/^\d{3}$/.test(g)))) return undefined;
  // "232 153 895": spaces between digit groups and no decimals may as well be three numbers or an id.
  if (rest.length > 0 && fraction === undefined && / /.test(integerPart)) clean = false;
  const value = Number(`${groups.join('')}${fraction !== undefined ? `.${fraction}` : ''}`);
  if (!Number.isFinite(value)) return undefined;
  return { value: negative ? -value : value, clean };
}

/** Month names in English, French, German and Spanish (a new language is one more line). */
const MONTH_NAMES: readonly (readonly string[])[] = [
  [
    'january',
    'february',
    'march',
    'april',
    'may',
    'june',
    'july',
    'august',
    'september',
    'october',
    'november',
    'december',
  ],
  [
    'janvier',
    'fevrier',
    'mars',
    'avril',
    'mai',
    'juin',
    'juillet',
    'aout',
    'septembre',
    'octobre',
    'novembre',
    'decembre',
  ],
  [
    'januar',
    'februar',
    'marz',
    'april',
    'mai',
    'juni',
    'juli',
    'august',
    'september',
    'oktober',
    'november',
    'dezember',
  ],
  [
    'enero',
    'febrero',
    'marzo',
    'abril',
    'mayo',
    'junio',
    'julio',
    'agosto',
    'septiembre',
    'octubre',
    'noviembre',
    'diciembre',
  ],
  // Abbreviations that are no beginning of their month's name.
  ['', '', 'mrz', '', '', '', '', '', 'sept', '', '', ''],
  ['jänner', '', '', '', '', '', '', '', 'setiembre', '', '', ''],
];

const foldAccents = (s: string): string => s.normalize('NFKD').replace(/\p{M}/gu, '');

/**
 * "Mar", "Mar.", "March", "mars", "Mrz", "juin", "déc." → 1-based month: the word begins a month's
 * name in one of the languages (at least 3 letters), and only one month's.
 */
function monthFromName(name: string): number | undefined {
  const lower = foldAccents(name.toLowerCase().replace(/\.$/, ''));
  if (lower.length < 3 || !/^\p{L}+$/u.test(lower)) return undefined;
  const found = new Set<number>();
  for (const names of MONTH_NAMES) {
    names.forEach((month, i) => {
      if (month !== '' && foldAccents(month).startsWith(lower)) found.add(i + 1);
    });
  }
  return found.size === 1 ? [...found][0] : undefined;
}

function isoDate(year: number, month: number, day: number): string | undefined {
  if (month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1) return undefined; // 31 April and the like
  return date.toISOString().slice(0, 10);
}

const fullYear = (y: string): number =>
  y.length === 2 ? (Number(y) < 70 ? 2000 : 1900) + Number(y) : Number(y);

const NUMERIC_DATE = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4}|\d{2})$/;

const cleanDateText = (text: string): string =>
  text
    .normalize('NFKC')
    .trim()
    .replace(/[.,;:]$/, '')
    .replace(/\s+/g, ' ');

/**
 * `2025-03-14`, `2025/03/14`, `14/03/2025`, `14.03.25`, `March 14, 2025`, `14 Mar 2025`,
 * `14-Mar-2025`, `14 Mar 25` → `2025-03-14`. A numeric date whose day and month could swap is read in
 * `order` when one is known (the guidelines say so, or another date of the document settles it:
 * see `numericDateOrder`) and then counts as clean; otherwise it is read day first and marked
 * ambiguous.
 */
export function parseDate(text: string, order?: 'dmy' | 'mdy'): Parsed<string> | undefined {
  const s = cleanDateText(text);
  let m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(s);
  if (m) {
    const value = isoDate(Number(m[1]), Number(m[2]), Number(m[3]));
    return value ? { value, clean: true } : undefined;
  }
  m = NUMERIC_DATE.exec(s);
  if (m) {
    const [a, b, year] = [Number(m[1]), Number(m[2]), fullYear(m[3] ?? '')];
    const monthFirst = a <= 12 && (b > 12 || order === 'mdy');
    const value = monthFirst ? isoDate(year, a, b) : isoDate(year, b, a);
    return value ? { value, clean: a > 12 || b > 12 || a === b || order !== undefined } : undefined;
  }
  // "14 Mar 2025", "14-Mar-25", "14. März 2025", "1er juin 2025", "14 de marzo de 2025".
  m = /^(\d{1,2})(?:st|nd|rd|th|er|\.)?[ -](?:de )?(\p{L}+\.?),?[ -](?:de )?(\d{4}|\d{2})$/u.exec(s);
  if (m) {
    const month = monthFromName(m[2] ?? '');
    const value = month ? isoDate(fullYear(m[3] ?? ''), month, Number(m[1])) : undefined;
    return value ? { value, clean: true } : undefined;
  }
  m = /^(\p{L}+\.?) (\d{1,2})(?:st|nd|rd|th)?,? (\d{4})$/u.exec(s);
  if (m) {
    const month = monthFromName(m[1] ?? '');
    const value = month ? isoDate(Number(m[3]), month, Number(m[2])) : undefined;
    return value ? { value, clean: true } : undefined;
  }
  return undefined;
}

/**
 * What a numeric date says about the document's date order: `26/02/2019` can only be day first,
 * `02/26/2019` only month first; `11/02/2019` says nothing.
 */
export function numericDateOrder(text: string): 'dmy' | 'mdy' | undefined {
  const m = NUMERIC_DATE.exec(cleanDateText(text));
  if (!m) return undefined;
  const [a, b] = [Number(m[1]), Number(m[2])];
  if (a > 12 && a <= 31 && b <= 12) return 'dmy';
  if (b > 12 && b <= 31 && a <= 12) return 'mdy';
  return undefined;
}

/** `5%`, `5.0 %`, `20,5%`, `(8%)` → the percentage as printed (5, 5, 20.5, 8). */
export function parsePercent(text: string): Parsed<number> | undefined {
  const s = text
    .normalize('NFKC')
    .trim()
    .replace(/^\(|\)$|[:;,]$/g, '')
    .trim();
  const m = /^(\d{1,3}(?:[.,]\d{1,3})?)\s*%$/.exec(s);
  if (!m) return undefined;
  const value = Number((m[1] ?? '').replace(',', '.'));
  return Number.isFinite(value) && value <= 100 ? { value, clean: true } : undefined;
}

const TRUE_WORDS = new Set(['yes', 'y', 'true', 'x', '☑', '☒', '✓', '✔']);
const FALSE_WORDS = new Set(['no', 'n', 'false', '☐']);

export function parseBoolean(text: string): Parsed<boolean> | undefined {
  const s = text
    .trim()
    .toLowerCase()
    .replace(/[.,;:]$/, '');
  if (TRUE_WORDS.has(s)) return { value: true, clean: true };
  if (FALSE_WORDS.has(s)) return { value: false, clean: true };
  return undefined;
}

/** One of the schema's `classification_values`, compared without case or accents. */
export function parseClassification(text: string, values: readonly string[]): Parsed<string> | undefined {
  const fold = (v: string): string =>
    v
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim();
  const found = values.find((v) => fold(v) === fold(text));
  return found === undefined ? undefined : { value: found, clean: true };
}

export function parseString(text: string): Parsed<string> | undefined {
  const value = text.trim().replace(/[,;]$/, '');
  if (value === '') return undefined;
  // A "value" that is itself a label ("Total:") means the real value was not on this line.
  return { value, clean: /[\p{L}\p{N}]/u.test(value) && !value.endsWith(':') };
}
