import { useEffect, useState } from 'react';

/** `Date.now()`, refreshed every `intervalMs` while `running`. */
export function useNow(running: boolean, intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [running, intervalMs]);
  return now;
}

/** Seconds since `since`, ticking once a second while `running`. */
export function useElapsedSeconds(since: string | undefined, running: boolean): number | null {
  const now = useNow(running);
  if (!since) return null;
  const start = parseServerTime(since);
  return Number.isNaN(start) ? null : Math.max(0, Math.round((now - start) / 1000));
}

/**
 * The hosted service writes timestamps without a zone (`2025-07-03T14:27:58.974451`); they are UTC.
 */
export function parseServerTime(value: string): number {
  const hasZone = /(?:Z|[+-]\d\d:?\d\d)$/.test(value);
  return Date.parse(hasZone ? value : `${value}Z`);
}

/** How long a job took, or has taken so far: "8 s", "2 min 05 s", "1 h 02 min". */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
}

/** Seconds from the job's creation to its completion, or to `now` while it runs. */
export function jobDurationSeconds(
  createdAt: string,
  completedAt: string | null,
  now: number,
): number | null {
  const start = parseServerTime(createdAt);
  const end = completedAt === null ? now : parseServerTime(completedAt);
  return Number.isNaN(start) || Number.isNaN(end) ? null : Math.max(0, (end - start) / 1000);
}
