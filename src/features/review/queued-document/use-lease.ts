import { useEffect, useRef } from 'react';
import { renewLease } from '../../../api/review/endpoints';
import { isNotHolder, isWrongState } from './review-errors';

export const LEASE_RENEW_MS = 60_000;

/**
 * Keeps the document held while its review is open: the lease is renewed at once, every minute, and
 * when the tab comes back into view (a hidden tab's timers are slowed down). A refusal (taken over, or
 * decided meanwhile) is handed to `onLost`; a failure on the way is left to the next renewal.
 */
export function useLease(documentId: string, onLost: (error: unknown) => void): void {
  const lost = useRef(onLost);
  useEffect(() => {
    lost.current = onLost;
  });

  useEffect(() => {
    let live = true;
    const renew = () => {
      renewLease(documentId).catch((error: unknown) => {
        if (live && (isNotHolder(error) || isWrongState(error))) lost.current(error);
      });
    };
    const onVisible = () => {
      if (document.visibilityState === 'visible') renew();
    };
    renew();
    const timer = setInterval(renew, LEASE_RENEW_MS);
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      live = false;
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [documentId]);
}
