/**
 * `npm run bench -- queue`: the team queue's server figures on both engines side by side (embedded
 * SQLite, and a throw-away PostgreSQL server started here from Debian's binaries), over real HTTP
 * against the app server, at 100,000 documents (`--documents 1000000`, or `100000,1000000` for both
 * sizes side by side: queue-options.ts; the queue as queue-seed.ts makes it):
 *
 * - the queue's first page (50 rows, newest first, with counts per state), the counts alone, the first
 *   page filtered (to review; a name search for a rare word and for a common one), beside
 *   `GET /api/session` on the same server (the same sign-in check, no queue) as the baseline;
 * - 20 operators each fetching the queue's first page in a loop, all at once (pages/s, p50, p95),
 *   beside 20 doing the same with `GET /api/session`;
 * - "next" then release, one operator; 20 operators each taking the next document and confirming it,
 *   all at once, p95 per action, beside one operator doing the same alone;
 * - at the default size only (not with `--server-only`): the job follower's upstream polls per
 *   processing job with one app-server copy and with three on one PostgreSQL (follower-polls.ts; aim,
 *   issue 19: the same), then the review's next document in Chromium (queue-browser.ts).
 *
 * Figures are printed, never asserted. Aims: issue 10, first page < 100 ms server time and p95 per
 * action < 50 ms with 20 operators; issue 22, at 1,000,000 documents on PostgreSQL, first page and
 * search p95 < 50 ms, 20 concurrent pages p95 < 100 ms.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '@extraction-review/app-server/create-app';
import { listen, type RunningServer } from '@extraction-review/app-server/listen';
import { hashPassword } from '@extraction-review/app-server/review/auth/passwords';
import type { Engine } from '@extraction-review/app-server/review/db/migrations';
import { openReview } from '@extraction-review/app-server/review/open-review';
import { mountReview } from '@extraction-review/app-server/review/http/mount-review';
import { startPostgresCluster } from '@extraction-review/test-kit/review/postgres-cluster';
import { mb, ms, percentile, table } from './stats';
import { benchQueueBrowser } from './queue-browser';
import { benchFollowerPolls, FOLLOWER_WINDOW, withDatabase } from './follower-polls';
import { COMMON_WORD, databaseSize, RARE_WORD, seedQueue } from './queue-seed';
import type { QueueOptions } from './queue-options';

const OPERATORS = 20;
const ROUNDS_PER_OPERATOR = 10;
/** First pages each of the 20 concurrent clients fetches. */
const CONCURRENT_ROUNDS = 5;
/** Each single-client figure: this many samples, or fewer (at least MIN_SAMPLES) past SAMPLE_BUDGET_MS. */
const SAMPLES = 40;
const MIN_SAMPLES = 10;
const SAMPLE_BUDGET_MS = 90_000;
const PASSWORD = 'bench password 1234';
/**
 * The throw-away cluster's defaults (postgres-cluster.ts: no fsync, 32 MB of shared buffers) but with
 * shared buffers a server holding a million documents would be given.
 */
const POSTGRES_SETTINGS = { shared_buffers: '256MB' };

const FIRST_PAGE = '/api/review/documents?limit=50';

interface Concurrent {
  samples: number[];
  /** Why each failed request failed: its status, or `connection dropped`. */
  failed: string[];
  perSecond: number;
}

interface Figures {
  seedMs: number;
  analyzeMs: number | null;
  databaseBytes: number;
  documentsBytes: number | null;
  counts: Record<string, number>;
  samples: number;
  /** Requests sent again after a connection reset (fetchAgainOnReset). */
  resent: number;
  firstPage: number[];
  countsOnly: number[];
  toReviewPage: number[];
  rareSearch: number[];
  commonSearch: number[];
  baseline: number[];
  nextRelease: { next: number[]; release: number[] };
  concurrentPages: Concurrent;
  concurrentBaseline: Concurrent;
  alone: { next: number[]; confirm: number[] };
  together: { next: number[]; confirm: number[] };
}

interface Client {
  cookie: string;
  csrf: string;
}

async function timed<T>(samples: number[], run: () => Promise<T>): Promise<T> {
  const start = performance.now();
  const result = await run();
  samples.push(performance.now() - start);
  return result;
}

async function signIn(base: string, name: string): Promise<Client> {
  const response = await fetch(`${base}/api/session`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name, password: PASSWORD }),
  });
  const body = (await response.json()) as { csrfToken: string };
  return { cookie: (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '', csrf: body.csrfToken };
}

/**
 * Requests sent again because the server had closed the kept-alive connection as they left (Node's
 * 5 s keep-alive time-out racing a client that waited that long for its turn: SQLite's statements
 * block the server's one thread). The time of the request counts both tries.
 */
