/**
 * Declared routes as the server mounts them, over real HTTP: the access check comes first (a bad id or
 * body without a session is 401-011; an operator's body on an admin's route is 403-005 unread), then
 * the path parameters (the route's own 404), the query and the JSON body (400-001, 422-008 with
 * pointers), each by the declaration's schema; and a path no route answers under the review's
 * prefixes meets the session check before "no such route".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionResponse } from '@extraction-review/contract/review/schemas';
import { ErrorResponse } from '@extraction-review/contract/v2/schemas';
import { createApp } from '../../create-app';
import { listen, type RunningServer } from '../../listen';
import { hashPassword } from '../auth/passwords';
import { openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { openReview, type OpenedReview } from '../open-review';
import { mountReview } from './mount-review';

const PASSWORD = 'correct horse battery staple';
const SOME_ID = '0b7f2f7e-4c1d-4a51-9a53-2f0e8f0e6b11';

describe('declared routes, mounted', () => {
  let store: TestStore;
  let review: OpenedReview;
  let server: RunningServer;
  let asBob: (method: string, path: string, body?: string) => Promise<Response>;

  const send = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: { Origin: server.url, 'Content-Type': 'application/json', ...headers },
      body,
    });

  async function problem(response: Response, status: number, code: string) {
    expect(response.status).toBe(status);
    return expect(ErrorResponse.parse(await response.json())).toMatchObject({ status, code });
  }

  beforeAll(async () => {
    store = await openTestStore('sqlite');
    review = await openReview({ ...store.settings });
    await review.operators.create(
      { name: 'Bob', role: 'operator', passwordHash: await hashPassword(PASSWORD) },
      Date.now(),
    );
    server = await listen(createApp({ upstream: {}, staticDir: null, review: mountReview(review) }), {
      host: '127.0.0.1',
      port: 0,
    });
    const signedIn = await send(
      'POST',
      '/api/session',
      {},
      JSON.stringify({ name: 'Bob', password: PASSWORD }),
    );
    const { csrfToken } = SessionResponse.parse(await signedIn.json());
    const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    asBob = (method, path, body) => send(method, path, { Cookie: cookie, 'X-CSRF-Token': csrfToken }, body);
  });
  afterAll(async () => {
    await server?.close();
    await review?.close();
    await store?.cleanup();
  });

  it('checks who calls before the parameters and the body', async () => {
    await problem(await send('GET', '/api/review/documents/not-an-id'), 401, '401-011');
    await problem(await send('POST', '/api/review/documents/not-an-id/confirm', {}, '{'), 401, '401-011');
    await problem(await asBob('POST', `/api/review/documents/${SOME_ID}/priority`, '{'), 403, '403-005');
  });

  it('answers a path parameter that does not fit with the route’s own problem', async () => {
    await problem(await asBob('GET', '/api/review/documents/not-an-id'), 404, '404-010');
    await problem(await asBob('GET', `/api/review/documents/${SOME_ID}/pages/x/words`), 404, '404-010');
    await problem(await asBob('GET', '/api/review/models/v3/m/settings'), 404, '404-004');
  });

  it('refuses a body or a query that does not fit, pointing into it', async () => {
    await problem(await asBob('POST', `/api/review/documents/${SOME_ID}/reject`, '{'), 400, '400-001');
    const body = await asBob(
      'POST',
      `/api/review/documents/${SOME_ID}/reject`,
      JSON.stringify({ version: 1 }),
    );
    expect(body.status).toBe(422);
    expect(ErrorResponse.parse(await body.json()).errors).toEqual([
      expect.objectContaining({ pointer: '#/reason' }),
    ]);
    const query = await asBob('GET', '/api/review/documents?limit=0');
    expect(query.status).toBe(422);
    expect(ErrorResponse.parse(await query.json()).errors).toEqual([
      expect.objectContaining({ pointer: '#/limit' }),
    ]);
  });

  it('asks for a session on a path no route answers under the review’s prefixes', async () => {
    for (const path of ['/api/review/nothing', '/api/operators/a/b', '/api/exports/nothing'])
      await problem(await send('GET', path), 401, '401-011');
    await problem(await asBob('GET', '/api/review/nothing'), 404, '404-015');
  });
});
