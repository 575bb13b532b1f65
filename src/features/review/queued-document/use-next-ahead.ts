import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useSearch } from 'wouter';
import { reviewKeys } from '../../../api/keys';
import { peekNext } from '../../../api/review/endpoints';
import { reviewDocumentQueryOptions } from '../../../api/review/queries';
import { modelSchemaQueryOptions } from '../../../api/v2/model-schema';
import type { SessionResponse } from '@extraction-review/contract/review/schemas';
import { parseQueueFilters, toNextQuery } from '../../../lib/queue-filters';
import { drawDocumentAhead } from '../viewer/preload';
import { documentFileQueryOptions } from './use-document-file';

/** After the current document's file is in: its own page draws first, the next one's after. */
export const AHEAD_DELAY_MS = 300;
/** How long which document is next stays known (the queue's live events read it again sooner). */
const PEEK_FRESH_MS = 30_000;
/** A prefetched file nobody shows any more (the review left elsewhere) goes this soon. */
export const AHEAD_GC_MS = 10_000;

/**
 * The next document of the queue, made ready while the current one is reviewed: which one "Confirm
 * and next", Reject and Postpone would move on to now (`GET /api/review/next`, the queue's filters of
 * the review's address: read-only, no lease, since the server decides at the take), its kept file
 * downloaded into the query cache under the key the next review reads it by, and, for a PDF, opened
 * and its page 1 drawn once off-screen. When the take answers with that document, its review finds
 * the file in the cache and pdf.js ready, and paints at once; when it answers with another (taken
 * meanwhile by a colleague, a new urgent one), that one loads as usual.
 *
 * Its record (with its result) is read too, and its model's schema: with the file, all the next
 * review needs to draw its page and polygons, so that a decision can open it at once, before the take
 * answers (move-on.ts).
 *
 * One document ahead at most: the file and record of one no longer next are dropped from the cache;
 * leaving the review cancels a download under way, and an unused file goes a few seconds later. Only
 * while the operator holds the current document (`enabled`), and once its own file is in (`ready`).
 */
export function useNextDocumentAhead({
  current,
  enabled,
  ready,
}: {
  current: string;
  enabled: boolean;
  ready: boolean;
}): string | null {
  const queryClient = useQueryClient();
  const search = useSearch();
  const [waited, setWaited] = useState(false);
  useEffect(() => {
    if (!enabled || !ready) return;
    const timer = setTimeout(() => setWaited(true), AHEAD_DELAY_MS);
    return () => clearTimeout(timer);
  }, [enabled, ready]);
  const me = queryClient.getQueryData<SessionResponse | null>(reviewKeys.session())?.operator.id;
  const query = toNextQuery(parseQueueFilters(search), me);
  const on = enabled && ready && waited;
  const peek = useQuery({
    // Per current document: each review asks afresh (the last one's answer is the document now shown).
    queryKey: reviewKeys.nextPeek({ ...query, after: current }),
    queryFn: async ({ signal }) => (await peekNext(query, { signal })) ?? null,
    enabled: on,
    staleTime: PEEK_FRESH_MS,
    // A failed look ahead costs nothing: the next review loads as usual.
    retry: false,
  });
  const next = on && peek.data != null && peek.data !== current ? peek.data : null;
  const file = useQuery({
    ...documentFileQueryOptions(next ?? ''),
    enabled: next !== null,
    gcTime: AHEAD_GC_MS,
    retry: false,
  });
  const record = useQuery({
    ...reviewDocumentQueryOptions(next ?? ''),
    enabled: next !== null,
    gcTime: AHEAD_GC_MS,
    retry: false,
  });
  const v2Model = record.data?.document.apiVersion === 'v2' ? record.data.document.model : null;
  useEffect(() => {
    // Usually the current document's model, read already (prefetchQuery then asks nothing).
    if (v2Model !== null) void queryClient.prefetchQuery(modelSchemaQueryOptions(v2Model));
  }, [v2Model, queryClient]);

  // One ahead: the file and record of a document no longer next, and shown by nobody, go now.
  const previous = useRef<string | null>(null);
  useEffect(() => {
    const before = previous.current;
    previous.current = next;
    if (before !== null && before !== next && before !== current) {
      queryClient.removeQueries({ queryKey: reviewKeys.file(before), exact: true, type: 'inactive' });
      queryClient.removeQueries({ queryKey: reviewKeys.document(before), exact: true, type: 'inactive' });
    }
  }, [next, current, queryClient]);

  const blob = next === null ? undefined : file.data?.file;
  const mimeType = file.data?.mimeType;
  useEffect(() => (blob ? drawDocumentAhead(blob, mimeType) : undefined), [blob, mimeType]);
  return next;
}
