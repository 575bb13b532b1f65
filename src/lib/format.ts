/**
 * The one way the app writes dates, times and amounts for the operator (issue 21): in the operator's
 * locale, through `Intl`, so that a date reads the same on the queue, the history, the exports page and
 * the analytics. The stored values are never changed: these are for reading only.
 *
 * Each takes an optional locale, for tests; the app passes none (the browser's).
 */

type When = string | number | Date;

const cache = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();
function formatter<T extends Intl.DateTimeFormat | Intl.NumberFormat>(key: string, make: () => T): T {
  let found = cache.get(key);
  if (found === undefined) {
    found = make();
    cache.set(key, found);
  }
  return found as T;
}

function toDate(at: When): Date | undefined {
  const date = at instanceof Date ? at : new Date(at);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** A moment: "28 Nov 2026, 14:05" (en-GB), "Nov 28, 2026, 2:05 PM" (en-US). */
export function formatDateTime(at: When, locale?: string): string {
  const date = toDate(at);
  if (date === undefined) return String(at);
  return formatter(
    `dt:${locale ?? ''}`,
    () => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }),
  ).format(date);
}

/** A time of day: "14:05" (en-GB), "2:05 PM" (en-US). */
export function formatTime(at: When, locale?: string): string {
  const date = toDate(at);
  if (date === undefined) return String(at);
  return formatter(`t:${locale ?? ''}`, () => new Intl.DateTimeFormat(locale, { timeStyle: 'short' })).format(
    date,
  );
}

/**
 * A calendar date, as the service writes them (`2026-11-02`) or a moment: "2 Nov 2026" (en-GB).
 * A `YYYY-MM-DD` is a day, not a moment: it is read and written in UTC so that no time zone moves it.
 * Anything else is returned as it is.
 */
export function formatDate(value: When, locale?: string): string {
  const day = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value);
  const date = day ? toDate(`${value as string}T00:00:00Z`) : toDate(value);
  if (date === undefined) return String(value);
  return formatter(
    `d:${locale ?? ''}:${day ? 'utc' : ''}`,
    () => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', ...(day ? { timeZone: 'UTC' } : {}) }),
  ).format(date);
}

/**
 * A number as the locale writes it, with grouping: `2608.2` → "2,608.20" (en-US), "2 608,20" (fr-FR).
 * A number with decimals keeps at least two (an amount's cents) and all it has; a whole number none.
 * A text that is no number is returned as it is.
 */
export function formatNumber(value: number | string, locale?: string): string {
  const number = typeof value === 'number' ? value : Number(value.trim());
  if (typeof value === 'string' && (value.trim() === '' || !Number.isFinite(number))) return value;
  if (!Number.isFinite(number)) return String(value);
  const text = typeof value === 'number' ? String(value) : value.trim();
  const decimals = /\.(\d+)$/.exec(text)?.[1]?.length ?? 0;
  const fraction = decimals === 0 ? 0 : Math.min(20, Math.max(2, decimals));
  return formatter(
    `n:${locale ?? ''}:${fraction}`,
    () => new Intl.NumberFormat(locale, { minimumFractionDigits: fraction, maximumFractionDigits: fraction }),
  ).format(number);
}
