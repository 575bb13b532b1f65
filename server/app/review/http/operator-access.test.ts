/**
 * Issue 21's sessions and operators over real HTTP, on both engines: signing out gives the documents
 * held back to the queue; an admin changes roles, deactivates (sessions end, documents released,
 * sign-in refused with 403-007) and reactivates, never leaving the team without an active admin
 * (409-008); a one-time password link (hashed at rest, used once, a day, a newer one spends the older)
 * sets a password through the public routes, whose tries are limited (429-002).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentResponse } from '@extraction-review/contract/review/schemas';
import { PASSWORD_LINK_ATTEMPTS } from '@extraction-review/contract/review/routes/operators';
import type { RunningServer } from '../../listen';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { hashPassword } from '../auth/passwords';
import { PASSWORD_LINK_TTL_MS } from '../store/password-links';
import {
  addReadyDocument,
  expectProblem,
  listenReviewApi,
  ReviewBrowser,
  TEST_PASSWORD,
} from '@extraction-review/test-kit/review/review-browser';
import { openReview, type OpenedReview } from '../open-review';

const T0 = Date.UTC(2026, 11, 7, 9, 0, 0);
const LEASE = 10 * 60_000;
const PASSWORD = TEST_PASSWORD;
const NEW_PASSWORD = 'a whole new password here';

describe.each(ENGINES)('operator access on %s', (engine) => {
  let store: TestStore;
  let review: OpenedReview;
  let server: RunningServer;
  let clock = T0;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    store = await openTestStore(engine);
    review = await openReview({ ...store.settings, leaseMs: LEASE, clock: { now: () => clock } });
    const passwordHash = await hashPassword(PASSWORD);
    for (const [name, role] of [
      ['Ada', 'admin'],
      ['Bob', 'operator'],
      ['Cy', 'operator'],
    ] as const)
      ids[name] = (await review.operators.create({ name, role, passwordHash }, clock)).id;
    server = await listenReviewApi(review);
  });
  afterAll(async () => {
    await server.close();
    await review.close();
    await store.cleanup();
  });

  async function readyDocument(fileName: string) {
    clock += 1000;
    return addReadyDocument(review, fileName, clock, { fieldsTotal: 1, fieldsToReview: 1 });
  }

  async function stateOf(browser: ReviewBrowser, id: string) {
    const read = await browser.send('GET', `/api/review/documents/${id}`);
    expect(read.status).toBe(200);
    return DocumentResponse.parse(await read.json()).document;
  }

  it('signing out gives the documents held back to the queue at once', async () => {
    const id = await readyDocument('held.pdf');
    const bob = new ReviewBrowser(server.url);
    await bob.signIn('Bob');
    expect((await bob.send('POST', `/api/review/documents/${id}/take`)).status).toBe(200);
    const cy = new ReviewBrowser(server.url);
    await cy.signIn('Cy');
    expect((await stateOf(cy, id)).state).toBe('in_review');

    expect((await bob.send('DELETE', '/api/session')).status).toBe(200);
    // Long before the lease would run out, the document is free, and the timeline says why.
    const after = await stateOf(cy, id);
    expect(after.state).toBe('to_review');
    expect(after.holder).toBeNull();
    const timeline = (await (await cy.send('GET', `/api/review/documents/${id}/timeline`)).json()) as {
      events: { kind: string; actor: { name: string | null } | null }[];
    };
    expect(timeline.events.at(-1)).toMatchObject({ kind: 'released', actor: { name: 'Bob' } });
    expect((await cy.send('POST', `/api/review/documents/${id}/take`)).status).toBe(200);
  });

  it('changes roles, and never leaves the team without an active admin', async () => {
    const ada = new ReviewBrowser(server.url);
    await ada.signIn('Ada');
    // The last admin: neither demoted nor deactivated (the latter refused for herself anyway).
    const demote = await expectProblem(
      await ada.send('PUT', `/api/operators/${ids.Ada}/access`, { role: 'operator', active: true }),
      409,
      '409-008',
    );
    expect(demote.errors).toEqual([{ pointer: '#/role', detail: expect.any(String) }]);
    await expectProblem(
      await ada.send('PUT', `/api/operators/${ids.Ada}/access`, { role: 'admin', active: false }),
      409,
      '409-002',
    );

    const promoted = await ada.send('PUT', `/api/operators/${ids.Bob}/access`, {
      role: 'admin',
      active: true,
    });
    expect(promoted.status).toBe(200);
    expect(await promoted.json()).toMatchObject({
      operator: { name: 'Bob', role: 'admin', deactivatedAt: null },
    });
    // Now another admin exists: Ada may step down, and Bob, the last one, may not.
    expect(
      (await ada.send('PUT', `/api/operators/${ids.Ada}/access`, { role: 'operator', active: true })).status,
    ).toBe(200);
    const bob = new ReviewBrowser(server.url);
    await bob.signIn('Bob');
    await expectProblem(
      await bob.send('PUT', `/api/operators/${ids.Bob}/access`, { role: 'operator', active: true }),
      409,
      '409-008',
    );
    expect(
      (await bob.send('PUT', `/api/operators/${ids.Ada}/access`, { role: 'admin', active: true })).status,
    ).toBe(200);
    // Refusals: no such operator, a body that does not fit, not an admin.
    await expectProblem(
      await bob.send('PUT', `/api/operators/nobody/access`, { role: 'admin', active: true }),
      404,
      '404-012',
    );
    await expectProblem(
      await bob.send('PUT', `/api/operators/${ids.Cy}/access`, { role: 'boss' }),
      422,
      '422-008',
    );
    const cy = new ReviewBrowser(server.url);
    await cy.signIn('Cy');
    await expectProblem(
      await cy.send('PUT', `/api/operators/${ids.Cy}/access`, { role: 'admin', active: true }),
      403,
      '403-005',
    );
    // Back as it was for the next tests.
    expect(
      (await ada.send('PUT', `/api/operators/${ids.Bob}/access`, { role: 'operator', active: true })).status,
    ).toBe(200);
  });

  it('deactivates: sessions end, documents go back, sign-in is refused; reactivated, Cy signs in again', async () => {
    const id = await readyDocument('cy-holds.pdf');
    const cy = new ReviewBrowser(server.url);
    await cy.signIn('Cy');
    expect((await cy.send('POST', `/api/review/documents/${id}/take`)).status).toBe(200);
    const ada = new ReviewBrowser(server.url);
    await ada.signIn('Ada');

    const off = await ada.send('PUT', `/api/operators/${ids.Cy}/access`, { role: 'operator', active: false });
    expect(off.status).toBe(200);
    expect(await off.json()).toMatchObject({
      operator: { name: 'Cy', deactivatedAt: new Date(clock).toISOString() },
    });
    await expectProblem(await cy.send('GET', '/api/session'), 401, '401-011');
    expect((await stateOf(ada, id)).state).toBe('to_review');
    // Refused with the right password only: a wrong one says nothing of the deactivation.
    await expectProblem(
      await new ReviewBrowser(server.url).send('POST', '/api/session', {
        name: 'Cy',
        password: 'wrong one!',
      }),
      401,
      '401-012',
    );
    await expectProblem(
      await new ReviewBrowser(server.url).send('POST', '/api/session', { name: 'Cy', password: PASSWORD }),
      403,
      '403-007',
    );
    // No password link for a deactivated operator.
    await expectProblem(await ada.send('POST', `/api/operators/${ids.Cy}/password-link`), 409, '409-002');
    const listed = (await (await ada.send('GET', '/api/operators')).json()) as {
      operators: { name: string; deactivatedAt?: string | null }[];
    };
    expect(listed.operators.find((o) => o.name === 'Cy')?.deactivatedAt).toBe(new Date(clock).toISOString());

    expect(
      (await ada.send('PUT', `/api/operators/${ids.Cy}/access`, { role: 'operator', active: true })).status,
    ).toBe(200);
    await new ReviewBrowser(server.url).signIn('Cy');
  });

  it('resets a password through a one-time link: hashed at rest, used once, replaced by a newer one, a day long', async () => {
    const ada = new ReviewBrowser(server.url);
    await ada.signIn('Ada');
    const bobsOld = new ReviewBrowser(server.url);
    await bobsOld.signIn('Bob');

    const first = await ada.send('POST', `/api/operators/${ids.Bob}/password-link`);
    expect(first.status).toBe(201);
    const { path: firstPath } = (await first.json()) as { path: string };
    const made = await ada.send('POST', `/api/operators/${ids.Bob}/password-link`);
    const { path, expiresAt } = (await made.json()) as { path: string; expiresAt: string };
    expect(path).toMatch(/^\/set-password\?token=[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(expiresAt)).toBe(clock + PASSWORD_LINK_TTL_MS);
    const token = new URLSearchParams(path.split('?')[1]).get('token') ?? '';
    const oldToken = new URLSearchParams(firstPath.split('?')[1]).get('token') ?? '';
    // Only the hash is kept.
    const stored = await review.database.db.selectFrom('password_links').select('token_hash').execute();
    expect(stored.map((row) => row.token_hash)).not.toContain(token);

    const visitor = new ReviewBrowser(server.url);
    // The newer link spent the first.
    await expectProblem(await visitor.send('GET', `/api/password-links/${oldToken}`), 404, '404-020');
    expect(await (await visitor.send('GET', `/api/password-links/${token}`)).json()).toEqual({
      valid: true,
      name: 'Bob',
    });
    // A weak password does not burn the link.
    await expectProblem(
      await visitor.send('POST', '/api/password-links', { token, password: 'short' }),
      422,
      '422-008',
    );
    const set = await visitor.send('POST', '/api/password-links', { token, password: NEW_PASSWORD });
    expect(set.status).toBe(200);
    expect(await set.json()).toEqual({ passwordSet: true });
    // Used once; Bob's sessions ended; the new password works, the old one no more.
    await expectProblem(
      await visitor.send('POST', '/api/password-links', { token, password: NEW_PASSWORD }),
      404,
      '404-020',
    );
    await expectProblem(await bobsOld.send('GET', '/api/session'), 401, '401-011');
    await expectProblem(
      await new ReviewBrowser(server.url).send('POST', '/api/session', { name: 'Bob', password: PASSWORD }),
      401,
      '401-012',
    );
    await new ReviewBrowser(server.url).signIn('Bob', NEW_PASSWORD);

    // A day later a link is spent.
    const late = (await (await ada.send('POST', `/api/operators/${ids.Cy}/password-link`)).json()) as {
      path: string;
    };
    clock += PASSWORD_LINK_TTL_MS;
    const lateToken = new URLSearchParams(late.path.split('?')[1]).get('token') ?? '';
    await expectProblem(await visitor.send('GET', `/api/password-links/${lateToken}`), 404, '404-020');
  });

  it(`limits the password links' tries to ${PASSWORD_LINK_ATTEMPTS} per address in 15 minutes`, async () => {
    // Every test's client comes from 127.0.0.1: the test before spent some of its tries already.
    const guesser = new ReviewBrowser(server.url);
    let tries = 0;
    let refused: Response | undefined;
    while (refused === undefined && tries <= PASSWORD_LINK_ATTEMPTS) {
      const answer = await guesser.send('GET', `/api/password-links/guess-${tries}`);
      tries += 1;
      if (answer.status === 429) refused = answer;
      else await expectProblem(answer, 404, '404-020');
    }
    expect(refused, 'refused within the limit').toBeDefined();
    if (refused === undefined) return;
    await expectProblem(refused, 429, '429-002');
    expect(refused.headers.get('retry-after')).toBe('900');
    // The check and the use share the count.
    await expectProblem(
      await guesser.send('POST', '/api/password-links', { token: 'guess', password: NEW_PASSWORD }),
      429,
      '429-002',
    );
  });
});
