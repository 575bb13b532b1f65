/**
 * Saved queues over HTTP: the handlers of the routes declared in
 * packages/contract/src/review/routes/saved-queues.ts. Any operator lists them, each with how many of
 * its documents are waiting for them (`operator: "me"` is the caller); admins create, change and
 * delete them (the declarations' `access: 'admin'`, checked by the mount, with the CSRF token).
 */
import { Hono } from 'hono';
import { ProblemError } from '@extraction-review/contract/problem';
import * as declared from '@extraction-review/contract/review/routes/saved-queues';
import {
  MAX_SAVED_QUEUES,
  type SavedQueue,
  type SavedQueueFilters,
} from '@extraction-review/contract/review/saved-queues';
import type { DocumentFilters } from '../store/queue-store';
import { SavedQueueStore, type SavedQueueWrite, type StoredSavedQueue } from '../store/saved-queue-store';
import { mountRoute } from './mount-route';
import type { ReviewContext, ReviewEnv } from '../review-context';

export function savedQueueRoutes(review: ReviewContext): Hono<ReviewEnv> {
  const routes = new Hono<ReviewEnv>();
  const queues = new SavedQueueStore(review.database);

  /** The queue as the caller sees it: with how many of its documents wait for them now. */
  const present = async (queue: StoredSavedQueue, me: string): Promise<SavedQueue> => ({
    id: queue.id,
    name: queue.name,
    filters: queue.filters,
    version: queue.version,
    waiting: await review.queue.countWaiting(review.clock.now(), documentFilters(queue.filters, me), me),
    updatedAt: new Date(queue.updatedAt).toISOString(),
  });

  mountRoute(routes, review, declared.listSavedQueues, async (c) => {
    const me = c.get('session').operator.id;
    const list = await queues.list();
    const presented: SavedQueue[] = [];
    for (const queue of list) presented.push(await present(queue, me));
    return c.json({ queues: presented }, 200, { 'Cache-Control': 'no-store' });
  });

  mountRoute(routes, review, declared.createSavedQueue, async (c, { body }) => {
    const me = c.get('session').operator.id;
    const outcome = await queues.create(body, me, review.clock.now());
    return c.json({ queue: await present(written(outcome, body.name), me) }, 201);
  });

  mountRoute(routes, review, declared.updateSavedQueue, async (c, { params: { id }, body }) => {
    const me = c.get('session').operator.id;
    const outcome = await queues.update(id, body.version, body, me, review.clock.now());
    if (!outcome.ok && outcome.reason === 'changed') {
      throw new ProblemError(
        '409-006',
        `Another admin changed this saved queue: it is now “${outcome.current.name}”, version ${outcome.current.version}. Look at it again before changing it.`,
        { extensions: { current: await present(outcome.current, me) } },
      );
    }
    return c.json({ queue: await present(written(outcome, body.name ?? ''), me) }, 200);
  });

  mountRoute(routes, review, declared.deleteSavedQueue, async (c, { params: { id } }) => {
    if (!(await queues.delete(id))) throw notFound();
    return c.body(null, 204);
  });

  return routes;
}

/** The saved queue written, or the problem that says why not. */
function written(outcome: SavedQueueWrite, name: string): StoredSavedQueue {
  if (outcome.ok) return outcome.queue;
  switch (outcome.reason) {
    case 'not_found':
      throw notFound();
    case 'name_taken': {
      const detail = `A saved queue named “${name.trim()}” exists already: choose another name.`;
      throw new ProblemError('409-003', detail, { errors: [{ pointer: '#/name', detail }] });
    }
    case 'too_many':
      throw new ProblemError(
        '422-017',
        `The team keeps at most ${MAX_SAVED_QUEUES} saved queues: delete one before saving another.`,
      );
    case 'changed':
      throw new Error('a changed queue is answered by its route');
  }
}

const notFound = () => new ProblemError('404-018', 'No such saved queue: it may have been deleted.');

/** A saved queue's filters as the store reads them: `me` is the caller. */
export function documentFilters(filters: SavedQueueFilters, me: string): DocumentFilters {
  return {
    state: filters.state,
    model: filters.model,
    operator: filters.operator === 'me' ? me : filters.operator,
    search: filters.q,
    minAmount: filters.minAmount,
    maxAmount: filters.maxAmount,
    assigned: filters.assigned === 'me' ? me : filters.assigned,
  };
}
