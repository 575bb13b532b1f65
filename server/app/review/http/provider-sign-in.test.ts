/**
 * Signing in with an OpenID Connect provider, end to end against a real one on 127.0.0.1
 * (test-kit/oidc-test-provider.ts), on both engines: the first sign-in makes the operator with the
 * claimed role, the next ones find it by its identity and follow the claim; a wrong state or nonce, a
 * way back without the browser's cookie, a deactivated operator, a person nobody added are refused;
 * PASSWORD_SIGNIN=false refuses passwords; a provider that cannot be reached is a 502-004.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ProviderSignInStart,
  SessionResponse,
  SignInOptions,
} from '@extraction-review/contract/review/schemas';
import { startTestProvider, type TestProvider } from '@extraction-review/test-kit/oidc-test-provider';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { captureLogs } from '@extraction-review/test-kit/log-capture';
import { createApp } from '../../create-app';
import { listen, type RunningServer } from '../../listen';
import { openReview, type OpenedReview, type ReviewSettings } from '../open-review';
import { OperatorAccess } from '../store/operator-store';
import {
  OIDC_STATE_COOKIE,
  openPendingSignIn,
  sealPendingSignIn,
  stateCookieKey,
} from '../auth/oidc-state-cookie';
import { mountReview } from './mount-review';

const cookieNamed = (response: Response, name: string): string | undefined =>
  response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0] ?? '')
    .find((pair) => pair.startsWith(`${name}=`));

describe.each(ENGINES)('sign-in with an OpenID Connect provider on %s', (engine) => {
  let store: TestStore;
  let provider: TestProvider;
  const reviews: OpenedReview[] = [];
  const servers: RunningServer[] = [];
  /** Auto-creating, roles from `groups`; and one that does neither, with passwords off. */
  let app: RunningServer;
  let review: OpenedReview;
  let strict: RunningServer;

  async function serve(settings: Partial<ReviewSettings>): Promise<[RunningServer, OpenedReview]> {
    const opened = await openReview({ ...store.settings, ...settings });
    reviews.push(opened);
    const server = await listen(createApp({ upstream: {}, staticDir: null, review: mountReview(opened) }), {
      host: '127.0.0.1',
      port: 0,
    });
    servers.push(server);
    return [server, opened];
  }

  const oidc = (overrides: object) => ({
    issuer: provider.issuer,
    clientId: provider.clientId,
    clientSecret: provider.clientSecret,
    name: 'Test IdP',
    autoCreate: true,
    roleClaim: 'groups',
    adminValues: ['review-admins'],
    ...overrides,
  });

  beforeAll(async () => {
    store = await openTestStore(engine);
    provider = await startTestProvider({
      accounts: {
        'sub-ada': { email: 'ada@example.com', email_verified: true, groups: ['review-admins', 'staff'] },
        'sub-bob': { email: 'bob@example.com', email_verified: true, groups: ['staff'] },
        'sub-eve': { preferred_username: 'eve', groups: [] },
      },
    });
    [app, review] = await serve({ oidc: oidc({}) });
    [strict] = await serve({
      oidc: oidc({ autoCreate: false, roleClaim: undefined }),
      passwordSignIn: false,
    });
    provider.allowRedirectUri(`${app.url}/sign-in`);
    provider.allowRedirectUri(`${strict.url}/sign-in`);
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    for (const opened of reviews) await opened.close();
    await provider?.close();
    await store.cleanup();
  });

  /** Starts a sign-in at the app: the provider's URL and the browser's `er_oidc` cookie. */
  async function start(server: RunningServer) {
    const response = await fetch(`${server.url}/api/session/provider`, {
      method: 'POST',
      headers: { Origin: server.url },
    });
    expect(response.status).toBe(200);
    const { authorizationUrl } = ProviderSignInStart.parse(await response.json());
    const cookie = cookieNamed(response, OIDC_STATE_COOKIE);
    if (cookie === undefined) throw new Error('no er_oidc cookie');
    return { authorizationUrl, cookie };
  }

  function finish(server: RunningServer, callback: string, cookie: string | undefined) {
    return fetch(`${server.url}/api/session/provider/callback`, {
      method: 'POST',
      headers: {
        Origin: server.url,
        'Content-Type': 'application/json',
        ...(cookie === undefined ? {} : { Cookie: cookie }),
      },
      body: JSON.stringify({ callback }),
    });
  }

  /** The whole way: start, the provider signs `subject` in, back with its answer. */
  async function signIn(server: RunningServer, subject: string): Promise<Response> {
    provider.signInAs(subject);
    const { authorizationUrl, cookie } = await start(server);
    const callback = await provider.authorize(authorizationUrl, `${server.url}/sign-in`);
    return finish(server, callback, cookie);
  }

  async function problemOf(response: Response) {
    return (await response.json()) as { code: string; title: string; detail: string };
  }

  it('creates the operator at the first sign-in with the claimed role, then finds it again', async () => {
    const first = await signIn(app, 'sub-ada');
    expect(first.status).toBe(200);
    expect(cookieNamed(first, 'er_session')).toBeDefined();
    const session = SessionResponse.parse(await first.json());
    expect(session.operator).toMatchObject({ name: 'ada@example.com', role: 'admin', hasPassword: false });

    // The session works as a password's: the cookie and its CSRF token.
    const who = await fetch(`${app.url}/api/session`, {
      headers: { Cookie: cookieNamed(first, 'er_session') ?? '' },
    });
    expect(SessionResponse.parse(await who.json()).operator.id).toBe(session.operator.id);

    // A second sign-in reuses the operator, even under another e-mail. The claim no longer makes her
    // an admin, but she is the last one: never demoted that way (OperatorAccess).
    const operatorsBefore = await review.operators.count();
    provider.accounts.set('sub-ada', { email: 'ada.l@example.com', email_verified: true, groups: ['staff'] });
    const second = await signIn(app, 'sub-ada');
    expect(second.status).toBe(200);
    const again = SessionResponse.parse(await second.json());
    expect(again.operator).toMatchObject({ id: session.operator.id, name: 'ada@example.com', role: 'admin' });
    expect(await review.operators.count()).toBe(operatorsBefore);

    // The role follows the claim at every sign-in, both ways.
    const roleOfBob = async () => SessionResponse.parse(await (await signIn(app, 'sub-bob')).json()).operator;
    expect(await roleOfBob()).toMatchObject({ name: 'bob@example.com', role: 'operator' });
    provider.accounts.set('sub-bob', {
      email: 'bob@example.com',
      email_verified: true,
      groups: ['review-admins'],
    });
    expect((await roleOfBob()).role).toBe('admin');
    provider.accounts.set('sub-bob', { email: 'bob@example.com', email_verified: true, groups: ['staff'] });
    expect((await roleOfBob()).role).toBe('operator');
  });

  it('refuses a wrong state, a wrong nonce, and a way back without the cookie', async () => {
    provider.signInAs('sub-bob');
    const logs = captureLogs();
    try {
      const wrongState = await start(app);
      const answer = await provider.authorize(wrongState.authorizationUrl, `${app.url}/sign-in`);
      const altered = answer.replace(/state=[^&]+/, 'state=not-the-one');
      const refused = await finish(app, altered, wrongState.cookie);
      expect(refused.status).toBe(401);
      expect(await problemOf(refused)).toMatchObject({ code: '401-015', title: 'Provider sign-in refused' });

      // The same state, a nonce the ID token does not carry (a cookie signed with the key, as only
      // the app can): refused by the ID token's check.
      const wrongNonce = await start(app);
      const nonceAnswer = await provider.authorize(wrongNonce.authorizationUrl, `${app.url}/sign-in`);
      const key = stateCookieKey(provider.clientSecret);
      const sealed = wrongNonce.cookie.slice(OIDC_STATE_COOKIE.length + 1);
      const pending = openPendingSignIn(sealed, key, Date.now());
      if (pending === undefined) throw new Error('the cookie did not open');
      const forged = `${OIDC_STATE_COOKIE}=${sealPendingSignIn({ ...pending, nonce: 'another-nonce' }, key)}`;
      const nonceRefused = await finish(app, nonceAnswer, forged);
      expect(nonceRefused.status).toBe(401);
      expect(await problemOf(nonceRefused)).toMatchObject({
        code: '401-015',
        detail: expect.stringMatching(/nonce/),
      });

      const noCookie = await start(app);
      const lost = await finish(
        app,
        await provider.authorize(noCookie.authorizationUrl, `${app.url}/sign-in`),
        undefined,
      );
      expect(lost.status).toBe(401);
      expect((await problemOf(lost)).code).toBe('401-017');

      // Neither the codes nor the tokens are ever logged.
      const code = new URLSearchParams(nonceAnswer).get('code') ?? 'missing';
      expect(JSON.stringify(logs.records())).not.toContain(code);
    } finally {
      logs.restore();
    }
  });

  it('refuses a deactivated operator', async () => {
    const bob = await review.operators.findByName('bob@example.com');
    if (bob === undefined) throw new Error('no bob');
    await new OperatorAccess(review.database).change(bob.id, { active: false }, Date.now());
    const refused = await signIn(app, 'sub-bob');
    expect(refused.status).toBe(403);
    expect((await problemOf(refused)).code).toBe('403-007');
    await new OperatorAccess(review.database).change(bob.id, { active: true }, Date.now());
  });

  it('without auto-creation, links an operator an admin added and refuses anybody else', async () => {
    const nobody = await signIn(strict, 'sub-eve');
    expect(nobody.status).toBe(401);
    expect(await problemOf(nobody)).toMatchObject({ code: '401-016' });

    await review.operators.create({ name: 'Eve', role: 'operator', passwordHash: null }, Date.now());
    const linked = await signIn(strict, 'sub-eve');
    expect(linked.status).toBe(200);
    expect(SessionResponse.parse(await linked.json()).operator.name).toBe('Eve');
  });

  it('with PASSWORD_SIGNIN=false, refuses a password and says so to the sign-in page', async () => {
    const options = SignInOptions.parse(await (await fetch(`${strict.url}/api/session/options`)).json());
    expect(options).toEqual({ passwordSignIn: false, provider: { name: 'Test IdP' } });
    const refused = await fetch(`${strict.url}/api/session`, {
      method: 'POST',
      headers: { Origin: strict.url, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Eve', password: 'correct horse battery staple' }),
    });
    expect(refused.status).toBe(403);
    expect((await problemOf(refused)).code).toBe('403-008');
  });

  it('answers 502-004 when the provider cannot be reached', async () => {
    const closed = await startTestProvider({ accounts: {} });
    const issuer = closed.issuer;
    await closed.close();
    const [away] = await serve({ oidc: oidc({ issuer }) });
    const logs = captureLogs();
    try {
      const response = await fetch(`${away.url}/api/session/provider`, {
        method: 'POST',
        headers: { Origin: away.url },
      });
      expect(response.status).toBe(502);
      expect((await problemOf(response)).code).toBe('502-004');
      expect(JSON.stringify(logs.records())).toContain('discovery failed');
    } finally {
      logs.restore();
    }
  });
});
