/**
 * Each model's routing and business rules (src/api/review/model-settings.ts; every route needs a
 * session, the PUT an admin and the CSRF token):
 *
 *   GET /api/review/models                                 → { models } seen in the store or configured
 *   GET /api/review/models/{apiVersion}/{model}/settings   → ModelSettings (any operator: the review
 *                                                            checks the rules)
 *   PUT /api/review/models/{apiVersion}/{model}/settings   { version, routing, rules, feedbackEnabled }
 *
 * `{model}` is URL-encoded as one segment: a v1 product `account/name/vN` is `account%2Fname%2FvN`.
 * Invalid rules are a 422 `422-008` whose pointers point into the body (`#/rules/2/pattern`); a
 * version that is not the settings' any more a 409 `409-001` with the settings as they are now in
 * `current`.
 */
import { Hono, type Context } from 'hono';
import {
  ModelSettingsRequest,
  type ModelSettings,
  type ModelsResponse,
} from '../../../src/api/review/model-settings';
import { ApiVersion } from '../../../src/api/review/schemas';
import { ProblemError } from '../../shared/problem';
import { ModelSettingsStore, type StoredModelSettings } from '../store/model-settings-store';
import { readBody } from './read-body';
import type { ReviewContext, ReviewEnv } from './review-context';
import { requireAdmin, requireSession } from './session-auth';

const V1_MODEL = /^[^/\s]+\/[^/\s]+\/v\d+$/;
const V2_MODEL = /^[^/\s]+$/;

export function modelSettingsRoutes(review: ReviewContext): Hono<ReviewEnv> {
  const routes = new Hono<ReviewEnv>();
  const settings = new ModelSettingsStore(review.database);
  // Each route checks the session itself: a `use('*')` here would run for every /api/review route.
  const signedIn = requireSession(review);

  routes.get('/models', signedIn, async (c) => {
    const body: ModelsResponse = {
      models: (await settings.list()).map((s) => ({ ...presentSettings(s), documents: s.documents })),
    };
    return c.json(body, 200, { 'Cache-Control': 'no-store' });
  });

  routes.get('/models/:apiVersion/:model/settings', signedIn, async (c) => {
    const { apiVersion, model } = modelOf(c);
    return c.json(presentSettings(await settings.get(apiVersion, model)), 200, {
      'Cache-Control': 'no-store',
    });
  });

  routes.put('/models/:apiVersion/:model/settings', signedIn, requireAdmin(), async (c) => {
    const { apiVersion, model } = modelOf(c);
    const { version, ...input } = await readBody(c, ModelSettingsRequest);
    const result = await settings.put(
      apiVersion,
      model,
      version,
      input,
      c.get('session').operator.id,
      review.now(),
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
  });

  return routes;
}

function modelOf(c: Context): { apiVersion: ApiVersion; model: string } {
  const apiVersion = ApiVersion.safeParse(c.req.param('apiVersion'));
  const model = c.req.param('model') ?? '';
  if (!apiVersion.success) throw new ProblemError('404-004', 'An API version is v2 or v1.');
  const fits = apiVersion.data === 'v1' ? V1_MODEL.test(model) : V2_MODEL.test(model);
  if (!fits || model.length > 300) {
    throw new ProblemError(
      '404-004',
      apiVersion.data === 'v1'
        ? 'A v1 product is account/name/vN, URL-encoded as one segment (account%2Fname%2Fv4).'
        : 'A v2 model is its id.',
    );
  }
  return { apiVersion: apiVersion.data, model };
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
