import { useQuery } from '@tanstack/react-query';
import type { DeliveryKind, DeliveryView } from '@extraction-review/contract/review/deliveries';
import { documentDeliveriesQueryOptions } from '../../../api/review/delivery-queries';
import { ProblemAlert } from '../../../components/problem-alert';
import { formatWhen } from './format-time';

const KIND: Record<DeliveryKind, string> = {
  webhook: 'Webhook',
  v1_feedback: 'v1 feedback',
  v2_rag: 'RAG',
};

function describe(delivery: DeliveryView): string {
  const to = delivery.integration?.name ? ` to ${delivery.integration.name}` : '';
  switch (delivery.state) {
    case 'delivered':
      return `${KIND[delivery.kind]}${to}: delivered ${formatWhen(delivery.deliveredAt)}`;
    case 'pending':
      return delivery.attempts === 0
        ? `${KIND[delivery.kind]}${to}: sending`
        : `${KIND[delivery.kind]}${to}: retrying (${delivery.attempts} attempt${delivery.attempts === 1 ? '' : 's'} so far)`;
    case 'failed':
      return `${KIND[delivery.kind]}${to}: failed after ${delivery.attempts} attempt${delivery.attempts === 1 ? '' : 's'}`;
  }
}

/**
 * What the document's confirmations sent on the way back (its integration's webhook, v1 feedback, RAG):
 * one line each, with the last error of one not delivered. Nothing when there is none.
 */
export function DocumentDeliveries({ documentId }: { documentId: string }) {
  const deliveries = useQuery(documentDeliveriesQueryOptions(documentId));
  if (deliveries.isError)
    return <ProblemAlert error={deliveries.error} onRetry={() => void deliveries.refetch()} />;
  const list = deliveries.data?.deliveries ?? [];
  if (list.length === 0) return null;
  return (
    <div className="border-t border-slate-200 pt-2">
      <h3 className="text-xs font-semibold text-slate-700 uppercase">Sent on confirmation</h3>
      <ul aria-label="Sent on confirmation" className="mt-1 flex flex-col gap-1 text-sm">
        {list.map((delivery) => (
          <li key={delivery.id}>
            <span className={delivery.state === 'failed' ? 'font-medium text-red-800' : undefined}>
              {describe(delivery)}
            </span>
            {delivery.state !== 'delivered' && delivery.lastError !== null && (
              <span className="block text-xs break-words text-slate-600">{delivery.lastError}</span>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
