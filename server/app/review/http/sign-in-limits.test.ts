/**
 * Sign-in limits that fit a company (issue 22), on both engines, through two app-server copies on one
 * store (one copy on SQLite, which then stands for both: setup-link.test.ts says why) behind a proxy
 * they trust, which reports each client's address in X-Forwarded-For: failures only are counted, per
 * name from any address and per address for any name, on whichever copy they happen; another name or
 * another address is not blocked; a right password never counts and clears its name's failures from
 * its address; the refusal states the wait (detail, Retry-After, retry_after), which ends with it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SIGN_IN_FAILURES_PER_ADDRESS,
  SIGN_IN_FAILURES_PER_NAME,
  SIGN_IN_WINDOW_MINUTES,
} from '@extraction-review/contract/review/routes/session';
import { createApp } from '../../create-app';
import { listen, type RunningServer } from '../../listen';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import {
  addOperators,
  expectProblem,
  TEST_PASSWORD,
} from '@extraction-review/test-kit/review/review-browser';
import { openReview, type OpenedReview } from '../open-review';
import { mountReview } from './mount-review';

const T0 = Date.UTC(2026, 11, 7, 9, 0, 0);
const WINDOW_MS = SIGN_IN_WINDOW_MINUTES * 60_000;

interface Copy {
  review: OpenedReview;
  server: RunningServer;
}

describe.each(ENGINES)('sign-in limits on %s', (engine) => {
  let store: TestStore;
  let running: Copy[] = [];
  let copies: [Copy, Copy];
  let clock = T0;

  beforeAll(async () => {
    store = await openTestStore(engine);
    for (let i = 0; i < (engine === 'postgres' ? 2 : 1); i++) {
      const review = await openReview({ ...store.settings, clock: { now: () => clock } });
      const hosts = { trustProxy: ['loopback'] };
      const server = await listen(
        createApp({ upstream: {}, staticDir: null, hosts, review: mountReview(review, { hosts }) }),
        { host: '127.0.0.1', port: 0 },
      );
      running.push({ review, server });
    }
    const [first, second = first] = running as [Copy, Copy?];
    copies = [first, second];
    await addOperators(first.review, { Ada: 'operator', Bea: 'operator', Cy: 'operator' }, T0);
  });
  afterAll(async () => {
    for (const { server, review } of running) {
      await server.close();
      await review.close();
    }
    running = [];
    await store.cleanup();
  });

  /** A sign-in through copy `n % 2`, from `address` as the trusted proxy reports it. */
  const signIn = (n: number, address: string, name: string, password: string) => {
    const copy = copies[n % 2] as Copy;
    return fetch(`${copy.server.url}/api/session`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Origin: copy.server.url,
        'X-Forwarded-For': `${address}, 127.0.0.1`,
      },
      body: JSON.stringify({ name, password }),
    });
  };
  const wrong = 'not the password at all';

  it('blocks a name after its failures from any address, on every copy, and states the wait', async () => {
    for (let i = 0; i < SIGN_IN_FAILURES_PER_NAME; i++) {
      await expectProblem(await signIn(i, `198.51.100.${i + 1}`, 'Ada', wrong), 401, '401-012');
    }
    // The right password, from yet another address and the other copy: refused before it is checked.
    const refused = await signIn(1, '198.51.100.99', 'ada', TEST_PASSWORD);
    const body = await expectProblem(refused, 429, '429-003');
    expect(refused.headers.get('retry-after')).toBe(String(WINDOW_MS / 1000));
    expect(body).toMatchObject({ retry_after: WINDOW_MS / 1000 });
    expect(body.detail).toMatch(/failed sign-ins of this name.*refused for another 15 minutes/);

    // Another name from those addresses is not blocked.
    expect((await signIn(0, '198.51.100.1', 'Bea', TEST_PASSWORD)).status).toBe(200);

    // A minute before the window ends, the wait is that minute; after it, Ada signs in.
    clock = T0 + WINDOW_MS - 60_000;
    const later = await signIn(0, '198.51.100.99', 'Ada', TEST_PASSWORD);
    expect((await expectProblem(later, 429, '429-003')).detail).toMatch(/refused for another 1 minute\b/);
    expect(later.headers.get('retry-after')).toBe('60');
    clock = T0 + WINDOW_MS;
    expect((await signIn(1, '198.51.100.99', 'Ada', TEST_PASSWORD)).status).toBe(200);
  });

  it('blocks an address after its failures for any names; other addresses are not blocked', async () => {
    const spraying = '203.0.113.5';
    for (let i = 0; i < SIGN_IN_FAILURES_PER_ADDRESS; i++) {
      await expectProblem(await signIn(i, spraying, `guess-${i}`, wrong), 401, '401-012');
    }
    const body = await expectProblem(await signIn(0, spraying, 'Bea', TEST_PASSWORD), 429, '429-003');
    expect(body.detail).toMatch(/failed sign-ins from this address/);
    // The names it tried are not blocked elsewhere: one failure each is far below their limit.
    expect((await signIn(1, '203.0.113.6', 'Bea', TEST_PASSWORD)).status).toBe(200);
    await expectProblem(await signIn(1, '203.0.113.6', 'guess-0', wrong), 401, '401-012');
  });

  it('never counts a right password, which clears its name’s failures from its address', async () => {
    const office = '192.0.2.10';
    for (let i = 0; i < SIGN_IN_FAILURES_PER_NAME + 2; i++) {
      expect((await signIn(i, office, 'Cy', TEST_PASSWORD)).status).toBe(200);
    }
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < SIGN_IN_FAILURES_PER_NAME - 1; i++) {
        await expectProblem(await signIn(i, office, 'Cy', wrong), 401, '401-012');
      }
      // Nine typos, then the right password: signed in, and the nine forgotten (the next nine pass).
      expect((await signIn(round, office, 'Cy', TEST_PASSWORD)).status).toBe(200);
    }
  });

  it('counts the set-up link’s tries per address in the store, with the wait', async () => {
    const tryLink = (n: number, address: string) => {
      const copy = copies[n % 2] as Copy;
      return fetch(`${copy.server.url}/api/setup`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: copy.server.url, 'X-Forwarded-For': address },
        body: JSON.stringify({ token: 'no-such-token', name: 'Root', password: TEST_PASSWORD }),
      });
    };
    for (let i = 0; i < 20; i++) await expectProblem(await tryLink(i, '198.18.0.1'), 404, '404-011');
    const refused = await tryLink(0, '198.18.0.1');
    expect((await expectProblem(refused, 429, '429-001')).retry_after).toBe(WINDOW_MS / 1000);
    expect(refused.headers.get('retry-after')).toBe(String(WINDOW_MS / 1000));
    await expectProblem(await tryLink(1, '198.18.0.2'), 404, '404-011');
  });
});
