/**
 * Per-key budgets over real HTTP, with a one-second window so the test can wait one out: 429-001 with
 * `Retry-After` in seconds, then success after waiting; POST and GET counted apart; a budget of 0 is
 * no limit; a wrong key gets its 401 and uses no budget.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReferenceService } from '../create-reference-service';
import { expectProblem } from '@extraction-review/test-kit/reference/contract';
import {
  enqueue,
  get,
  makeDataDir,
  startTestService,
} from '@extraction-review/test-kit/reference/reference-harness';
import { DEFAULT_RATE_LIMITS } from './rate-limit';

let limited: ReferenceService;
let unlimited: ReferenceService;
let data: Awaited<ReturnType<typeof makeDataDir>>;

beforeAll(async () => {
  data = await makeDataDir();
  limited = await startTestService(`${data.dir}/limited`, {
    rateLimits: { postPerWindow: 2, getPerWindow: 3, windowMs: 1000 },
  });
  unlimited = await startTestService(`${data.dir}/unlimited`, {
    rateLimits: { postPerWindow: 0, getPerWindow: 0, windowMs: 1000 },
  });
});
afterAll(async () => {
  await limited.close();
  await unlimited.close();
  await data.remove();
});

const search = (service: ReferenceService, key?: string | null) =>
  get(`${service.url}/v2/search/models`, key);

describe('rate limits', () => {
  it('has the hosted budgets by default: 200 POST and 1,200 GET a minute', () => {
    expect(DEFAULT_RATE_LIMITS).toEqual({ postPerWindow: 200, getPerWindow: 1200 });
  });

  it('answers 429-001 with Retry-After past the GET budget, and serves again once it has passed', async () => {
    // Start at the beginning of a window, so all four requests fall in it.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    for (let i = 0; i < 3; i++) expect((await search(limited)).status).toBe(200);
    const refused = await search(limited);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 1).toBe(true);
    expect(expectProblem(await refused.json())).toEqual({
      status: 429,
      title: 'Too many requests',
      code: '429-001',
      detail: `More than 3 GET requests in 1 s with this API key. Try again in ${retryAfter} s.`,
      errors: [],
    });

    // A wrong key is told so, whatever the budget of the right one.
    expect((await search(limited, 'wrong-key')).status).toBe(401);
    // POST has its own budget: the form is refused for what it is (no model), not for the GETs.
    expect((await enqueue(limited, { fields: { alias: 'x' } })).status).toBe(422);

    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
    expect((await search(limited)).status).toBe(200);
  });

  it('counts POST apart', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await enqueue(limited, {})).status).toBe(422);
    expect((await enqueue(limited, {})).status).toBe(422);
    const refused = await enqueue(limited, {});
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect((await search(limited)).status).toBe(200);
  });

  it('has no limit where the budget is 0', async () => {
    for (let i = 0; i < 10; i++) expect((await search(unlimited)).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await enqueue(unlimited, {})).status).toBe(422);
  });
});
