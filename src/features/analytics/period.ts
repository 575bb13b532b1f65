/**
 * The periods the "Where time goes" page offers, in the admin's own time zone: whole local days, so
 * that the server's daily bars start at local midnights. The end is the start of tomorrow (stable all
 * day long, so the query's key does not change at every render); the days after today count nothing.
 */
export type PeriodChoice = 'this-week' | 'last-7-days' | 'last-30-days' | 'custom';

export const PERIOD_LABELS: Record<PeriodChoice, string> = {
  'this-week': 'This week (since Monday)',
  'last-7-days': 'Last 7 days',
  'last-30-days': 'Last 30 days',
  custom: 'Custom',
};

export interface Period {
  /** ISO instants, `[from, to)`. */
  from: string;
  to: string;
}

/** Local midnight of `date` moved by `days`. */
function midnight(date: Date, days = 0): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate() + days);
}

/** `2026-11-24` as the local midnight starting that day; undefined for anything else. */
function localDay(text: string): Date | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (match === null) return undefined;
  const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** The period chosen, or a message when a custom one does not make sense. */
export function periodOf(
  choice: PeriodChoice,
  now: Date,
  custom: { from: string; to: string } = { from: '', to: '' },
): Period | { problem: string } {
  const tomorrow = midnight(now, 1);
  switch (choice) {
    case 'this-week': {
      // getDay(): 0 is Sunday; the week starts on Monday.
      const sinceMonday = (now.getDay() + 6) % 7;
      return { from: midnight(now, -sinceMonday).toISOString(), to: tomorrow.toISOString() };
    }
    case 'last-7-days':
      return { from: midnight(now, -6).toISOString(), to: tomorrow.toISOString() };
    case 'last-30-days':
      return { from: midnight(now, -29).toISOString(), to: tomorrow.toISOString() };
    case 'custom': {
      const from = localDay(custom.from);
      const last = localDay(custom.to);
      if (from === undefined || last === undefined) return { problem: 'Choose the first and the last day.' };
      if (last < from) return { problem: 'The last day comes before the first.' };
      return { from: from.toISOString(), to: midnight(last, 1).toISOString() };
    }
  }
}

/** `2026-11-24` for a date input, in local time. */
export function dayInputValue(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${String(date.getFullYear())}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
