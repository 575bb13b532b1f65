/**
 * `npm run bench -- queue`: the team queue's server figures on both engines side by side (embedded
 * SQLite, and a throw-away PostgreSQL server started here from Debian's binaries), over real HTTP
 * against the app server:
 *
 * - the queue's first page (50 rows, newest first, with counts per state) at 100,000 documents, and
 *   filtered (to review; a name search), beside `GET /api/session` on the same server (the same
 *   sign-in check, no queue) as the baseline;
 * - 20 operators each taking the next document and confirming it, all at once, p95 per action,
 *   beside one operator doing the same alone;
 * - the job follower's upstream polls per processing job with one app-server copy and with three on
 *   one PostgreSQL (follower-polls.ts; aim, issue 19: the same).
 *
 * Figures are printed, never asserted. Aims (issue 10): first page < 100 ms server time; p95 per
 * action < 50 ms with 20 operators.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '@extraction-review/app-server/create-app';
import { listen, type RunningServer } from '@extraction-review/app-server/listen';
import { hashPassword } from '@extraction-review/app-server/review/auth/passwords';
import type { Engine } from '@extraction-review/app-server/review/db/migrations';
import { openReview, type OpenedReview } from '@extraction-review/app-server/review/open-review';
import { startPostgresCluster } from '@extraction-review/test-kit/review/postgres-cluster';
import { ms, percentile, table } from './stats';
import { benchQueueBrowser } from './queue-browser';
import { benchFollowerPolls, FOLLOWER_WINDOW } from './follower-polls';
import { mountReview } from '@extraction-review/app-server/review/http/mount-review';

const DOCUMENTS = 100_000;
const OPERATORS = 20;
const ROUNDS_PER_OPERATOR = 10;
const PASSWORD = 'bench password 1234';

interface Figures {
  firstPage: number[];
  toReviewPage: number[];
  searchPage: number[];
  baseline: number[];
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

async function seed(review: OpenedReview): Promise<void> {
  const now = Date.now();
  const batch = 1_000;
  for (let start = 0; start < DOCUMENTS; start += batch) {
    const rows = Array.from({ length: batch }, (_, i) => {
      const n = start + i;
      // A queue as a team has it: most decided, the recent ones waiting.
      const waiting = n >= DOCUMENTS - 2_000;
      return {
        id: randomUUID(),
        api_version: 'v2' as const,
        model_key: n % 3 === 0 ? 'model-receipts' : 'model-invoices',
        file_name: `invoice-${String(n).padStart(6, '0')}.pdf`,
        alias: n % 7 === 0 ? `batch ${n % 100}` : null,
        mime_type: 'application/pdf',
        file_key: null,
        file_bytes: null,
        file_sha256: null,
        upstream_job_id: randomUUID(),
        upstream_result_id: null,
        uploaded_by: null,
        state: waiting ? ('to_review' as const) : ('confirmed' as const),
        holder_id: null,
        lease_expires_at: null,
        previous_holder_id: null,
        decided_by: null,
        decided_at: waiting ? null : now - (DOCUMENTS - n) * 1000,
        reason: null,
        priority: 0,
        version: 3,
        fields_total: 12,
        fields_to_review: n % 5,
        result_json: '{"inference":{"result":{"fields":{}}}}',
        error_json: null,
        created_at: now - (DOCUMENTS - n) * 1000,
        updated_at: now,
        ready_at: now - (DOCUMENTS - n) * 1000 + 500,
      };
    });
    await review.database.db.insertInto('documents').values(rows).execute();
  }
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

async function call(base: string, client: Client, method: string, pathname: string, body?: unknown) {
  const response = await fetch(`${base}${pathname}`, {
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
    throw new Error(`${method} ${pathname}: ${response.status} ${text.slice(0, 200)}`);
  return text === '' ? undefined : (JSON.parse(text) as unknown);
}

/** One operator: next, then confirm, `rounds` times. */
async function work(base: string, client: Client, rounds: number, into: Figures['alone']): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    const taken = (await timed(into.next, () => call(base, client, 'POST', '/api/review/next'))) as
      { document: { id: string; version: number } } | undefined;
    if (taken === undefined) return;
    await timed(into.confirm, () =>
      call(base, client, 'POST', `/api/review/documents/${taken.document.id}/confirm`, {
        version: taken.document.version,
      }),
    );
  }
}

