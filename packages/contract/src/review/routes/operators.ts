/**
 * Operators, for admins (the handlers: server/app/review/http/operator-routes.ts; the `operators` command
 * does the same from a shell).
 */
import { z } from 'zod';
import {
  MIN_PASSWORD_LENGTH,
  NewOperatorRequest,
  SetPasswordRequest,
  UpdateOperatorRequest,
} from '../schemas';
import {
  OperatorList,
  OperatorResponse,
  PasswordLinkResponse,
  PasswordLinkValid,
  PasswordSet,
} from './components';
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
  description:
    'Their sessions end with them; the documents assigned to them go back to the team. An admin cannot remove themself.',
  access: 'admin',
  params: z.object({ id: z.string().describe('The operator’s id.') }),
  responses: { 204: { description: 'Removed.' } },
  problems: ['404-012', '409-002'],
  notes: { '409-002': 'an admin cannot remove themself (no `current` here)' },
});

/** Tries of password links (checks and uses) per client address in 15 minutes (the server's limiter). */
export const PASSWORD_LINK_ATTEMPTS = 20;

export const updateOperator = declareRoute({
  operationId: 'updateOperator',
  method: 'put',
  path: '/api/operators/{id}/access',
  tag: 'operators',
  summary: 'Change an operator’s role, or deactivate or reactivate them (admins)',
  description:
    'Deactivating ends their sessions, gives the documents they hold and those assigned to them back to the queue and spends their password links; they are refused at sign-in (403-007) until reactivated. The team’s last active admin can be neither demoted nor deactivated (409-008); an admin cannot deactivate themself (409-002).',
  access: 'admin',
  params: z.object({ id: z.string().describe('The operator’s id.') }),
  body: UpdateOperatorRequest,
  responses: { 200: { description: 'The operator, changed.', schema: OperatorResponse } },
  problems: ['404-012', '409-002', '409-008'],
  notes: { '409-002': 'an admin cannot deactivate themself (no `current` here)' },
});

export const createPasswordLink = declareRoute({
  operationId: 'createPasswordLink',
  method: 'post',
  path: '/api/operators/{id}/password-link',
  tag: 'operators',
  summary: 'Make a one-time password link (admins)',
  description:
    'A link the operator opens to choose a new password: used once, valid a day; a newer link spends the older ones. Its token is shown only here (stored hashed).',
  access: 'admin',
  params: z.object({ id: z.string().describe('The operator’s id.') }),
  responses: { 201: { description: 'The link.', schema: PasswordLinkResponse } },
  problems: ['404-012', '409-002'],
  notes: { '409-002': 'the operator is deactivated: reactivate them first (no `current` here)' },
});

export const checkPasswordLink = declareRoute({
  operationId: 'checkPasswordLink',
  method: 'get',
  path: '/api/password-links/{token}',
  tag: 'operators',
  summary: 'Check a password link',
  description: `Whether the one-time password link can still be used, and for whom. Counted with its uses: ${PASSWORD_LINK_ATTEMPTS} per client address in 15 minutes.`,
  access: 'public',
  params: z.object({ token: z.string().describe('The password link’s token.') }),
  responses: { 200: { description: 'The link is valid.', schema: PasswordLinkValid } },
  problems: ['404-020', '429-002'],
});

export const setPassword = declareRoute({
  operationId: 'setPassword',
  method: 'post',
  path: '/api/password-links',
  tag: 'operators',
  summary: 'Set a password with a one-time link',
  description: `Uses up the link and sets the operator’s password; every session of theirs ends (sign in with the new password). Counted with the checks: ${PASSWORD_LINK_ATTEMPTS} per client address in 15 minutes.`,
  access: 'public',
  body: SetPasswordRequest,
  responses: { 200: { description: 'The password is set.', schema: PasswordSet } },
  problems: ['404-020', '429-002'],
  notes: { '422-008': `the body does not fit, or the password is shorter than ${MIN_PASSWORD_LENGTH}` },
});

export const operatorRoutes = [
  listOperators,
  createOperator,
  updateOperator,
  removeOperator,
  createPasswordLink,
  checkPasswordLink,
  setPassword,
] as const;
