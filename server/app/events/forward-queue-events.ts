/**
 * The team queue's changes to the browsers: every change the bus hears (this copy's and, on
 * PostgreSQL, the others') as `event: queue`, and, when the bus may have missed some (its LISTEN
 * connection broke and is back: a database restart), `event: resync` with reason `missed`, so that
 * every open queue and review refetches (src/app/queue-live-updates.tsx).
 */
import type { QueueBus } from '../review/events/queue-bus';
import type { AppEventHub } from './app-event-hub';

/** Returns what stops the forwarding. */
export function forwardQueueEvents(bus: QueueBus, hub: AppEventHub): () => void {
  return bus.subscribe({
    onChange: (change) => hub.publishQueue(change),
    onGap: () => hub.publishResync('missed'),
  });
}
