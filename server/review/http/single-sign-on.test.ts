/**
 * Single sign-on behind a company proxy, on both engines: the header naming the person opens a
 * session (cookie and CSRF token, as a password sign-in does) only when it comes from a trusted proxy
 * and names an operator; from anybody else it is ignored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionResponse } from '../../../src/api/review/schemas';
import { createApp } from '../../app/create-app';
import { listen, type RunningServer } from '../../app/listen';
import { ENGINES, openTestStore, type TestStore } from '../db/test-stores';
import { openReview, type OpenedReview } from '../open-review';
import { mountReview } from './mount-review';

describe.each(ENGINES)('single sign-on on %s', (engine) => {
  let store: TestStore;
  const reviews: OpenedReview[] = [];
  const servers: RunningServer[] = [];

  beforeAll(async () => {
    store = await openTestStore(engine);
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    for (const review of reviews) await review.close();
    await store.cleanup();
  });

  async function serverTrusting(trustedProxies: string[]): Promise<RunningServer> {
    const review = await openReview({
      ...store.settings,
      sso: { header: 'X-Forwarded-Email', trustedProxies },
    });
    reviews.push(review);
    if ((await review.operators.findByName('carol@example.com')) === undefined) {
      await review.operators.create(
        { name: 'carol@example.com', role: 'operator', passwordHash: null },
        Date.now(),
      );
    }
    const server = await listen(createApp({ upstream: {}, staticDir: null, review: mountReview(review) }), {
      host: '127.0.0.1',
      port: 0,
    });
    servers.push(server);
    return server;
  }

  it('opens a session for the operator the trusted proxy names', async () => {
    const server = await serverTrusting(['loopback']);
    const response = await fetch(`${server.url}/api/session`, {
      headers: { 'X-Forwarded-Email': 'Carol@Example.com' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('set-cookie')).toMatch(/^er_session=.+HttpOnly/i);
    const session = SessionResponse.parse(await response.json());
    expect(session.operator).toMatchObject({
      name: 'carol@example.com',
      role: 'operator',
      hasPassword: false,
    });

    // The cookie then works alone, and a change needs the CSRF token as usual.
    const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const next = await fetch(`${server.url}/api/review/next`, {
      method: 'POST',
      headers: { Cookie: cookie },
    });
    expect(next.status).toBe(403);
    const withToken = await fetch(`${server.url}/api/review/next`, {
      method: 'POST',
      headers: { Cookie: cookie, 'X-CSRF-Token': session.csrfToken },
    });
    expect(withToken.status).toBe(204);

    // Another person behind the proxy at the same browser is not the cookie's operator.
    const other = await fetch(`${server.url}/api/session`, {
      headers: { Cookie: cookie, 'X-Forwarded-Email': 'dave@example.com' },
    });
    expect(other.status).toBe(401);

    // A name that is no operator here signs nobody in.
    const unknown = await fetch(`${server.url}/api/session`, {
      headers: { 'X-Forwarded-Email': 'mallory@example.com' },
    });
    expect(unknown.status).toBe(401);
  });

  it('ignores the header from a peer that is not a trusted proxy', async () => {
    const server = await serverTrusting(['10.0.0.0/8']);
    const response = await fetch(`${server.url}/api/session`, {
      headers: { 'X-Forwarded-Email': 'carol@example.com' },
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('set-cookie')).toBeNull();
  });
});