async function benchEngine(engine: Engine, databaseUrl: string | undefined): Promise<Figures> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `bench-queue-${engine}-`));
  const review = await openReview({ databaseUrl, dataDir, leaseMs: 600_000 });
  let server: RunningServer | undefined;
  try {
    const seeding = performance.now();
    await seed(review);
    console.log(`  ${engine}: ${DOCUMENTS} documents seeded in ${ms(performance.now() - seeding)}`);
    const hash = await hashPassword(PASSWORD);
    for (let i = 0; i < OPERATORS; i++) {
      await review.operators.create({ name: `op-${i}`, role: 'operator', passwordHash: hash }, Date.now());
    }
    server = await listen(createApp({ upstream: {}, staticDir: null, review: mountReview(review) }), {
      host: '127.0.0.1',
      port: 0,
    });
    const base = server.url;
    const clients = await Promise.all(Array.from({ length: OPERATORS }, (_, i) => signIn(base, `op-${i}`)));
    const [first] = clients;
    if (first === undefined) throw new Error('no client');

    const figures: Figures = {
      firstPage: [],
      toReviewPage: [],
      searchPage: [],
      baseline: [],
      alone: { next: [], confirm: [] },
      together: { next: [], confirm: [] },
    };
    // Warm up, then measure.
    for (let i = 0; i < 5; i++) await call(base, first, 'GET', '/api/review/documents?limit=50');
    for (let i = 0; i < 40; i++) {
      await timed(figures.baseline, () => call(base, first, 'GET', '/api/session'));
      await timed(figures.firstPage, () => call(base, first, 'GET', '/api/review/documents?limit=50'));
      await timed(figures.toReviewPage, () =>
        call(base, first, 'GET', '/api/review/documents?limit=50&state=to_review'),
      );
      await timed(figures.searchPage, () =>
        call(base, first, 'GET', '/api/review/documents?limit=50&q=invoice-0999'),
      );
    }
    await work(base, first, ROUNDS_PER_OPERATOR * 2, figures.alone);
    await Promise.all(clients.map((client) => work(base, client, ROUNDS_PER_OPERATOR, figures.together)));
    return figures;
  } finally {
    await server?.close();
    await review.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export async function benchQueue(): Promise<void> {
  const cluster = await startPostgresCluster();
  try {
    const results: [Engine, Figures][] = [
      ['sqlite', await benchEngine('sqlite', undefined)],
      ['postgres', await benchEngine('postgres', cluster.url)],
    ];
    const p = (values: number[], q: number) => ms(percentile(values, q));
    const rows: string[][] = [['figure', ...results.map(([engine]) => `${engine} p50 / p95`), 'aim']];
    const row = (label: string, pick: (f: Figures) => number[], aim: string) =>
      rows.push([label, ...results.map(([, f]) => `${p(pick(f), 50)} / ${p(pick(f), 95)}`), aim]);
    row(`queue's first page (50 of ${DOCUMENTS}, with counts)`, (f) => f.firstPage, '< 100 ms');
    row('  filtered: to review', (f) => f.toReviewPage, '< 100 ms');
    row('  filtered: a name search', (f) => f.searchPage, '< 100 ms');
    row('  baseline: GET /api/session (same sign-in check)', (f) => f.baseline, '');
    row(`next, ${OPERATORS} operators at once`, (f) => f.together.next, 'p95 < 50 ms');
    row(`confirm, ${OPERATORS} operators at once`, (f) => f.together.confirm, 'p95 < 50 ms');
    row('  baseline: next, one operator alone', (f) => f.alone.next, '');
    row('  baseline: confirm, one operator alone', (f) => f.alone.confirm, '');
    console.log(`\n${table(rows)}`);
    console.log(
      '\n(Times seen by a client on the same machine over HTTP: server time plus a loopback round trip. ' +
        "The review's first page drawn after confirm-and-next is measured in Chromium: below.)",
    );

    const { jobs, windowMs, stepMs } = FOLLOWER_WINDOW;
    console.log(
      `\nJob follower: upstream polls per processing job, ${jobs} jobs kept processing for ` +
        `${windowMs / 60_000} min (simulated clock, every copy looking each ${stepMs} ms), PostgreSQL…`,
    );
    const polls = await benchFollowerPolls(cluster.url);
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
  } finally {
    await cluster.stop();
  }

  console.log('\nConfirm and next in Chromium (production build, the real app server)…');
  await benchQueueBrowser();
}