let resent = 0;

async function fetchAgainOnReset(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    const cause = error instanceof Error ? (error.cause as { code?: string } | undefined) : undefined;
    if (cause?.code !== 'ECONNRESET') throw error;
    resent++;
    return fetch(url, init);
  }
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(`${status} ${message}`);
  }
}

async function call(base: string, client: Client, method: string, pathname: string, body?: unknown) {
  const response = await fetchAgainOnReset(`${base}${pathname}`, {
    method,
    headers: {
      Cookie: client.cookie,
      'X-CSRF-Token': client.csrf,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status >= 400)
    throw new HttpError(response.status, `${method} ${pathname}: ${text.slice(0, 200)}`);
  return text === '' ? undefined : (JSON.parse(text) as unknown);
}

type Taken = { document: { id: string; version: number } } | undefined;

/** One operator: next, then confirm, `rounds` times. */
async function work(base: string, client: Client, rounds: number, into: Figures['alone']): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    const taken = (await timed(into.next, () => call(base, client, 'POST', '/api/review/next'))) as Taken;
    if (taken === undefined) return;
    await timed(into.confirm, () =>
      call(base, client, 'POST', `/api/review/documents/${taken.document.id}/confirm`, {
        version: taken.document.version,
      }),
    );
  }
}

/**
 * 20 clients at once, each `rounds` GETs of `pathname` in a row: every answered request's time,
 * answers per second, and the requests that failed, by why: a problem's status (PostgreSQL's pool
 * refusing to wait longer for a connection: 503), or a dropped connection (Node closes one whose
 * request has waited past its 60 s headers time-out, which SQLite's blocking statements bring about).
 */
async function concurrently(base: string, clients: Client[], pathname: string): Promise<Concurrent> {
  const samples: number[] = [];
  const failed: string[] = [];
  const start = performance.now();
  await Promise.all(
    clients.map(async (client) => {
      for (let i = 0; i < CONCURRENT_ROUNDS; i++)
        await timed(samples, () => call(base, client, 'GET', pathname)).catch((error: unknown) =>
          failed.push(error instanceof HttpError ? String(error.status) : 'connection dropped'),
        );
    }),
  );
  return { samples, failed, perSecond: samples.length / ((performance.now() - start) / 1000) };
}

