/**
 * Issue 18, the attack: the set-up link printed at the first start still made an admin a day after
 * admins had been made with the command. Over real HTTP, on both engines, with the review's clock
 * injected: a set-up link is refused (404 `404-011`, as a spent one) once any admin exists, however
 * made; it is used once, and its use spends every other link; it lasts an hour; of concurrent uses of
 * one link or several, through two app-server copies on one PostgreSQL (one copy on SQLite), exactly
 * one makes an admin; a start with an admin prints no link, and the command refuses to make one.
 */
import { Readable, Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionResponse } from '@extraction-review/contract/review/schemas';
import { ErrorResponse } from '@extraction-review/contract/v2/schemas';
import { createApp } from '../../create-app';
import { listen, type RunningServer } from '../../listen';
import { runOperatorsCommand } from '../cli/operators-command';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { firstStartSetupLink, openReview, type OpenedReview } from '../open-review';
import { SETUP_LINK_TTL_MS } from '../store/session-store';
import { mountReview } from './mount-review';

const T0 = Date.UTC(2026, 10, 28, 9, 0, 0);
const PASSWORD = 'correct horse battery staple';

interface Copy {
  review: OpenedReview;
  server: RunningServer;
}

describe.each(ENGINES)('set-up links on %s', (engine) => {
  let store: TestStore;
  let copies: Copy[] = [];
  let clock = T0;

  /**
   * A fresh store and `n` app-server copies on it: on PostgreSQL; SQLite is served by one copy
   * (docs/app-server.md), which then stands for all `n` (better-sqlite3 is synchronous: two
   * connections in one process would wait for each other's lock while holding the thread).
   */
  async function start(n = 1): Promise<Copy[]> {
    store = await openTestStore(engine);
    clock = T0;
    copies = [];
    for (let i = 0; i < (engine === 'postgres' ? n : 1); i++) {
      const review = await openReview({ ...store.settings, clock: { now: () => clock } });
      const server = await listen(createApp({ upstream: {}, staticDir: null, review: mountReview(review) }), {
        host: '127.0.0.1',
        port: 0,
      });
      copies.push({ review, server });
    }
    return Array.from({ length: n }, (_, i) => copies[i % copies.length] as Copy);
  }
  afterEach(async () => {
    for (const { server, review } of copies) {
      await server.close();
      await review.close();
    }
    await store.cleanup();
  });

  /** The link the first start prints, as its token (undefined: none printed). */
  async function printedToken(copy: Copy): Promise<string | undefined> {
    const link = await firstStartSetupLink(copy.review, copy.server.url);
    return link?.split('#')[1];
  }

  async function printed(copy: Copy): Promise<string> {
    const token = await printedToken(copy);
    if (token === undefined) throw new Error('no set-up link printed');
    return token;
  }

  const check = (copy: Copy, token: string) => fetch(`${copy.server.url}/api/setup/${token}`);
  const use = (copy: Copy, token: string, name: string) =>
    fetch(`${copy.server.url}/api/setup`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: copy.server.url },
      body: JSON.stringify({ token, name, password: PASSWORD }),
    });

  async function spent(response: Response) {
    expect(response.status).toBe(404);
    expect(ErrorResponse.parse(await response.json())).toMatchObject({ status: 404, code: '404-011' });
  }

  async function admins(copy: Copy) {
    return (await copy.review.operators.list()).filter((o) => o.role === 'admin').map((o) => o.name);
  }

  async function command(args: string[], stdin = '') {
    const out: string[] = [];
    const sink = () =>
      new Writable({
        write(chunk: Buffer, _encoding, callback) {
          out.push(chunk.toString());
          callback();
        },
      });
    const code = await runOperatorsCommand(args, {
      stdin: Readable.from([stdin]),
      stdout: sink(),
      stderr: sink(),
      env: { APP_DATA_DIR: store.settings.dataDir, DATABASE_URL: store.settings.databaseUrl ?? '' },
    });
    return { code, out: out.join('') };
  }

  it('refuses the first start’s link once an admin was made with the command, and prints none after', async () => {
    const [copy] = await start();
    if (copy === undefined) throw new Error('no copy');
    const token = await printed(copy);
    expect((await check(copy, token)).status).toBe(200);

    // An admin made with the command, as in the issue (a day later or a second later: the same).
    expect((await command(['add', 'Root', '--role', 'admin'], PASSWORD)).code).toBe(0);
    await spent(await check(copy, token));
    await spent(await use(copy, token, 'Mallory'));
    expect(await admins(copy)).toEqual(['Root']);

    // The next start prints no link, and the command makes none.
    expect(await printedToken(copy)).toBeUndefined();
    const refused = await command(['setup-link', '--base', copy.server.url]);
    expect(refused.code).toBe(1);
    expect(refused.out).not.toMatch(/setup#/);
  });

  it('keeps the link while only operators exist, and a taken name does not spend it', async () => {
    const [copy] = await start();
    if (copy === undefined) throw new Error('no copy');
    expect((await command(['add', 'Olga', '--role', 'operator'], PASSWORD)).code).toBe(0);
    const token = await printed(copy);
    const taken = await use(copy, token, 'olga');
    expect(taken.status).toBe(409);
    expect(ErrorResponse.parse(await taken.json()).code).toBe('409-003');
    expect((await use(copy, token, 'Ada')).status).toBe(200);
    expect(await admins(copy)).toEqual(['Ada']);
  });

  it('uses a link once, and its use spends every other link', async () => {
    const [a, b] = await start(2);
    if (a === undefined || b === undefined) throw new Error('no copies');
    const first = await printed(a);
    // Each copy's first start printed its own; the command made a third.
    const second = await printed(b);
    const third = (await command(['setup-link', '--base', a.server.url])).out.trim().split('#').at(-1) ?? '';
    expect(third).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const made = await use(a, first, 'Ada');
    expect(made.status).toBe(200);
    expect(SessionResponse.parse(await made.json()).operator).toMatchObject({ name: 'Ada', role: 'admin' });
    for (const token of [first, second, third]) {
      await spent(await check(b, token));
      await spent(await use(b, token, 'Mallory'));
    }
    expect(await admins(a)).toEqual(['Ada']);
  });

  it('lasts an hour', async () => {
    const [copy] = await start();
    if (copy === undefined) throw new Error('no copy');
    const token = await printed(copy);
    clock = T0 + SETUP_LINK_TTL_MS - 1;
    expect((await check(copy, token)).status).toBe(200);
    clock = T0 + SETUP_LINK_TTL_MS;
    await spent(await check(copy, token));
    await spent(await use(copy, token, 'Ada'));
    expect(await admins(copy)).toEqual([]);
    // A new start prints a new link, which works.
    expect((await use(copy, await printed(copy), 'Ada')).status).toBe(200);
  });

  it('makes exactly one admin of uses at once through two copies, of one link or of several', async () => {
    const [a, b] = await start(2);
    if (a === undefined || b === undefined) throw new Error('no copies');
    const one = await printed(a);
    const other = await printed(b);
    // Six people at once: three follow one link, three the other, half on each copy.
    const attempts = [
      use(a, one, 'Ann'),
      use(b, one, 'Ben'),
      use(a, one, 'Cat'),
      use(b, other, 'Dan'),
      use(a, other, 'Eve'),
      use(b, other, 'Fay'),
    ];
    const answers = await Promise.all(attempts);
    const statuses = answers.map((r) => r.status);
    console.log(`[setup-link ${engine}] six uses at once answered ${statuses.join(', ')}`);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    for (const refused of answers.filter((r) => r.status !== 200)) await spent(refused);
    expect(await admins(a)).toHaveLength(1);
    // The same when the two race on one link only.
    await spent(await use(a, one, 'Gus'));
  });

  it('makes exactly one admin of two uses of one link at once on two copies', async () => {
    const [a, b] = await start(2);
    if (a === undefined || b === undefined) throw new Error('no copies');
    const token = await printed(a);
    const answers = await Promise.all([use(a, token, 'Ann'), use(b, token, 'Ben')]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 404]);
    expect(await admins(a)).toHaveLength(1);
  });

  it('makes exactly one admin of the store’s uses at once, the hashing done, on two copies', async () => {
    // Over HTTP each use hashes its password first, which spreads them out; here the transactions
    // of two copies start together, ten of them, on two links.
    const [a, b] = await start(2);
    if (a === undefined || b === undefined) throw new Error('no copies');
    const tokens = [await printed(a), await printed(b)];
    // Each copy's connections opened beforehand, so that the transactions do start together.
    for (const copy of copies)
      await Promise.all(Array.from({ length: 10 }, () => copy.review.sessions.adminExists()));
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 === 0 ? a : b).review.sessions.createFirstAdmin(tokens[i % 4 < 2 ? 0 : 1] ?? '', clock, {
          name: `Admin ${String(i)}`,
          passwordHash: 'x',
        }),
      ),
    );
    console.log(
      `[setup-link ${engine}] ten uses at once: ${results.map((r) => (r.ok ? 'made' : r.reason)).join(', ')}`,
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok && r.reason === 'spent')).toHaveLength(9);
    expect(await admins(a)).toHaveLength(1);
  });
});
