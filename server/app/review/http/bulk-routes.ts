/**
 * Admins' changes to many documents at once (packages/contract/src/review/routes/bulk.ts; the store's
 * side: store/queue-bulk.ts). The route is admin-only (403-005 otherwise) and, as every state-changing
 * route, needs the session's CSRF token; the body is bounded (at most 500 ids, each once).
 */
import { Hono } from 'hono';
import { bulkDocuments } from '@extraction-review/contract/review/routes/bulk';
import type { BulkResponse } from '@extraction-review/contract/review/bulk';
import type { BulkChange } from '../store/queue-bulk';
import { removeKeptFiles } from '../files/remove-kept-files';
import { mountRoute } from './mount-route';
import { findAssignee } from './assignee';
import type { ReviewContext, ReviewEnv } from '../review-context';

export function bulkRoutes(review: ReviewContext): Hono<ReviewEnv> {
  const routes = new Hono<ReviewEnv>();

  mountRoute(routes, review, bulkDocuments, async (c, { body }) => {
    const adminId = c.get('session').operator.id;
    let change: BulkChange;
    switch (body.action) {
      case 'assign': {
        const target = await findAssignee(review.operators, body.operator);
        change = { action: 'assign', toOperatorId: target.id };
        break;
      }
      case 'unassign':
        change = { action: 'unassign' };
        break;
      case 'priority':
        change = { action: 'priority', priority: body.priority };
        break;
      case 'reject':
        change = { action: 'reject', reason: body.reason };
        break;
      case 'delete':
        change = { action: 'delete' };
        break;
    }
    const { removedFileKeys, ...outcome } = await review.queue.applyBulk(
      body.ids,
      change,
      adminId,
      review.clock.now(),
    );
    // The rows are gone (committed): their kept files follow.
    await removeKeptFiles(review.files, removedFileKeys);
    const answer: BulkResponse = outcome;
    return c.json(answer, 200);
  });

  return routes;
}
