/**
 * A model's unchecked-values gate (packages/contract/src/review/unchecked-gate.ts): the handlers of
 * the routes declared in packages/contract/src/review/routes/checks.ts (any operator reads it, an
 * admin sets it). The confirmation applies it (review-routes.ts).
 */
import { Hono } from 'hono';
import type { UncheckedGate } from '@extraction-review/contract/review/unchecked-gate';
import * as declared from '@extraction-review/contract/review/routes/checks';
import { UncheckedGateStore, type StoredUncheckedGate } from '../store/unchecked-gate-store';
import { mountRoute } from './mount-route';
import type { ReviewContext, ReviewEnv } from '../review-context';

export function uncheckedGateRoutes(review: ReviewContext): Hono<ReviewEnv> {
  const routes = new Hono<ReviewEnv>();
  const gates = new UncheckedGateStore(review.database);
  mountRoute(routes, review, declared.getUncheckedGate, async (c, { params: { apiVersion, model } }) =>
    c.json(presentGate(await gates.get(apiVersion, model)), 200, { 'Cache-Control': 'no-store' }),
  );
  mountRoute(
    routes,
    review,
    declared.putUncheckedGate,
    async (c, { params: { apiVersion, model }, body }) => {
      const saved = await gates.put(
        apiVersion,
        model,
        body.strict,
        c.get('session').operator.id,
        review.clock.now(),
      );
      return c.json(presentGate(saved), 200);
    },
  );
  return routes;
}

function presentGate(g: StoredUncheckedGate): UncheckedGate {
  return {
    apiVersion: g.apiVersion,
    model: g.modelKey,
    strict: g.strict,
    updatedAt: g.updatedAt === null ? null : new Date(g.updatedAt).toISOString(),
    updatedBy: g.updatedBy,
  };
}
