/**
 * For the review API's tests over real HTTP: the app server over an opened review store, listening on
 * 127.0.0.1 at a free port with no upstream, and a browser's side of it (one session cookie, the CSRF
 * token of its sign-in, the Origin and Sec-Fetch-Site a browser sends), with the problem-details check
 * every refusal is held to. Four API test files each wrote these out.
 */
import { expect } from 'vitest';
import { SessionResponse } from '@extraction-review/contract/review/schemas';
import { ErrorResponse } from '@extraction-review/contract/v2/schemas';
import { createApp } from '@extraction-review/app-server/create-app';
import { listen, type RunningServer } from '@extraction-review/app-server/listen';
import { hashPassword } from '@extraction-review/app-server/review/auth/passwords';
import { mountReview } from '@extraction-review/app-server/review/http/mount-review';
import type { Engine } from '@extraction-review/app-server/review/db/migrations';
import { openReview, type OpenedReview } from '@extraction-review/app-server/review/open-review';
import { openTestStore, type TestStore } from './test-stores';

/** The password the tests' operators are created with. */
export const TEST_PASSWORD = 'correct horse battery staple';

/** The review API alone (no upstream, no static files) over `review`. */
export function listenReviewApi(review: OpenedReview): Promise<RunningServer> {
  return listen(createApp({ upstream: {}, staticDir: null, review: mountReview(review) }), {
    host: '127.0.0.1',
    port: 0,
  });
}

/** Creates the operators (name → role) with TEST_PASSWORD, in order; returns their ids by name. */
export async function addOperators(
  review: OpenedReview,
  roles: Record<string, 'admin' | 'operator'>,
  at: number,
): Promise<Record<string, string>> {
  const passwordHash = await hashPassword(TEST_PASSWORD);
  const ids: Record<string, string> = {};
  for (const [name, role] of Object.entries(roles))
    ids[name] = (await review.operators.create({ name, role, passwordHash }, at)).id;
  return ids;
}

/** A browser: its cookie jar (one cookie, dropped when the server expires it), its CSRF token. */
export class ReviewBrowser {
  cookie: string | undefined;
  csrf: string | undefined;
  constructor(private readonly base: string) {}

  async send(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const response = await fetch(`${this.base}${path}`, {
      method,
      headers: {
        Origin: this.base,
        'Sec-Fetch-Site': 'same-origin',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(this.cookie === undefined ? {} : { Cookie: this.cookie }),
        ...(this.csrf === undefined ? {} : { 'X-CSRF-Token': this.csrf }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const setCookie = response.headers.get('set-cookie');
    if (setCookie !== null) {
      const [pair = ''] = setCookie.split(';');
      this.cookie = /max-age=0/i.test(setCookie) ? undefined : pair;
    }
    return response;
  }

  async signIn(name: string, password = TEST_PASSWORD) {
    const response = await this.send('POST', '/api/session', { name, password });
    expect(response.status).toBe(200);
    const session = SessionResponse.parse(await response.json());
    this.csrf = session.csrfToken;
    return session;
  }
}

/** A browser signed in as `name`. */
export async function signedIn(base: string, name: string): Promise<ReviewBrowser> {
  const browser = new ReviewBrowser(base);
  await browser.signIn(name);
  return browser;
}

/** Asserts a problem-details answer with `status` and `code`; returns its body. */
export async function expectProblem(
  response: Response,
  status: number,
  code: string,
): Promise<Record<string, unknown>> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  const body = (await response.json()) as Record<string, unknown>;
  expect(ErrorResponse.parse(body)).toMatchObject({ status, code });
  return body;
}

/** A v2 document of model `model-a` whose (empty) result is in: waiting in the queue. Returns its id. */
export async function addReadyDocument(
  review: OpenedReview,
  fileName: string,
  at: number,
  counts: { fieldsTotal: number; fieldsToReview: number },
): Promise<string> {
  const added = await review.queue.addDocument({ apiVersion: 'v2', modelKey: 'model-a', fileName }, at);
  await review.queue.setResult(
    added.id,
    {
      json: JSON.stringify({ inference: { id: 'inf', result: { fields: {} } } }),
      resultId: 'inf',
      ...counts,
    },
    at,
  );
  return added.id;
}

/** What an API test's `describe` opens once and closes at its end. */
export interface ReviewApiTeam {
  store: TestStore;
  review: OpenedReview;
  server: RunningServer;
  /** Ada, an admin, and Alice, an operator, signed in. */
  admin: ReviewBrowser;
  alice: ReviewBrowser;
}

/** A test store of `engine`, the review over it (on the test's clock), its API listening, Ada and Alice signed in. */
export async function openReviewApiTeam(
  engine: Engine,
  now: () => number,
  at: number,
): Promise<ReviewApiTeam> {
  const store = await openTestStore(engine);
  const review = await openReview({ ...store.settings, clock: { now } });
  const server = await listenReviewApi(review);
  await addOperators(review, { Ada: 'admin', Alice: 'operator' }, at);
  return {
    store,
    review,
    server,
    admin: await signedIn(server.url, 'Ada'),
    alice: await signedIn(server.url, 'Alice'),
  };
}

/** Closes what openReviewApiTeam opened, the server first. */
export async function closeReviewApi(
  team: Pick<ReviewApiTeam, 'store' | 'review' | 'server'>,
): Promise<void> {
  await team.server.close();
  await team.review.close();
  await team.store.cleanup();
}
