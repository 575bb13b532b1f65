/**
 * The way back's deliveries over HTTP (docs/gateway.md, "The way back"; shapes in
 * packages/contract/src/review/deliveries.ts): the handlers of the routes declared in
 * packages/contract/src/review/routes/deliveries.ts. A failed delivery retried gets a new round of attempts; a
 * delivered one is 409 `409-004`.
 *
 * An unknown delivery is 404 `404-014`; an unknown document 404 `404-010`.
 */
import { Hono } from 'hono';
import {
  type DeliveryAttempt,
  type DeliveryDetailResponse,
  type DeliveryList,
  type DeliveryPage,
  type DeliveryResponse,
  type DeliveryView,
} from '@extraction-review/contract/review/deliveries';
import * as declared from '@extraction-review/contract/review/routes/deliveries';
import { ProblemError } from '@extraction-review/contract/problem';
import type { DeliveryAttemptRow } from '../db/schema';
import { DeliveryStore, type ListedDelivery } from '../deliveries/delivery-store';
import { mountRoute } from './mount-route';
import type { ReviewContext, ReviewEnv } from '../review-context';
const NO_STORE = { 'Cache-Control': 'no-store' };

export function deliveryRoutes(review: ReviewContext): Hono<ReviewEnv> {
  const routes = new Hono<ReviewEnv>();
  const store = new DeliveryStore(review.database);
  /** The delivery of a path's id (digits, checked by the declaration). */
  const found = async (raw: string): Promise<ListedDelivery> => {
    const delivery = await store.find(Number(raw));
    if (delivery === undefined) throw new ProblemError('404-014', `No delivery ${raw} of the way back.`);
    return delivery;
  };

  mountRoute(routes, review, declared.listDeliveries, async (c, { query }) => {
    const { rows, next } = await store.list({
      state: query.state,
      kind: query.kind,
      documentId: query.document,
      integrationId: query.integration,
      before: decodeCursor(query.cursor),
      limit: query.limit,
    });
    const page: DeliveryPage = {
      deliveries: rows.map(presentDelivery),
      nextCursor: next === null ? null : String(next),
      counts: await store.countByState(),
    };
    return c.json(page, 200, NO_STORE);
  });

  mountRoute(routes, review, declared.getDelivery, async (c, { params: { id } }) => {
    const delivery = await found(id);
    const body: DeliveryDetailResponse = {
      delivery: {
        ...presentDelivery(delivery),
        attemptLog: (await store.attemptsOf(delivery.id)).map(presentAttempt),
        payload: JSON.parse(delivery.payload_json) as unknown,
      },
    };
    return c.json(body, 200, NO_STORE);
  });

  mountRoute(routes, review, declared.retryDelivery, async (c, { params: { id } }) => {
    const delivery = await found(id);
    const retried = await store.retry(delivery.id, review.clock.now());
    if (!retried.ok) {
      if (retried.reason === 'not_found')
        throw new ProblemError('404-014', 'No such delivery of the way back.');
      throw new ProblemError('409-004', 'This delivery was delivered already: there is nothing to retry.');
    }
    const current = await store.find(delivery.id);
    if (current === undefined) throw new ProblemError('404-014', 'No such delivery of the way back.');
    const body: DeliveryResponse = { delivery: presentDelivery(current) };
    return c.json(body, 200);
  });

  mountRoute(routes, review, declared.getDocumentDeliveries, async (c, { params: { id } }) => {
    if ((await review.queue.find(id)) === undefined)
      throw new ProblemError('404-010', 'No such document in the review.');
    const body: DeliveryList = { deliveries: (await store.forDocument(id)).map(presentDelivery) };
    return c.json(body, 200, NO_STORE);
  });

  return routes;
}

const iso = (ms: number): string => new Date(ms).toISOString();

export function presentDelivery(row: ListedDelivery): DeliveryView {
  return {
    id: row.id,
    kind: row.kind,
    state: row.state,
    documentId: row.document_id,
    fileName: row.file_name,
    integration: row.integration_id === null ? null : { id: row.integration_id, name: row.integration_name },
    decidedAt: iso(row.decided_at),
    attempts: row.attempts,
    nextAttemptAt: row.state === 'pending' ? iso(row.next_attempt_at) : null,
    lastStatus: row.last_status,
    lastError: row.last_error,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    deliveredAt: row.delivered_at === null ? null : iso(row.delivered_at),
  };
}

function presentAttempt(row: DeliveryAttemptRow): DeliveryAttempt {
  return {
    at: iso(row.at),
    outcome: row.outcome,
    status: row.status,
    error: row.error,
    durationMs: row.duration_ms,
  };
}

function decodeCursor(cursor: string | undefined): number | undefined {
  if (cursor === undefined) return undefined;
  if (/^\d{1,15}$/.test(cursor)) return Number(cursor);
  throw new ProblemError('422-008', 'This cursor is not one a page gave.', {
    errors: [{ pointer: '#/cursor', detail: 'Pass nextCursor of the previous page as it is.' }],
  });
}
