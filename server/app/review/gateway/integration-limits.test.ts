/**
 * Per-integration limits on the gateway (issue 22), on both engines: an integration with a limit of N
 * requests a minute gets its N, then 429 `429-004` with `Retry-After` (a problem on /v2, the v1
 * envelope on /v1) until its minute ends; another integration, without a limit, is not affected; the
 * counters are the store's, swept once their window is over.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { expectProblem } from '@extraction-review/test-kit/review/review-browser';
import { createApp } from '../../create-app';
import { listen, type RunningServer } from '../../listen';
import { mountReview } from '../http/mount-review';
import { openReview, type OpenedReview } from '../open-review';

const T0 = Date.UTC(2026, 11, 7, 10, 0, 0);

describe.each(ENGINES)('integration limits on %s', (engine) => {
  let store: TestStore;
  let review: OpenedReview;
  let server: RunningServer;
  let clock = T0;
  let limited: string;
  let free: string;

  beforeAll(async () => {
    store = await openTestStore(engine);
    review = await openReview({ ...store.settings, clock: { now: () => clock } });
    limited = (await review.integrations.create({ name: 'Noisy pipeline' }, T0)).key;
    free = (await review.integrations.create({ name: 'Quiet pipeline' }, T0)).key;
    await review.integrations.setLimit('noisy pipeline', 3);
    server = await listen(createApp({ upstream: {}, staticDir: null, review: mountReview(review) }), {
      host: '127.0.0.1',
      port: 0,
    });
  });
  afterAll(async () => {
    await server.close();
    await review.close();
    await store.cleanup();
  });

  /** A gateway request the gateway answers itself (a path outside its table: 404). */
  const call = (key: string, version: 'v1' | 'v2' = 'v2') =>
    fetch(`${server.url}/${version}/no-such-route`, {
      headers: { Authorization: version === 'v1' ? `Token ${key}` : key },
    });

  it('takes N requests a minute from a limited integration, then 429-004 with Retry-After', async () => {
    for (let i = 0; i < 3; i++) expect((await call(limited)).status).not.toBe(429);
    clock = T0 + 20_000;
    const refused = await call(limited);
    const body = await expectProblem(refused, 429, '429-004');
    expect(refused.headers.get('retry-after')).toBe('40');
    expect(body).toMatchObject({ retry_after: 40 });
    expect(body.detail).toMatch(/3 requests a minute.*Try again in 40 seconds/);

    // v1 clients read the v1 envelope.
    const v1 = await call(limited, 'v1');
    expect(v1.status).toBe(429);
    expect(v1.headers.get('retry-after')).toBe('40');
    expect(await v1.json()).toMatchObject({ api_request: { error: { code: '429-004' }, status_code: 429 } });

    // Another integration is not affected.
    for (let i = 0; i < 6; i++) expect((await call(free)).status).not.toBe(429);

    // Its next minute, the limited one is served again.
    clock = T0 + 60_000;
    expect((await call(limited)).status).not.toBe(429);
  });

  it('sweeps the counters whose window is over, and only those', async () => {
    clock = T0 + 60_000;
    await review.limits.count('setup:192.0.2.1', clock, 15 * 60_000);
    await review.limits.recordSignInFailure('Ada', '192.0.2.1', clock, 15 * 60_000);
    // The limited integration's counter (its window began at T0 + 60 s) and the two above remain.
    expect(await review.limits.deleteExpired(T0 + 60_000)).toBe(0);
    expect(await review.limits.deleteExpired(T0 + 2 * 60_000)).toBe(1);
    expect(await review.limits.deleteExpired(T0 + 16 * 60_000)).toBe(2);
    const left = await review.database.db.selectFrom('request_counts').select('counter_key').execute();
    expect(left).toEqual([]);
  });
});
