/**
 * Each model's routing and business rules (packages/contract/src/review/model-settings.ts): the handlers of the
 * routes declared in packages/contract/src/review/routes/models.ts (any operator reads them, an admin saves them).
 *
 * `{model}` is URL-encoded as one segment: a v1 product `account/name/vN` is `account%2Fname%2FvN`.
 * Invalid rules are a 422 `422-008` whose pointers point into the body (`#/rules/2/pattern`); a
 * version that is not the settings' any more a 409 `409-001` with the settings as they are now in
 * `current`.
 */
import { Hono } from 'hono';
import type { ModelSettings, ModelsResponse } from '@extraction-review/contract/review/model-settings';
import * as declared from '@extraction-review/contract/review/routes/models';
import { ProblemError } from '@extraction-review/contract/problem';
import { ModelSettingsStore, type StoredModelSettings } from '../store/model-settings-store';
import { mountRoute } from './mount-route';
import type { ReviewContext, ReviewEnv } from '../review-context';

export function modelSettingsRoutes(review: ReviewContext): Hono<ReviewEnv> {
  const routes = new Hono<ReviewEnv>();
  const settings = new ModelSettingsStore(review.database);
  mountRoute(routes, review, declared.listModels, async (c) => {
    const body: ModelsResponse = {
      models: (await settings.list()).map((s) => ({ ...presentSettings(s), documents: s.documents })),
    };
    return c.json(body, 200, { 'Cache-Control': 'no-store' });
  });

  mountRoute(routes, review, declared.getModelSettings, async (c, { params: { apiVersion, model } }) => {
    return c.json(presentSettings(await settings.get(apiVersion, model)), 200, {
      'Cache-Control': 'no-store',
    });
  });

  mountRoute(
    routes,
    review,
    declared.putModelSettings,
    async (c, { params: { apiVersion, model }, body }) => {
      const { version, ...input } = body;
      const result = await settings.put(
        apiVersion,
        model,
        version,
        input,
        c.get('session').operator.id,
        review.clock.now(),
      );
      if (!result.ok) {
        throw new ProblemError(
          '409-001',
          `These settings changed since you read them: they are now version ${result.current.version}${
            result.current.updatedBy?.name ? `, saved by ${result.current.updatedBy.name}` : ''
          }. Reload them to see what changed.`,
          { extensions: { current: presentSettings(result.current) } },
        );
      }
      return c.json(presentSettings(result.settings), 200);
    },
  );

  return routes;
}

export function presentSettings(s: StoredModelSettings): ModelSettings {
  return {
    apiVersion: s.apiVersion,
    model: s.modelKey,
    version: s.version,
    routing: s.routing,
    rules: s.rules,
    feedbackEnabled: s.feedbackEnabled,
    updatedAt: s.updatedAt === null ? null : new Date(s.updatedAt).toISOString(),
    updatedBy: s.updatedBy,
  };
}
