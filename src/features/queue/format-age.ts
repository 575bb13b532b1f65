/** Short words for times in the queue view: pure, so they are tested without a clock. */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** How long ago `since` was, in the largest whole unit: "under 1 min", "3 min", "2 h", "5 d". */
export function formatAge(since: string | number, now: number): string {
  const ms = Math.max(0, now - (typeof since === 'number' ? since : Date.parse(since)));
  if (Number.isNaN(ms)) return '—';
  if (ms < MINUTE) return 'under 1 min';
  if (ms < HOUR) return `${Math.floor(ms / MINUTE)} min`;
  if (ms < DAY) return `${Math.floor(ms / HOUR)} h`;
  return `${Math.floor(ms / DAY)} d`;
}

/** The share of fields needing review: "2 of 10 (20%)", or "—" when the result has no field. */
export function formatShare(toReview: number, total: number): string {
  if (total === 0) return '—';
  return `${toReview} of ${total} (${Math.round((toReview / total) * 100)}%)`;
}

const clock = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
const clockSeconds = new Intl.DateTimeFormat(undefined, {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** A local time of day, "10:42". */
export const formatClock = (at: string | number): string => clock.format(new Date(at));

/** A local time of day with seconds, "10:42:07". */
export const formatClockSeconds = (at: string | number): string => clockSeconds.format(new Date(at));
