/**
 * GET /v2/extensions/models/{model_id}: a model's data schema. An EXTENSION of the reference service,
 * not of the hosted API (which shows data schemas on its platform only), so that the review can offer
 * the values of a classification field (src/api/v2/model-schema.ts reads it, and resolves to null on
 * an upstream without it). Behind the key and the GET budget like every /v2 route.
 *
 *   200 { model: { id, name, data_schema: { fields: FieldSchema[] } } }
 *
 * The fields as the service reads them: the models file's, every optional member filled in
 * (models/field-schema.ts). Never the webhooks, so never a signing secret.
 */
import type { Context } from 'hono';
import { ProblemError } from '@extraction-review/contract/problem';
import type { ModelCatalog } from '../models/model-catalog';
import { uuidParam } from './identifiers';

export const MODEL_SCHEMA_ROUTE = '/extensions/models/:model_id';

export function modelSchemaHandler(deps: { models: ModelCatalog }) {
  return (c: Context): Response => {
    const id = uuidParam('model_id', c.req.param('model_id') ?? '');
    const model = deps.models.find(id);
    if (!model) throw new ProblemError('404-004', `No model has the id ${id}.`);
    return c.json({ model: { id: model.id, name: model.name, data_schema: model.data_schema } });
  };
}
