/** Words for the way back's deliveries (packages/contract/src/review/deliveries.ts), as the admin page shows them. */
import type { DeliveryKind, DeliveryState } from '@extraction-review/contract/review/deliveries';

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

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

export function formatWhen(iso: string | null): string {
  if (iso === null) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
}
