/**
 * A model's unchecked-values gate (../unchecked-gate.ts; the handlers:
 * server/app/review/http/unchecked-gate-routes.ts). `{model}` as in models.ts: one URL-encoded segment.
 */
import { UncheckedGate, UncheckedGateRequest } from '../unchecked-gate';
import { declareRoute } from './declare';
import { ModelParams } from './models';

const MODEL_NOTES = {
  '404-004': 'the API version is not v2 or v1, or the model is not written as that version’s are',
} as const;

export const getUncheckedGate = declareRoute({
  operationId: 'getUncheckedGate',
  method: 'get',
  path: '/api/review/models/{apiVersion}/{model}/unchecked-gate',
  tag: 'review',
  summary: 'A model’s unchecked-values gate',
  description:
    'Any operator may read it: the review asks before confirming a document with unchecked values, or, strict, does not offer to confirm it.',
  access: 'operator',
  params: ModelParams,
  paramsProblem: '404-004',
  responses: {
    200: { description: 'The gate (not strict until an admin makes it so).', schema: UncheckedGate },
  },
  notes: MODEL_NOTES,
});

export const putUncheckedGate = declareRoute({
  operationId: 'putUncheckedGate',
  method: 'put',
  path: '/api/review/models/{apiVersion}/{model}/unchecked-gate',
  tag: 'review',
  summary: 'Make a model’s unchecked-values gate strict, or not (admins)',
  description: 'Each change is kept in the audit log (`settings_changed`, with `uncheckedGate`).',
  access: 'admin',
  params: ModelParams,
  paramsProblem: '404-004',
  body: UncheckedGateRequest,
  responses: { 200: { description: 'The gate, saved.', schema: UncheckedGate } },
  notes: MODEL_NOTES,
});

export const checkRoutes = [getUncheckedGate, putUncheckedGate] as const;
