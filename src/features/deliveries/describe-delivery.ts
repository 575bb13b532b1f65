/** Words for the way back's deliveries (packages/contract/src/review/deliveries.ts), as the admin page shows them. */
import type { DeliveryKind, DeliveryState } from '@extraction-review/contract/review/deliveries';
import { formatDateTime } from '../../lib/format';

export const KIND_LABEL: Record<DeliveryKind, string> = {
  webhook: 'Webhook',
  v1_feedback: 'v1 feedback',
  v2_rag: 'RAG (v2)',
};

export const STATE_LABEL: Record<DeliveryState, string> = {
  pending: 'Pending',
  delivered: 'Delivered',
  failed: 'Failed',
};

export const STATE_ORDER: readonly DeliveryState[] = ['pending', 'failed', 'delivered'];

export const OUTCOME_LABEL: Readonly<Record<string, string>> = {
  delivered: 'delivered',
  status: 'answered',
  timeout: 'timed out',
  network: 'not reached',
};

/** A moment, the one way the app writes them (src/lib/format.ts); `—` for none. */
export function formatWhen(iso: string | null): string {
  if (iso === null) return '—';
  return formatDateTime(iso);
}
