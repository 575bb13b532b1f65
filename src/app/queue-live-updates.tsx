/**
 * While someone is signed in, the team queue and the documents open in this tab follow the server's
 * queue events (`event: queue` of /api/events): another operator takes, corrects, releases or
 * decides a document, and the lists and reviews showing it refetch at once instead of at their next
 * poll. A change this tab already has (same or older version) is not fetched again.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { reviewKeys } from '../api/keys';
import { sessionQueryOptions } from '../api/review/queries';
import type { DocumentResponse } from '@extraction-review/contract/review/schemas';
import { subscribeToAppEvents } from '../api/v2/app-events';

export function QueueLiveUpdates() {
  const session = useQuery(sessionQueryOptions());
  const queryClient = useQueryClient();
  const signedIn = session.data != null;

  useEffect(() => {
    if (!signedIn) return;
    return subscribeToAppEvents({
      onQueue: (event) => {
        void queryClient.invalidateQueries({ queryKey: reviewKeys.queues() });
        const cached = queryClient.getQueryData<DocumentResponse>(reviewKeys.document(event.documentId));
        if (cached !== undefined && cached.document.version >= event.version) return;
        void queryClient.invalidateQueries({ queryKey: reviewKeys.document(event.documentId) });
        void queryClient.invalidateQueries({ queryKey: reviewKeys.timeline(event.documentId) });
      },
      // Missed events: everything shown may be stale.
      onResync: () => void queryClient.invalidateQueries({ queryKey: reviewKeys.all }),
    });
  }, [signedIn, queryClient]);

  return null;
}
