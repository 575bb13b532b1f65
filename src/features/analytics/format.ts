/** Figures as words: durations, shares, counts. */
import { formatNumber } from '../../lib/format';

/** `45 s`, `4 min 10 s`, `2 h 5 min`, `3 days 4 h`. */
export function formatDuration(ms: number | null): string {
  if (ms === null) return '—';
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${String(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return join(minutes, 'min', seconds % 60, 's');
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return join(hours, 'h', minutes % 60, 'min');
  const days = Math.floor(hours / 24);
  return join(days, days === 1 ? 'day' : 'days', hours % 24, 'h');
}

function join(big: number, bigUnit: string, small: number, smallUnit: string): string {
  return small === 0
    ? `${String(big)} ${bigUnit}`
    : `${String(big)} ${bigUnit} ${String(small)} ${smallUnit}`;
}

/** `40 %`, `33.3 %`; `—` when there is nothing to divide by. */
export function formatShare(share: number | null): string {
  if (share === null) return '—';
  const percent = Math.round(share * 1000) / 10;
  return `${String(percent)} %`;
}

/** `1 document`, `3 documents`. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatNumber(n)} ${n === 1 ? one : many}`;
}

/** A day of a chart's axis: `Mon 23 Nov`, in the browser's language. */
export function formatDay(iso: string): string {
  return new Date(iso).toLocaleDateString(undefined, { weekday: 'short', day: 'numeric', month: 'short' });
}
