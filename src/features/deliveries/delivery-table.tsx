import { Fragment, useState } from 'react';
import { Link } from 'wouter';
import type { DeliveryView } from '@extraction-review/contract/review/deliveries';
import { Button } from '../../components/ui/button';
import { DeliveryAttempts } from './delivery-attempts';
import { DeliveryStateBadge } from './delivery-state-badge';
import { formatWhen, KIND_LABEL } from './describe-delivery';
import { RetryDeliveryButton } from './retry-delivery-button';

const cell = 'border-b border-slate-200 px-3 py-2 align-top';

/**
 * One row per delivery: what, for which document and integration, its state, attempts, last outcome and
 * when the next attempt is due; "Attempts" opens its attempts below it; a failed one has "Retry".
 */
export function DeliveryTable({ deliveries }: { deliveries: readonly DeliveryView[] }) {
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const toggle = (id: number) =>
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  return (
    <div className="overflow-x-auto rounded-md border border-slate-200 bg-white">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Deliveries, newest first</caption>
        <thead className="bg-slate-50 text-xs text-slate-600 uppercase">
          <tr>
            {[
              '#',
              'Kind',
              'Document',
              'Integration',
              'State',
              'Attempts',
              'Last outcome',
              'Next attempt',
            ].map((name) => (
              <th key={name} scope="col" className={cell}>
                {name}
              </th>
            ))}
            <th scope="col" className={cell}>
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {deliveries.map((delivery) => (
            <Fragment key={delivery.id}>
              <tr>
                <th scope="row" className={`${cell} font-medium`}>
                  {delivery.id}
                </th>
                <td className={cell}>{KIND_LABEL[delivery.kind]}</td>
                <td className={cell}>
                  <Link href={`/review/${delivery.documentId}`} className="text-blue-800 underline">
                    {delivery.fileName ?? delivery.documentId}
                  </Link>
                  <div className="text-xs text-slate-600">confirmed {formatWhen(delivery.decidedAt)}</div>
                </td>
                <td className={cell}>{delivery.integration?.name ?? '—'}</td>
                <td className={cell}>
                  <DeliveryStateBadge state={delivery.state} />
                </td>
                <td className={cell}>{delivery.attempts}</td>
                <td className={`${cell} max-w-md break-words`}>
                  {delivery.state === 'delivered'
                    ? `${delivery.lastStatus ?? ''} at ${formatWhen(delivery.deliveredAt)}`
                    : (delivery.lastError ??
                      (delivery.lastStatus === null ? '—' : String(delivery.lastStatus)))}
                </td>
                <td className={cell}>{formatWhen(delivery.nextAttemptAt)}</td>
                <td className={`${cell} text-right`}>
                  <div className="flex items-start justify-end gap-2">
                    <Button
                      variant="ghost"
                      className="px-2 py-1 text-xs"
                      aria-expanded={open.has(delivery.id)}
                      aria-label={`Attempts of delivery ${delivery.id}`}
                      onClick={() => toggle(delivery.id)}
                    >
                      Attempts
                    </Button>
                    {delivery.state === 'failed' && <RetryDeliveryButton delivery={delivery} />}
                  </div>
                </td>
              </tr>
              {open.has(delivery.id) && (
                <tr>
                  <td colSpan={9} className={`${cell} bg-slate-50`}>
                    <DeliveryAttempts id={delivery.id} />
                  </td>
                </tr>
              )}
            </Fragment>
          ))}
        </tbody>
      </table>
    </div>
  );
}
