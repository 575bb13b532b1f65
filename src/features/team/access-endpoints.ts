/**
 * An operator's access (issue 21): role and deactivation, and the one-time password links
 * (packages/contract/src/review/routes/operators.ts).
 */
import { callRoute, type CallOptions } from '../../api/review/call-route';
import * as operators from '@extraction-review/contract/review/routes/operators';
import type { UpdateOperatorRequest } from '@extraction-review/contract/review/schemas';

export const updateOperatorAccess = (id: string, body: UpdateOperatorRequest, options: CallOptions = {}) =>
  callRoute(operators.updateOperator, { params: { id }, body }, options);

export const createPasswordLink = (id: string, options: CallOptions = {}) =>
  callRoute(operators.createPasswordLink, { params: { id } }, options);

export const checkPasswordLink = (token: string, options: CallOptions = {}) =>
  callRoute(operators.checkPasswordLink, { params: { token } }, options);

export const setPasswordWithLink = (token: string, password: string, options: CallOptions = {}) =>
  callRoute(operators.setPassword, { body: { token, password } }, options);
