/**
 * Part of `npm run bench -- queue` (issue 19): the job follower's upstream polls per processing job,
 * with one app-server copy and with three on one PostgreSQL. Each copy is a JobFollower with its own
 * connection pool, as on its own machine; the upstream is a small HTTP server on 127.0.0.1 that counts
 * the polls and keeps every job `Processing`. Time is simulated: every copy looks at the store each
 * 250 ms of a five-minute window (all three at once), so the figure is the schedule's, not the
 * machine's: with the lease in the row each job is polled by one copy per due time, so three copies
 * should poll as often as one (before issue 19, each copy kept its own schedule: three times as often).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { v2JobBody } from '@extraction-review/test-kit/app/upstream';
import { JobFollower } from '@extraction-review/app-server/review/intake/job-follower';
import { upstreamIdentity } from '@extraction-review/app-server/review/intake/upstream-identity';
import {
  openReviewDatabase,
  type ReviewDatabase,
} from '@extraction-review/app-server/review/db/open-database';
import { QueueStore } from '@extraction-review/app-server/review/store/queue-store';

const JOBS = 20;
const WINDOW_MS = 5 * 60 * 1000;
const STEP_MS = 250;
const T0 = 1_800_000_000_000;

export interface FollowerPolls {
  copies: number;
  polls: number;
  perJob: number;
  /** Wall-clock time the simulated window took. */
  elapsedMs: number;
}

/** A v2 upstream whose jobs are all still processing; it counts the polls. */
async function countingUpstream(): Promise<{ url: string; polls: () => number; close: () => Promise<void> }> {
  let polls = 0;
  const server = http.createServer((req, res) => {
    if ((req.url ?? '').startsWith('/v2/jobs/')) polls++;
    res.writeHead(200, { 'Content-Type': 'application/json' });
    const job = (req.url ?? '').split('?')[0]?.split('/').at(-1) ?? '';
    res.end(JSON.stringify(v2JobBody(decodeURIComponent(job))));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    polls: () => polls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A fresh database named `name` in the cluster for `run` (its URL), dropped afterwards. */
export async function withDatabase<T>(
  clusterUrl: string,
  name: string,
  run: (url: string) => Promise<T>,
): Promise<T> {
  const admin = new pg.Client({ connectionString: clusterUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${name}`);
    await admin.query(`create database ${name}`);
    const url = new URL(clusterUrl);
    url.pathname = `/${name}`;
    return await run(url.toString());
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`).catch(() => undefined);
    await admin.end();
  }
}

async function measure(clusterUrl: string, copies: number): Promise<FollowerPolls> {
  return withDatabase(clusterUrl, `bench_follower_${copies}`, async (databaseUrl) => {
    const upstream = await countingUpstream();
    const databases: ReviewDatabase[] = [];
    try {
      for (let i = 0; i < copies; i++)
        databases.push(await openReviewDatabase({ databaseUrl, dataDir: '/nonexistent', maxConnections: 4 }));
      const [first] = databases;
      if (first === undefined) throw new Error('no copy');
      const seeding = new QueueStore(first, 60_000);
      for (let i = 0; i < JOBS; i++) {
        await seeding.addDocument(
          {
            apiVersion: 'v2',
            modelKey: 'bench-model',
            fileName: `job-${i}.pdf`,
            upstreamJobId: `job-${i}`,
            upstreamId: upstreamIdentity(upstream.url),
          },
          T0,
        );
      }
      let clock = T0;
      const followers = databases.map(
        (database) =>
          new JobFollower({
            review: { queue: new QueueStore(database, 60_000), database, clock: { now: () => clock } },
            upstream: { v2: { url: upstream.url, apiKey: 'bench-key' } },
          }),
      );
      const started = performance.now();
      for (clock = T0; clock <= T0 + WINDOW_MS; clock += STEP_MS) {
        await Promise.all(followers.map((follower) => follower.tick()));
      }
      const elapsedMs = performance.now() - started;
      await Promise.all(followers.map((follower) => follower.stop()));
      return { copies, polls: upstream.polls(), perJob: upstream.polls() / JOBS, elapsedMs };
    } finally {
      for (const database of databases) await database.close();
      await upstream.close();
    }
  });
}

/** Polls per processing job over the window, with one copy and with three. */
export async function benchFollowerPolls(clusterUrl: string): Promise<FollowerPolls[]> {
  return [await measure(clusterUrl, 1), await measure(clusterUrl, 3)];
}

export const FOLLOWER_WINDOW = { jobs: JOBS, windowMs: WINDOW_MS, stepMs: STEP_MS };
