import type { DeliveryState } from '@extraction-review/contract/review/deliveries';
import { STATE_LABEL } from './describe-delivery';

const STYLE: Record<DeliveryState, string> = {
  pending: 'border-amber-300 bg-amber-50 text-amber-900',
  delivered: 'border-green-300 bg-green-50 text-green-900',
  failed: 'border-red-300 bg-red-50 text-red-900',
};

export function DeliveryStateBadge({ state }: { state: DeliveryState }) {
  return (
    <span className={`inline-block rounded border px-1.5 py-0.5 text-xs font-medium ${STYLE[state]}`}>
      {STATE_LABEL[state]}
    </span>
  );
}
