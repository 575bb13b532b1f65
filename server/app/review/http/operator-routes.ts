/**
 * Operators, for admins (the `operators` command does the same from a shell): the handlers of the
 * routes declared in packages/contract/src/review/routes/operators.ts. An empty password makes an operator who signs
 * in only through single sign-on; an admin cannot remove themself.
 *
 * Issue 21: an admin changes a role, deactivates or reactivates an operator (never leaving the team
 * without an active admin: 409-008), and resets a password with a one-time link (password-links.ts)
 * that the operator opens at `/set-password?token=…`. The link's routes are public, so their tries
 * are limited per client address (429-002), counted in the review store so that every copy sees them
 * (request-limits.ts): a token cannot be guessed anyway (256 bits), but a flood of Argon2id hashes
 * would cost the server.
 */
const linkSpent = () =>
  new ProblemError(
    '404-020',
    'This password link was used already, has expired, or was replaced by a newer one. Ask an admin for a new link.',
  );
import { Hono } from 'hono';
import * as declared from '@extraction-review/contract/review/routes/operators';
import { ProblemError } from '@extraction-review/contract/problem';
import { passwordLinkTriesLimit } from './request-limits';
import { checkPasswordRules, hashPassword } from '../auth/passwords';
import { DuplicateOperatorError, OperatorAccess } from '../store/operator-store';
import { PasswordLinks } from '../store/password-links';
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
    // Their assignments go back to the team first, each with its event and queue message (the foreign
    // key would clear them too, silently).
    await review.queue.unassignAllFrom(id, c.get('session').operator.id, review.clock.now());
    await review.operators.remove(row.name);
    return c.body(null, 204);
  });

  const access = new OperatorAccess(review.database);
  const links = new PasswordLinks(review.database);

  mountRoute(routes, review, declared.updateOperator, async (c, { params: { id }, body }) => {
    const me = c.get('session').operator.id;
    if (id === me && !body.active) {
      throw new ProblemError('409-002', 'You cannot deactivate yourself: ask another admin.');
    }
    const now = review.clock.now();
    const changed = await access.change(id, body, now);
    if (!changed.ok) {
      if (changed.reason === 'not-found') throw new ProblemError('404-012', 'No such operator.');
      throw new ProblemError(
        '409-008',
        'This is the team’s last active admin: make another operator an admin first.',
        {
          errors: [
            { pointer: body.active ? '#/role' : '#/active', detail: 'The team needs an active admin.' },
          ],
        },
      );
    }
    if (changed.row.deactivated_at !== null) {
      // Deactivated: signed out everywhere, their documents back to the team, their links spent.
      await review.sessions.deleteAllOf(id);
      await review.queue.releaseAllHeldBy(id, now);
      await review.queue.unassignAllFrom(id, me, now);
      await links.spendAll(id, now);
    }
    return c.json({ operator: presentOperator(changed.row) }, 200);
  });

  mountRoute(routes, review, declared.createPasswordLink, async (c, { params: { id } }) => {
    const row = await review.operators.findById(id);
    if (row === undefined) throw new ProblemError('404-012', 'No such operator.');
    if (row.deactivated_at !== null) {
      throw new ProblemError('409-002', `${row.name} is deactivated: reactivate them first.`);
    }
    const made = await links.create(id, c.get('session').operator.id, review.clock.now());
    return c.json(
      {
        path: `/set-password?${new URLSearchParams({ token: made.token }).toString()}`,
        expiresAt: new Date(made.expiresAt).toISOString(),
      },
      201,
      { 'Cache-Control': 'no-store' },
    );
  });

  const limited = { before: [passwordLinkTriesLimit(review)] };

  mountRoute(
    routes,
    review,
    declared.checkPasswordLink,
    async (c, { params: { token } }) => {
      const link = await links.check(token, review.clock.now());
      if (link === undefined) throw linkSpent();
      return c.json({ valid: true, name: link.name }, 200, { 'Cache-Control': 'no-store' });
    },
    limited,
  );

  mountRoute(
    routes,
    review,
    declared.setPassword,
    async (c, { body: { token, password } }) => {
      // The link checked first, and spent only with a password that passes: a weak one never burns it.
      if ((await links.check(token, review.clock.now())) === undefined) throw linkSpent();
      const weak = checkPasswordRules(password);
      if (weak !== undefined) {
        throw new ProblemError('422-008', weak, { errors: [{ pointer: '#/password', detail: weak }] });
      }
      const used = await links.use(token, await hashPassword(password), review.clock.now());
      if (!used.ok) throw linkSpent();
      return c.json({ passwordSet: true }, 200, { 'Cache-Control': 'no-store' });
    },
    limited,
  );

  return routes;
}
