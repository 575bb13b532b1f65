import { useEffect, useState } from 'react';
import { onRetryWait } from '../../api/http';

/** Seconds until the next attempt after a rate-limited job poll, or null. */
function useJobPollWait(): number | null {
  const [wait, setWait] = useState<{ until: number; retry: number } | null>(null);
  const [now, setNow] = useState(() => Date.now());
  useEffect(
    () =>
      onRetryWait((event) => {
        if (
          event.status !== 429 ||
          !event.endpoint.startsWith('GET ') ||
          !event.endpoint.includes('/v2/jobs/')
        )
          return;
        const until = event.at + (event.waitMs ?? 0);
        setNow(Date.now());
        setWait((current) => (current && current.until >= until ? current : { until, retry: event.retry }));
      }),
    [],
  );
  useEffect(() => {
    if (!wait) return;
    const timer = setInterval(() => {
      const at = Date.now();
      setNow(at);
      if (at >= wait.until) setWait(null);
    }, 500);
    return () => clearInterval(timer);
  }, [wait]);
  return wait && now < wait.until ? Math.max(1, Math.ceil((wait.until - now) / 1000)) : null;
}

/**
 * The HTTP layer waits out a 429 by itself (its `Retry-After`), so a poll then simply takes longer:
 * this says why, while it lasts.
 */
export function RateLimitNotice() {
  const seconds = useJobPollWait();
  return (
    <p role="status" className="text-sm text-amber-900" data-rate-limited={seconds !== null}>
      {seconds !== null && `The service is rate limiting requests: job updates resume in ${seconds} s.`}
    </p>
  );
}
