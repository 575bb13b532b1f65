import { startTransition, useCallback, useEffect, useState } from 'react';

/**
 * How long the values wait at most for the page: a document that opens slowly, or cannot be drawn,
 * holds them back no longer.
 */
export const VALUES_WAIT_MS = 1_000;

/**
 * Whether a review's values wait for its document's first page (issue 12): drawing a few hundred
 * rows of values takes the main thread for tens of milliseconds (more on a busy machine), in the
 * same task as the viewer's first render, and pdf.js needs that thread to draw page 1. So, when the
 * review opens with its document (or the document is on its way), the values are drawn once a page
 * is, or after VALUES_WAIT_MS, whichever is first. A review without a document shows them at once.
 */
export function useValuesAfterPage(documentExpected: boolean): {
  waiting: boolean;
  onPageDrawn: () => void;
} {
  // Decided at mount: values once shown are never hidden again.
  const [waiting, setWaiting] = useState(documentExpected);
  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(() => setWaiting(false), VALUES_WAIT_MS);
    return () => clearTimeout(timer);
  }, [waiting]);
  // A transition: the page's own update (drawn) commits first, the values are drawn after it.
  const onPageDrawn = useCallback(() => startTransition(() => setWaiting(false)), []);
  // A document no longer expected (none was kept after all) holds nothing back.
  return { waiting: waiting && documentExpected, onPageDrawn };
}
