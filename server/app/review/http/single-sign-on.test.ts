/**
 * Single sign-on behind a company proxy, on both engines: the header naming the person opens a
 * session (cookie and CSRF token, as a password sign-in does) only when it comes from a trusted proxy
 * and names an operator; from anybody else it is ignored. A client that sends no cookie (issue 18:
 * 200 requests made 200 sessions) is given the session it has already, per person and User-Agent,
 * and the sessions of one person are capped (MAX_SESSIONS_PER_OPERATOR), whatever the agents.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionResponse } from '@extraction-review/contract/review/schemas';
import { createApp } from '../../create-app';
import { listen, type RunningServer } from '../../listen';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { MAX_SESSIONS_PER_OPERATOR } from '../store/session-store';
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

  /** The rows of carol's sessions. */
  async function carolsSessions(review: OpenedReview): Promise<number> {
    const carol = await review.operators.findByName('carol@example.com');
    const row = await review.database.db
      .selectFrom('sessions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('operator_id', '=', carol?.id ?? '')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async function endCarolsSessions(review: OpenedReview): Promise<void> {
    const carol = await review.operators.findByName('carol@example.com');
    await review.sessions.deleteAllOf(carol?.id ?? '');
  }

  const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36';
  const cookieOf = (response: Response): string =>
    (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';

  it('gives a client without cookies one session, however many requests it makes', async () => {
    const server = await serverTrusting(['loopback']);
    const review = reviews.at(-1) as OpenedReview;
    await endCarolsSessions(review);
    const ask = () =>
      fetch(`${server.url}/api/session`, {
        headers: { 'X-Forwarded-Email': 'carol@example.com', 'User-Agent': BROWSER },
      });

    // 200 one after the other, then 200 at once: the same session, its cookie set again each time.
    const answers: Response[] = [];
    for (let i = 0; i < 200; i++) answers.push(await ask());
    answers.push(...(await Promise.all(Array.from({ length: 200 }, ask))));
    expect(answers.every((response) => response.status === 200)).toBe(true);
    const cookies = new Set(answers.map(cookieOf));
    const csrfTokens = new Set(
      await Promise.all(answers.map(async (r) => SessionResponse.parse(await r.json()).csrfToken)),
    );
    expect(cookies.size).toBe(1);
    expect(csrfTokens.size).toBe(1);
    expect(await carolsSessions(review)).toBe(1);

    // The cookie the answers set works alone, and a change with its CSRF token is taken.
    const [cookie = ''] = cookies;
    const [csrfToken = ''] = csrfTokens;
    const next = await fetch(`${server.url}/api/review/next`, {
      method: 'POST',
      headers: { Cookie: cookie, 'X-CSRF-Token': csrfToken },
    });
    expect(next.status).toBe(204);

    // Signed out: the next request without a cookie opens a new session, and that one is kept.
    const signedOut = await fetch(`${server.url}/api/session`, {
      method: 'DELETE',
      headers: { Cookie: cookie, 'X-CSRF-Token': csrfToken, Origin: server.url },
    });
    expect(signedOut.status).toBe(200);
    const after = await ask();
    expect(after.status).toBe(200);
    expect(cookieOf(after)).not.toBe(cookie);
    expect(cookieOf(await ask())).toBe(cookieOf(after));
    expect(await carolsSessions(review)).toBe(1);
  });

  it('caps one person’s sessions, whatever User-Agent each request claims', async () => {
    const server = await serverTrusting(['loopback']);
    const review = reviews.at(-1) as OpenedReview;
    await endCarolsSessions(review);
    for (let i = 0; i < 200; i++) {
      const response = await fetch(`${server.url}/api/session`, {
        headers: { 'X-Forwarded-Email': 'carol@example.com', 'User-Agent': `${BROWSER} probe/${i}` },
      });
      expect(response.status).toBe(200);
    }
    expect(await carolsSessions(review)).toBe(MAX_SESSIONS_PER_OPERATOR);

    // The most recent ones are kept: the last agent's session is still given again.
    const last = await fetch(`${server.url}/api/session`, {
      headers: { 'X-Forwarded-Email': 'carol@example.com', 'User-Agent': `${BROWSER} probe/199` },
    });
    expect(last.status).toBe(200);
    expect(await carolsSessions(review)).toBe(MAX_SESSIONS_PER_OPERATOR);
  });

  it('caps password sessions too: the least recently used end first', async () => {
    const review = reviews.at(-1) as OpenedReview;
    const carol = await review.operators.findByName('carol@example.com');
    if (carol === undefined) throw new Error('no carol');
    await endCarolsSessions(review);
    const start = Date.now();
    const tokens: string[] = [];
    for (let i = 0; i < MAX_SESSIONS_PER_OPERATOR + 5; i++)
      tokens.push((await review.sessions.create(carol.id, start + i * 1000)).token);
    expect(await carolsSessions(review)).toBe(MAX_SESSIONS_PER_OPERATOR);
    const now = start + 60_000;
    expect(await review.sessions.find(tokens[0] ?? '', now)).toBeUndefined();
    expect(await review.sessions.find(tokens[4] ?? '', now)).toBeUndefined();
    expect(await review.sessions.find(tokens[5] ?? '', now)).toBeDefined();
    expect(await review.sessions.find(tokens.at(-1) ?? '', now)).toBeDefined();
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
