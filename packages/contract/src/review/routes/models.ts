/**
 * Each model's routing and business rules (the handlers: server/app/review/http/model-settings-routes.ts).
 * `{model}` is URL-encoded as one segment: a v1 product `account/name/vN` is `account%2Fname%2FvN`.
 */
import { z } from 'zod';
import { ModelFields, ModelSettings, ModelSettingsRequest, ModelsResponse } from '../model-settings';
import { declareRoute } from './declare';

const V1_MODEL = /^[^/\s]+\/[^/\s]+\/v\d+$/;
const V2_MODEL = /^[^/\s]+$/;

/** A model in a path: a v2 model id, or a v1 product `account/name/vN` (404-004 otherwise). */
export const ModelParams = z
  .object({
    apiVersion: z.enum(['v2', 'v1'], { error: 'An API version is v2 or v1.' }).describe('`v2` or `v1`.'),
    model: z
      .string()
      .max(300, { error: 'A model name has at most 300 characters.' })
      .describe(
        'v2: the model id; v1: the product `account/name/vN`, URL-encoded as one segment (`mindee%2Finvoices%2Fv4`).',
      ),
  })
  .superRefine(({ apiVersion, model }, context) => {
    if (apiVersion === 'v1' && !V1_MODEL.test(model))
      context.addIssue({
        code: 'custom',
        path: ['model'],
        message: 'A v1 product is account/name/vN, URL-encoded as one segment (account%2Fname%2Fv4).',
      });
    if (apiVersion === 'v2' && !V2_MODEL.test(model))
      context.addIssue({ code: 'custom', path: ['model'], message: 'A v2 model is its id.' });
  });

const MODEL_NOTES = {
  '404-004': 'the API version is not v2 or v1, or the model is not written as that version’s are',
} as const;

export const listModels = declareRoute({
  operationId: 'listModels',
  method: 'get',
  path: '/api/review/models',
  tag: 'review',
  summary: 'Models and their rules',
  description: 'Every model (v2) or product (v1) with documents in the store or saved settings.',
  access: 'operator',
  responses: { 200: { description: 'The models, by API version and name.', schema: ModelsResponse } },
});

export const getModelSettings = declareRoute({
  operationId: 'getModelSettings',
  method: 'get',
  path: '/api/review/models/{apiVersion}/{model}/settings',
  tag: 'review',
  summary: 'A model’s routing and business rules',
  description: 'Any operator may read them: the review checks the business rules as values change.',
  access: 'operator',
  params: ModelParams,
  paramsProblem: '404-004',
  responses: {
    200: { description: 'The settings (the defaults, version 0, when never saved).', schema: ModelSettings },
  },
  notes: MODEL_NOTES,
});

export const putModelSettings = declareRoute({
  operationId: 'putModelSettings',
  method: 'put',
  path: '/api/review/models/{apiVersion}/{model}/settings',
  tag: 'review',
  summary: 'Save a model’s routing and business rules (admins)',
  description:
    'Replaces the settings, on the version read (the preset reasons and the retention only when sent: left out, they stay). The retention (`filesAfterDays`, `documentsAfterDays`: 1 to 3650 days after the decision, null for ever) is applied by the background purge to confirmed and rejected documents only. Each save is kept in the audit log (`settings_changed`).',
  access: 'admin',
  params: ModelParams,
  paramsProblem: '404-004',
  body: ModelSettingsRequest,
  responses: { 200: { description: 'The settings, saved, with their new version.', schema: ModelSettings } },
  problems: ['409-001', '422-015'],
  notes: {
    ...MODEL_NOTES,
    '409-001': 'the version sent is not the settings’ any more; `current` is the settings as they are now',
    '422-008':
      'the body does not fit: `errors[]` point into it (`#/rules/2/pattern` for a regular expression that does not compile, `#/reasons/reject/1` for a preset reason empty, too long or offered twice, `#/retention/documentsAfterDays` for a retention out of 1–3650 days or documents kept fewer days than their files)',
    '422-015':
      'a rule or a required field names a field the model’s documents do not have: `errors[]` point at each (`#/rules/0/field`, `#/routing/requiredFields/1`); checked once the model has documents or a data schema',
  },
});

export const getModelFields = declareRoute({
  operationId: 'getModelFields',
  method: 'get',
  path: '/api/review/models/{apiVersion}/{model}/fields',
  tag: 'review',
  summary: 'The field paths a model’s rules may name',
  description:
    'Every field of the model’s data schema (a v2 model’s, when the upstream offers it) and every field seen in its latest documents (their results), a list’s items written `[*]`: what the Rules page offers, and what a save is checked against.',
  access: 'operator',
  params: ModelParams,
  paramsProblem: '404-004',
  responses: { 200: { description: 'The fields, in the order first seen.', schema: ModelFields } },
  notes: MODEL_NOTES,
});

export const modelRoutes = [listModels, getModelSettings, putModelSettings, getModelFields] as const;
