/**
 * Operators, for admins (the handlers: server/app/review/http/operator-routes.ts; the `operators` command
 * does the same from a shell).
 */
import { z } from 'zod';
import { MIN_PASSWORD_LENGTH, NewOperatorRequest } from '../schemas';
import { OperatorList, OperatorResponse } from './components';
import { declareRoute } from './declare';

export const listOperators = declareRoute({
  operationId: 'listOperators',
  method: 'get',
  path: '/api/operators',
  tag: 'operators',
  summary: 'List operators (admins)',
  access: 'admin',
  responses: { 200: { description: 'Every operator.', schema: OperatorList } },
});

export const createOperator = declareRoute({
  operationId: 'createOperator',
  method: 'post',
  path: '/api/operators',
  tag: 'operators',
  summary: 'Add an operator (admins)',
  access: 'admin',
  body: NewOperatorRequest,
  responses: { 201: { description: 'The operator, created.', schema: OperatorResponse } },
  problems: ['409-003'],
  notes: {
    '422-008': `the body does not fit, or the password is not empty and shorter than ${MIN_PASSWORD_LENGTH}`,
  },
});

export const removeOperator = declareRoute({
  operationId: 'removeOperator',
  method: 'delete',
  path: '/api/operators/{id}',
  tag: 'operators',
  summary: 'Remove an operator (admins)',
  description: 'Their sessions end with them. An admin cannot remove themself.',
  access: 'admin',
  params: z.object({ id: z.string().describe('The operator’s id.') }),
  responses: { 204: { description: 'Removed.' } },
  problems: ['404-012', '409-002'],
  notes: { '409-002': 'an admin cannot remove themself (no `current` here)' },
});

export const operatorRoutes = [listOperators, createOperator, removeOperator] as const;
