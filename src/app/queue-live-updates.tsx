/**
 * While someone is signed in, the team queue and the documents open in this tab follow the server's
 * queue events (`event: queue` of /api/events): another operator takes, corrects, releases or
 * decides a document, and what shows it is brought up to date at once: in the lists, the one row and
 * the counts (queue-live-cache.ts, issue 22); an open review, its document and timeline. A change this
 * tab already has (same or older version) is not fetched again. While the stream is up the lists do
 * not poll (queueQueryOptions); missed events (`resync`) make everything shown be read again.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { reviewKeys } from '../api/keys';
import { sessionQueryOptions } from '../api/review/queries';
import type { DocumentResponse } from '@extraction-review/contract/review/schemas';
import { subscribeToAppEvents } from '../api/v2/app-events';
import { createQueueLiveCache } from './queue-live-cache';

export function QueueLiveUpdates() {
  const session = useQuery(sessionQueryOptions());
  const queryClient = useQueryClient();
  const signedIn = session.data != null;

  useEffect(() => {
    if (!signedIn) return;
    const lists = createQueueLiveCache(queryClient);
    const stop = subscribeToAppEvents({
      onQueue: (event) => {
        lists.onQueue(event);
        const cached = queryClient.getQueryData<DocumentResponse>(reviewKeys.document(event.documentId));
        if (cached !== undefined && cached.document.version >= event.version) return;
        void queryClient.invalidateQueries({ queryKey: reviewKeys.document(event.documentId) });
        void queryClient.invalidateQueries({ queryKey: reviewKeys.timeline(event.documentId) });
      },
      // Missed events: everything shown may be stale.
      onResync: () => void queryClient.invalidateQueries({ queryKey: reviewKeys.all }),
    });
    return () => {
      stop();
      lists.dispose();
    };
  }, [signedIn, queryClient]);

  return null;
}