async function benchEngine(
  engine: Engine,
  documents: number,
  databaseUrl: string | undefined,
  analyzeSqlite: boolean,
): Promise<Figures> {
  const label = `${engine}, ${documents.toLocaleString('en')} documents`;
  resent = 0;
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `bench-queue-${engine}-`));
  const review = await openReview({ databaseUrl, dataDir, leaseMs: 600_000 });
  let server: RunningServer | undefined;
  try {
    const hash = await hashPassword(PASSWORD);
    const operatorIds: string[] = [];
    for (let i = 0; i < OPERATORS; i++) {
      const operator = await review.operators.create(
        { name: `op-${i}`, role: 'operator', passwordHash: hash },
        Date.now(),
      );
      operatorIds.push(operator.id);
    }
    let shown = 0;
    const seeded = await seedQueue(review, documents, operatorIds, {
      analyzeSqlite,
      onProgress: (done) => {
        if (done - shown >= 250_000) {
          shown = done;
          console.log(`  ${label}: ${done.toLocaleString('en')} seeded…`);
        }
      },
    });
    const size = await databaseSize(review);
    console.log(
      `  ${label}: seeded in ${ms(seeded.insertMs)}, ` +
        `${seeded.analyzeMs === null ? 'no statistics' : `statistics in ${ms(seeded.analyzeMs)}`}; ` +
        `database ${mb(size.database)}${size.documents === null ? '' : `, documents and their indexes ${mb(size.documents)}`}`,
    );
    server = await listen(createApp({ upstream: {}, staticDir: null, review: mountReview(review) }), {
      host: '127.0.0.1',
      port: 0,
    });
    const base = server.url;
    const clients = await Promise.all(Array.from({ length: OPERATORS }, (_, i) => signIn(base, `op-${i}`)));
    const [first] = clients;
    if (first === undefined) throw new Error('no client');

    const figures: Figures = {
      seedMs: seeded.insertMs,
      analyzeMs: seeded.analyzeMs,
      databaseBytes: size.database,
      documentsBytes: size.documents,
      counts: {},
      samples: 0,
      resent: 0,
      firstPage: [],
      countsOnly: [],
      toReviewPage: [],
      rareSearch: [],
      commonSearch: [],
      baseline: [],
      nextRelease: { next: [], release: [] },
      concurrentPages: { samples: [], failed: [], perSecond: 0 },
      concurrentBaseline: { samples: [], failed: [], perSecond: 0 },
      alone: { next: [], confirm: [] },
      together: { next: [], confirm: [] },
    };
    // Warm up, then measure.
    for (let i = 0; i < 5; i++) await call(base, first, 'GET', FIRST_PAGE);
    const page = (await call(base, first, 'GET', FIRST_PAGE)) as { counts: Record<string, number> };
    figures.counts = page.counts;
    const rare = (await call(base, first, 'GET', `${FIRST_PAGE}&q=${RARE_WORD}`)) as { documents: unknown[] };
    console.log(
      `  ${label}: counts ${JSON.stringify(page.counts)}; "${RARE_WORD}" finds ${rare.documents.length} documents`,
    );
    const sampling = performance.now();
    for (let i = 0; i < SAMPLES; i++) {
      if (i >= MIN_SAMPLES && performance.now() - sampling > SAMPLE_BUDGET_MS) break;
      figures.samples = i + 1;
      await timed(figures.baseline, () => call(base, first, 'GET', '/api/session'));
      await timed(figures.firstPage, () => call(base, first, 'GET', FIRST_PAGE));
      await timed(figures.countsOnly, () => call(base, first, 'GET', '/api/review/counts'));
      await timed(figures.toReviewPage, () => call(base, first, 'GET', `${FIRST_PAGE}&state=to_review`));
      await timed(figures.rareSearch, () => call(base, first, 'GET', `${FIRST_PAGE}&q=${RARE_WORD}`));
      await timed(figures.commonSearch, () => call(base, first, 'GET', `${FIRST_PAGE}&q=${COMMON_WORD}`));
    }
    for (let i = 0; i < MIN_SAMPLES * 2; i++) {
      const taken = (await timed(figures.nextRelease.next, () =>
        call(base, first, 'POST', '/api/review/next'),
      )) as Taken;
      if (taken === undefined) break;
      await timed(figures.nextRelease.release, () =>
        call(base, first, 'POST', `/api/review/documents/${taken.document.id}/release`),
      );
    }
    figures.concurrentBaseline = await concurrently(base, clients, '/api/session');
    figures.concurrentPages = await concurrently(base, clients, FIRST_PAGE);
    await work(base, first, ROUNDS_PER_OPERATOR * 2, figures.alone);
    await Promise.all(clients.map((client) => work(base, client, ROUNDS_PER_OPERATOR, figures.together)));
    figures.resent = resent;
    console.log(`  ${label}: measured`);
    return figures;
  } finally {
    await server?.close();
    await review.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** `0`, or `8 (503 ×8)`. */
function failures(reasons: readonly string[]): string {
  if (reasons.length === 0) return '0';
  const counted = new Map<string, number>();
  for (const reason of reasons) counted.set(reason, (counted.get(reason) ?? 0) + 1);
  return `${reasons.length} (${[...counted].map(([reason, n]) => `${reason} ×${n}`).join(', ')})`;
}

function printFigures(results: { engine: Engine; documents: number; figures: Figures }[]): void {
  const p = (values: number[], q: number) => ms(percentile(values, q));
  const pair = (values: number[]) => `${p(values, 50)} / ${p(values, 95)}`;
  const heads = results.map(({ engine, documents }) => `${engine} ${documents.toLocaleString('en')}`);

  const setup: string[][] = [['set-up', ...heads]];
  const each = (name: string, value: (f: Figures) => string) =>
    setup.push([name, ...results.map(({ figures }) => value(figures))]);
  each('seed (INSERT … SELECT, triggers on)', (f) => ms(f.seedMs));
  each('statistics (ANALYZE)', (f) => (f.analyzeMs === null ? 'none (as the app)' : ms(f.analyzeMs)));
  each('database on disk', (f) => mb(f.databaseBytes));
  each('  documents and their indexes', (f) => (f.documentsBytes === null ? '?' : mb(f.documentsBytes)));
  for (const state of ['to_review', 'in_review', 'postponed', 'confirmed', 'rejected', 'failed'])
    each(`  ${state}`, (f) => (f.counts[state] ?? 0).toLocaleString('en'));
  each('samples per single-client figure', (f) => String(f.samples));
  each('requests sent again after a reset', (f) => String(f.resent));
  console.log(`\n${table(setup)}`);

  const rows: string[][] = [['figure (p50 / p95)', ...heads, 'aim']];
  const row = (name: string, pick: (f: Figures) => number[], aim = '') =>
    rows.push([name, ...results.map(({ figures }) => pair(pick(figures))), aim]);
  row("queue's first page (50, with counts)", (f) => f.firstPage, 'p95 < 50 ms at 1M on PG (< 100 ms)');
  row('  the counts alone (GET /api/review/counts)', (f) => f.countsOnly);
  row('  filtered: to review', (f) => f.toReviewPage, '< 100 ms');
  row(`  name search, rare ("${RARE_WORD}", ~20 rows)`, (f) => f.rareSearch, 'p95 < 50 ms at 1M on PG');
  row(`  name search, common ("${COMMON_WORD}", 1 in 40)`, (f) => f.commonSearch, 'p95 < 50 ms at 1M on PG');
  row('  baseline: GET /api/session (same sign-in check)', (f) => f.baseline);
  row(
    `first page, ${OPERATORS} clients at once`,
    (f) => f.concurrentPages.samples,
    'p95 < 100 ms at 1M on PG',
  );
  rows.push([
    '  pages per second',
    ...results.map(({ figures }) => figures.concurrentPages.perSecond.toFixed(0)),
    '',
  ]);
  rows.push([
    '  pages failed (why)',
    ...results.map(({ figures }) => failures(figures.concurrentPages.failed)),
    '',
  ]);
  row(`  baseline: GET /api/session, ${OPERATORS} at once`, (f) => f.concurrentBaseline.samples);
  rows.push([
    '  sessions per second',
    ...results.map(({ figures }) => figures.concurrentBaseline.perSecond.toFixed(0)),
    '',
  ]);
  row('next, one operator (then release)', (f) => f.nextRelease.next);
  row('  release', (f) => f.nextRelease.release);
  row(`next, ${OPERATORS} operators at once`, (f) => f.together.next, 'p95 < 50 ms');
  row(`confirm, ${OPERATORS} operators at once`, (f) => f.together.confirm, 'p95 < 50 ms');
  row('  baseline: next, one operator alone', (f) => f.alone.next);
  row('  baseline: confirm, one operator alone', (f) => f.alone.confirm);
  console.log(`\n${table(rows)}`);
  console.log(
    '\n(Times seen by a client on the same machine over HTTP: server time plus a loopback round trip. ' +
      `PostgreSQL: a throw-away cluster without fsync, shared_buffers ${POSTGRES_SETTINGS.shared_buffers}. ` +
      `Load average at the end: ${os
        .loadavg()
        .map((load) => load.toFixed(2))
        .join(', ')} on ${os.availableParallelism()} cores.)`,
  );
}

async function followerPolls(clusterUrl: string): Promise<void> {
  const { jobs, windowMs, stepMs } = FOLLOWER_WINDOW;
  console.log(
    `\nJob follower: upstream polls per processing job, ${jobs} jobs kept processing for ` +
      `${windowMs / 60_000} min (simulated clock, every copy looking each ${stepMs} ms), PostgreSQL…`,
  );
  const polls = await benchFollowerPolls(clusterUrl);
  const one = polls.find((p) => p.copies === 1);
  const followerRows: string[][] = [['copies', 'polls', 'polls per job', 'run time', 'aim']];
  for (const p of polls)
    followerRows.push([
      String(p.copies),
      String(p.polls),
      p.perJob.toFixed(1),
      ms(p.elapsedMs),
      p.copies === 1 ? 'baseline' : `the same as 1 copy (${one?.perJob.toFixed(1) ?? '?'})`,
    ]);
  console.log(table(followerRows));
}

export async function benchQueue(options: QueueOptions): Promise<void> {
  const needsCluster = options.engines.includes('postgres') || options.extras;
  const cluster = needsCluster ? await startPostgresCluster({ settings: POSTGRES_SETTINGS }) : undefined;
  try {
    const results: { engine: Engine; documents: number; figures: Figures }[] = [];
    for (const documents of options.sizes) {
      for (const engine of options.engines) {
        const figures =
          engine === 'postgres' && cluster !== undefined
            ? await withDatabase(cluster.url, `bench_queue_${documents}`, (url) =>
                benchEngine(engine, documents, url, options.analyzeSqlite),
              )
            : await benchEngine(engine, documents, undefined, options.analyzeSqlite);
        results.push({ engine, documents, figures });
        // Each engine's figures as soon as they are known (a long run that fails later keeps them).
        if (options.sizes.length * options.engines.length > 1) printFigures([{ engine, documents, figures }]);
      }
    }
    if (results.length > 1) console.log('\n=== side by side ===');
    printFigures(results);
    if (options.extras && cluster !== undefined) await followerPolls(cluster.url);
  } finally {
    await cluster?.stop();
  }

  if (!options.extras) {
    console.log(
      '\n(Job-follower polls and the Chromium part: at the default size only, without --server-only.)',
    );
    return;
  }
  console.log(
    "\nConfirm and next in Chromium (production build, the real app server): the review's first page drawn…",
  );
  await benchQueueBrowser();
}
