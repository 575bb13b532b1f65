/** React Query options for the way back's deliveries (delivery-endpoints.ts), keyed by keys.ts. */
import { queryOptions } from '@tanstack/react-query';
import { reviewKeys } from '../keys';
import type { DeliveryQuery } from '@extraction-review/contract/review/deliveries';
import { getDelivery, getDocumentDeliveries, listDeliveries } from './delivery-endpoints';

/** Kept fresh while shown: deliveries move on their own (attempts, retries). */
export function deliveriesQueryOptions(query: Partial<DeliveryQuery>) {
  return queryOptions({
    queryKey: reviewKeys.deliveries(query),
    queryFn: ({ signal }) => listDeliveries(query, { signal }),
    refetchInterval: 5_000,
  });
}

export function deliveryQueryOptions(id: number) {
  return queryOptions({
    queryKey: reviewKeys.delivery(id),
    queryFn: ({ signal }) => getDelivery(id, { signal }),
    refetchInterval: 5_000,
  });
}

/** While one is pending, looked at again every few seconds; otherwise when the document changes. */
export function documentDeliveriesQueryOptions(documentId: string) {
  return queryOptions({
    queryKey: reviewKeys.documentDeliveries(documentId),
    queryFn: ({ signal }) => getDocumentDeliveries(documentId, { signal }),
    refetchInterval: (query) =>
      query.state.data?.deliveries.some((d) => d.state === 'pending') === true ? 3_000 : false,
  });
}
