/**
 * Issue 18 (8), as the attack: a correction nested 5,000 levels deep answered a 500 (validation
 * overflowed its stack). Over real HTTP, on both engines: it is a 422 `422-010` pointing at where the
 * body went deeper than 64 levels, for a signed-in operator's correction and for the sign-in anyone
 * may call; 64 levels still reach validation (its own 422-008); the server goes on answering.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionResponse } from '@extraction-review/contract/review/schemas';
import { createApp } from '../../create-app';
import { listen, type RunningServer } from '../../listen';
import { hashPassword } from '../auth/passwords';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { openReview, type OpenedReview } from '../open-review';
import { mountReview } from './mount-review';

const PASSWORD = 'correct horse battery staple';
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe.each(ENGINES)('bodies nested too deep, on %s', (engine) => {
  let store: TestStore;
  let review: OpenedReview;
  let server: RunningServer;
  let headers: Record<string, string>;

  beforeAll(async () => {
    store = await openTestStore(engine);
    review = await openReview(store.settings);
    server = await listen(createApp({ upstream: {}, staticDir: null, review: mountReview(review) }), {
      host: '127.0.0.1',
      port: 0,
    });
    await review.operators.create(
      { name: 'Ada', role: 'operator', passwordHash: await hashPassword(PASSWORD) },
      Date.now(),
    );
    const sameSite = {
      Origin: server.url,
      'Sec-Fetch-Site': 'same-origin',
      'Content-Type': 'application/json',
    };
    const signedIn = await fetch(`${server.url}/api/session`, {
      method: 'POST',
      headers: sameSite,
      body: JSON.stringify({ name: 'Ada', password: PASSWORD }),
    });
    const { csrfToken } = SessionResponse.parse(await signedIn.json());
    headers = {
      ...sameSite,
      Cookie: (signedIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '',
      'X-CSRF-Token': csrfToken,
    };
  });
  afterAll(async () => {
    await server?.close();
    await review?.close();
    await store?.cleanup();
  });

  const correct = (value: string) =>
    fetch(`${server.url}/api/review/documents/00000000-0000-4000-8000-000000000000/corrections`, {
      method: 'PUT',
      headers,
      body: `{"version":1,"corrections":[{"path":"total","value":${value}}]}`,
    });

  it('answers a correction nested 5,000 deep with 422-010 and a pointer', async () => {
    const response = await correct(nested(5_000));
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    const body = (await response.json()) as { code: string; errors: { pointer: string }[] };
    expect(body.code).toBe('422-010');
    // corrections → 0 → value, then 61 more levels of the value's arrays: the 65th opens there.
    expect(body.errors[0]?.pointer).toBe(`#/corrections/0/value${'/0'.repeat(61)}`);
  });

  it('answers the same to anyone, with no session, at the sign-in', async () => {
    const response = await fetch(`${server.url}/api/session`, {
      method: 'POST',
      headers: { Origin: server.url, 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'application/json' },
      body: `{"name":${nested(100_000)}}`,
    });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { code: string }).code).toBe('422-010');
  });

  it('lets 64 levels reach validation, and keeps answering', async () => {
    const within = await correct(nested(61));
    expect(within.status).not.toBe(500);
    expect(((await within.json()) as { code: string }).code).not.toBe('422-010');
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  });
});
