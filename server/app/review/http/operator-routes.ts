/**
 * Operators, for admins (the `operators` command does the same from a shell): the handlers of the
 * routes declared in packages/contract/src/review/routes/operators.ts. An empty password makes an operator who signs
 * in only through single sign-on; an admin cannot remove themself.
 */
import { Hono } from 'hono';
import * as declared from '@extraction-review/contract/review/routes/operators';
import { ProblemError } from '@extraction-review/contract/problem';
import { checkPasswordRules, hashPassword } from '../auth/passwords';
import { DuplicateOperatorError } from '../store/operator-store';
import { presentOperator } from './present';
import { mountRoute } from './mount-route';
import type { ReviewContext, ReviewEnv } from '../review-context';

export function operatorRoutes(review: ReviewContext): Hono<ReviewEnv> {
  const routes = new Hono<ReviewEnv>();

  mountRoute(routes, review, declared.listOperators, async (c) => {
    const rows = await review.operators.listRows();
    return c.json({ operators: rows.map(presentOperator) }, 200, { 'Cache-Control': 'no-store' });
  });

  mountRoute(routes, review, declared.createOperator, async (c, { body: { name, role, password } }) => {
    let passwordHash: string | null = null;
    if (password !== '') {
      const weak = checkPasswordRules(password);
      if (weak !== undefined)
        throw new ProblemError('422-008', weak, { errors: [{ pointer: '#/password', detail: weak }] });
      passwordHash = await hashPassword(password);
    }
    try {
      const created = await review.operators.create({ name, role, passwordHash }, review.clock.now());
      const row = await review.operators.findById(created.id);
      if (row === undefined) throw new Error('the operator just created is gone');
      return c.json({ operator: presentOperator(row) }, 201);
    } catch (error) {
      if (error instanceof DuplicateOperatorError) {
        throw new ProblemError('409-003', error.message, {
          errors: [{ pointer: '#/name', detail: error.message }],
        });
      }
      throw error;
    }
  });

  mountRoute(routes, review, declared.removeOperator, async (c, { params: { id } }) => {
    if (id === c.get('session').operator.id) {
      throw new ProblemError('409-002', 'You cannot remove yourself: ask another admin.');
    }
    const row = await review.operators.findById(id);
    if (row === undefined) throw new ProblemError('404-012', 'No such operator.');
    await review.operators.remove(row.name);
    return c.body(null, 204);
  });

  return routes;
}
