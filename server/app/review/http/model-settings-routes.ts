/**
 * Each model's routing and business rules (packages/contract/src/review/model-settings.ts): the handlers of the
 * routes declared in packages/contract/src/review/routes/models.ts (any operator reads them, an admin saves them).
 *
 * `{model}` is URL-encoded as one segment: a v1 product `account/name/vN` is `account%2Fname%2FvN`.
 * Invalid rules are a 422 `422-008` whose pointers point into the body (`#/rules/2/pattern`); a
 * version that is not the settings' any more a 409 `409-001` with the settings as they are now in
 * `current`. A rule naming a field the model's documents do not have is a 422 `422-015` pointing at
 * each (issue 21), checked once the model has documents or a data schema to know its fields from
 * (a v2 model's schema, read from the upstream: `review.modelSchemas`).
 */
import { Hono } from 'hono';
import type { ModelSettings, ModelsResponse } from '@extraction-review/contract/review/model-settings';
import * as declared from '@extraction-review/contract/review/routes/models';
import { ProblemError } from '@extraction-review/contract/problem';
import { ModelSettingsStore, type StoredModelSettings } from '../store/model-settings-store';
import { isKnownPath, knownFields, type KnownFields } from '../store/known-fields';
import { mountRoute } from './mount-route';
import type { ReviewContext, ReviewEnv } from '../review-context';
import type { ApiVersion } from '../model/review-types';

export function modelSettingsRoutes(review: ReviewContext): Hono<ReviewEnv> {
  const routes = new Hono<ReviewEnv>();
  const settings = new ModelSettingsStore(review.database);
  /** The model's fields: its data schema's (v2, when the upstream has it) and its documents'. */
  const fieldsOf = async (apiVersion: ApiVersion, model: string): Promise<KnownFields> => {
    const schema = apiVersion === 'v2' && review.modelSchemas ? await review.modelSchemas(model) : null;
    return knownFields(review.database, apiVersion, model, schema);
  };
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
      const known = await fieldsOf(apiVersion, model);
      const unknown = unknownFieldPaths(known, body);
      if (unknown.length > 0) {
        throw new ProblemError(
          '422-015',
          `${unknown.length === 1 ? 'A field named here does not' : `${String(unknown.length)} fields named here do not`} exist in this model’s data schema or documents: choose among the fields offered.`,
          { errors: unknown },
        );
      }
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

  mountRoute(routes, review, declared.getModelFields, async (c, { params: { apiVersion, model } }) => {
    const known = await fieldsOf(apiVersion, model);
    return c.json(
      {
        fields: [...known.fields].map(([path, title]) => ({ path, title })),
        documentsRead: known.documentsRead,
        dataSchema: known.dataSchema,
      },
      200,
      { 'Cache-Control': 'no-store' },
    );
  });

  return routes;
}

/** Every field path of the settings the model's documents do not have, with its pointer. */
function unknownFieldPaths(
  known: KnownFields,
  body: { routing: { requiredFields: readonly string[] }; rules: readonly Record<string, unknown>[] },
): { pointer: string; detail: string }[] {
  // Nothing read yet: nothing to check against (a model's first rules may come before its documents).
  if (known.documentsRead === 0 && !known.dataSchema) return [];
  const found: { pointer: string; detail: string }[] = [];
  const check = (path: string, pointer: string) => {
    if (!isKnownPath(known, path))
      found.push({
        pointer,
        detail: `No field ${JSON.stringify(path)} in this model’s documents or data schema.`,
      });
  };
  body.routing.requiredFields.forEach((path, index) =>
    check(path, `#/routing/requiredFields/${String(index)}`),
  );
  body.rules.forEach((rule, index) => {
    const at = `#/rules/${String(index)}`;
    for (const key of ['field', 'list', 'equals', 'earlier', 'later'] as const) {
      const path = rule[key];
      if (typeof path === 'string') check(path, `${at}/${key}`);
    }
    const { terms, list, item } = rule;
    if (Array.isArray(terms))
      terms.forEach((term, t) => {
        if (typeof term === 'string') check(term, `${at}/terms/${String(t)}`);
      });
    // A sum's item field is a field of the list's items.
    if (typeof list === 'string' && typeof item === 'string' && isKnownPath(known, list))
      check(`${list}[*].${item}`, `${at}/item`);
  });
  return found;
}

export function presentSettings(s: StoredModelSettings): ModelSettings {
  return {
    apiVersion: s.apiVersion,
    model: s.modelKey,
    version: s.version,
    routing: s.routing,
    rules: s.rules,
    feedbackEnabled: s.feedbackEnabled,
    reasons: s.reasons,
    retention: s.retention,
    updatedAt: s.updatedAt === null ? null : new Date(s.updatedAt).toISOString(),
    updatedBy: s.updatedBy,
  };
}
