/** Times of the queue review, written the one way the app writes them (src/lib/format.ts). */
import { formatDateTime, formatTime } from '../../../lib/format';

/** A time of day: "10:42" for today's lease. */
export function formatClock(iso: string | null): string {
  if (iso === null) return 'unknown';
  return formatTime(iso);
}

/** A moment, with its date. */
export function formatWhen(iso: string | null): string {
  if (iso === null) return 'at an unknown time';
  return formatDateTime(iso);
}
