/**
 * Work pending before migration 0006, on both engines: a store migrated by the release before (up to
 * 0005) holds a processing document and a pending delivery, with no job; this release opens it
 * (applying 0006, which carries nothing over) and its follower and worker adopt both at their first
 * pass: the job is polled once and the delivery sent once. Fake clock, a real upstream on 127.0.0.1.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUpstream, type TestUpstream } from '@extraction-review/test-kit/app/upstream';
import { prepareSchema, THIS_CODE, type SchemaCode } from '../db/migrate';
import { openReviewDatabase } from '../db/open-database';
import { ENGINES } from '@extraction-review/test-kit/review/test-stores';
import { FIRST_CHECK_MS, JobFollower } from '../intake/job-follower';
import { upstreamIdentity } from '../intake/upstream-identity';
import { QueueStore } from '../store/queue-store';
import { addDueRagDelivery } from '@extraction-review/test-kit/review/due-delivery';
import { openWithoutSchema } from '@extraction-review/test-kit/review/raw-review-database';
import { createTestDatabase, type TestDatabase } from '@extraction-review/test-kit/review/test-database';
import { DeliveryStore } from '../deliveries/delivery-store';
import { DeliveryWorker } from '../deliveries/delivery-worker';

const T0 = 1_800_000_000_000;

/** The release before this one: its migrations end at 0005. */
const before0006: SchemaCode = {
  // Every migration before 0006 (later ones, 0007 on, came after that release too).
  migrations: (engine) =>
    Object.fromEntries(Object.entries(THIS_CODE.migrations(engine)).filter(([name]) => name < '0006')),
  oldestCodeFor: THIS_CODE.oldestCodeFor,
  release: '0.0.9-before-0006',
};

describe.each(ENGINES)('work pending before migration 0006 on %s', (engine) => {
  let upstream: TestUpstream;
  let postgres: TestDatabase | undefined;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'before-0006-'));
    postgres = engine === 'postgres' ? await createTestDatabase() : undefined;
    upstream = await startUpstream((req, res) =>
      (req.url ?? '').startsWith('/v2/jobs/')
        ? answer(res, 200, { job: { status: 'Processing' } })
        : answer(res, 201, { ok: true }),
    );
  });
  afterAll(async () => {
    await upstream.close();
    await postgres?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('is adopted and done once by this release', async () => {
    const settings = { databaseUrl: postgres?.url, dataDir };
    const older = openWithoutSchema(settings);
    await prepareSchema(older, { migrate: true, code: before0006, report: () => undefined });
    const document = await new QueueStore(older, 60_000).addDocument(
      {
        apiVersion: 'v2',
        modelKey: 'model-a',
        fileName: 'a.pdf',
        upstreamJobId: 'job-a',
        upstreamId: upstreamIdentity(upstream.url),
      },
      T0,
    );
    const delivery = await addDueRagDelivery(older, document.id, T0);
    await older.close();

    const database = await openReviewDatabase({ ...settings, report: () => undefined });
    try {
      expect(await database.db.selectFrom('background_jobs').selectAll().execute()).toEqual([]);
      const clock = T0 + FIRST_CHECK_MS;
      const v2 = { url: upstream.url, apiKey: 'test-key' };
      const follower = new JobFollower({
        review: { queue: new QueueStore(database, 60_000), database, clock: { now: () => clock } },
        upstream: { v2 },
      });
      const worker = new DeliveryWorker({ database, clock: { now: () => clock }, upstream: { v2 } });
      await follower.tick();
      await follower.tick();
      await worker.drain();
      await worker.drain();
      expect(upstream.requests.map((r) => r.url.split('?')[0])).toEqual([
        '/v2/jobs/job-a',
        '/v2/extensions/rag/model-a/documents',
      ]);
      expect(await new DeliveryStore(database).find(delivery)).toMatchObject({
        state: 'delivered',
        attempts: 1,
      });
      await follower.stop();
      await worker.stop();
    } finally {
      await database.close();
    }
  });
});

function answer(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}
