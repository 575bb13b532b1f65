/**
 * A model's data schema: `GET /v2/extensions/models/{model_id}`, an extension of the reference service
 * (docs/reference-service.md), not of the hosted API, which has no endpoint for it. The review uses it
 * to offer the values of a classification field, and to title fields.
 *
 * On an upstream without the extension (the hosted service answers 404), the schema is `null`: the
 * review then does without, rather than failing.
 *
 * Read liberally like every response (docs/decisions/0003): defaults for the optional members, any
 * field `type` accepted (a type the service adds tomorrow must not hide the whole schema).
 */
import { queryOptions } from '@tanstack/react-query';
import { ApiError, SchemaMismatchError } from '../errors';
import { api, segment } from '../http';
import type { CallOptions } from './endpoints';
import {
  ModelSchemaResponse,
  type ModelSchema,
  type ModelSchemaField,
  type ModelSchemaSubField,
} from '@extraction-review/contract/v2/model-schema';

export * from '@extraction-review/contract/v2/model-schema';

/** Under modelKeys.all (`['v2', 'models']`), so invalidating the models reaches the schemas too. */
export const modelSchemaKey = (modelId: string) => ['v2', 'models', modelId, 'schema'] as const;

/** Statuses of an upstream that does not offer the extension. */
const NOT_OFFERED = new Set([404, 405, 501]);

/**
 * The model's data schema, or `null` when the upstream does not offer it (a 404: the hosted service, or
 * a model it does not know). Other failures throw, as any call does (http.ts).
 */
export async function getModelSchema(
  modelId: string,
  { signal, client = api }: CallOptions = {},
): Promise<ModelSchema | null> {
  try {
    const { model } = await client.request({
      method: 'GET',
      path: `/v2/extensions/models/${segment(modelId, 'model id')}`,
      schema: ModelSchemaResponse,
      signal,
    });
    return model;
  } catch (error) {
    if (
      error instanceof ApiError &&
      !(error instanceof SchemaMismatchError) &&
      error.status !== undefined &&
      NOT_OFFERED.has(error.status)
    )
      return null;
    throw error;
  }
}

/** A model's schema changes only when its models file does: kept for the session. */
export function modelSchemaQueryOptions(modelId: string) {
  return queryOptions({
    queryKey: modelSchemaKey(modelId),
    queryFn: ({ signal }) => getModelSchema(modelId, { signal }),
    staleTime: Infinity,
  });
}

/**
 * The schema of the field at `path`: `['document_type']` for a top-level field, `['supplier_address',
 * 'country']` for a sub-field of a nested object (list indices left out). Undefined when there is none.
 */
export function fieldSchemaAt(
  schema: ModelSchema,
  path: readonly string[],
): ModelSchemaField | ModelSchemaSubField | undefined {
  const [name, subName, ...rest] = path;
  if (name === undefined || rest.length > 0) return undefined;
  const field = schema.data_schema.fields.find((f) => f.name === name);
  if (subName === undefined) return field;
  return field?.nested_fields.find((f) => f.name === subName);
}
