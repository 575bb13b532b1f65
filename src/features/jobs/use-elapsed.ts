import { useEffect, useState } from 'react';

/** Seconds since `since`, ticking once a second while `running`. */
export function useElapsedSeconds(since: string | undefined, running: boolean): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [running]);
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
