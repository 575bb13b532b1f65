/** Times of the queue review in the operator's locale: "10:42" for today's lease, a date with it otherwise. */
const clock = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function formatClock(iso: string | null): string {
  if (iso === null) return 'unknown';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : clock.format(date);
}

export function formatWhen(iso: string | null): string {
  if (iso === null) return 'at an unknown time';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
}
