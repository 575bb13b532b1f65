/**
 * The v2 models' data schemas, as the rules' known fields read them (review/store/known-fields.ts):
 * from the upstream's extension (`V2Upstream.getModelSchema`), kept for a while per model, since a
 * model's schema changes only when the service's models do. An upstream that does not answer (down,
 * slow, a body of another shape) gives no schema this time, logged, and is asked again next time: the
 * fields then come from the documents alone, as before.
 */
import type { Clock } from '@extraction-review/server-kit/clock';
import type { ModelSchemaField } from '@extraction-review/contract/v2/model-schema';
import type { V2Upstream } from './v2-upstream';
import { componentLogger } from '@extraction-review/server-kit/logger';

const logger = componentLogger('model schemas');

/** A model's schema fields, or null when it has none known. */
export type ModelSchemaReader = (modelId: string) => Promise<readonly ModelSchemaField[] | null>;

export interface ModelSchemaCacheOptions {
  clock: Clock;
  /** How long an answer (a schema, or "none") is kept. Default 5 minutes. */
  ttlMs?: number;
  /** How many models are kept at most (the oldest answer goes first). Default 200. */
  max?: number;
  /** How long one read may take before the fields do without it. Default 5 s. */
  timeoutMs?: number;
}

export function cachedModelSchemas(
  v2: Pick<V2Upstream, 'getModelSchema'>,
  { clock, ttlMs = 5 * 60_000, max = 200, timeoutMs = 5_000 }: ModelSchemaCacheOptions,
): ModelSchemaReader {
  const kept = new Map<string, { at: number; fields: readonly ModelSchemaField[] | null }>();
  return async (modelId) => {
    const now = clock.now();
    const hit = kept.get(modelId);
    if (hit !== undefined && now - hit.at < ttlMs) return hit.fields;
    let fields: readonly ModelSchemaField[] | null;
    try {
      fields = (await v2.getModelSchema(modelId, { timeoutMs }))?.data_schema.fields ?? null;
    } catch (error) {
      logger.warn({ err: error, model_id: modelId }, 'a model read without its data schema');
      return hit?.fields ?? null;
    }
    kept.delete(modelId);
    kept.set(modelId, { at: now, fields });
    while (kept.size > max) {
      const oldest = kept.keys().next().value;
      if (oldest === undefined) break;
      kept.delete(oldest);
    }
    return fields;
  };
}
