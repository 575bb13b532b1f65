/**
 * Issue 19, "a 202 does not mean kept": a pipeline's `202` (v1 `201`/`202`) means its document and
 * file are in the review store, because the intake keeps an accepted upload before its answer leaves
 * (upload-recorder.ts, the proxy's `answered`). On both engines, each with the file storage it is
 * deployed with (SQLite: disk; PostgreSQL: the database, FILE_STORAGE's default with DATABASE_URL), the
 * app server alone in a child process (review-server-process.ts), and a real node:http upstream that
 * answers each enqueue once it has read the whole body:
 *
 * - 20 lanes of ~1 MB gateway uploads; the app server is killed (`SIGKILL`) mid-burst, then started
 *   again on the same store. Asserted: every upload that got a 202 is a document, tagged with the
 *   integration and the upstream, whose file is byte for byte what was sent (sha256 of the stored
 *   bytes); every document in the store is an upload the upstream completed (its job is one the
 *   upstream created, its file the one sent with its alias), whether or not its 202 got out; every
 *   whole file no document names is the file of an upload that got no 202, and with the writes cut
 *   short (`.part`s, `writing` files) there are at most one per lane; the sweep (no grace, heartbeats
 *   taken as stopped) removes them all and none of the acknowledged files. The restarted server keeps
 *   a new upload.
 * - Read the store the moment each answer arrives (gateway v2, v1 async and sync, the app's own /api/v2
 *   by a signed-in operator): the document row and its file are already there.
 * - An upload cut by its client before the 202 leaves no document and no file.
 * - When keeping fails (a file storage that refuses every write), the client gets `503-001`, not the
 *   upstream's 202, and nothing is left in the store.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { readdir } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReviewServerOptions } from '@extraction-review/test-kit/app/review-server-process';
import { nextMessage } from '@extraction-review/test-kit/app/review-server-client';
import { startUpstream, type TestUpstream } from '@extraction-review/test-kit/app/upstream';
import { hashPassword } from '../auth/passwords';
import type { DocumentRow } from '../db/schema';
import { openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { STALE_WRITE_MS } from '../files/database-file-storage';
import { FILE_KEY, type FileStorage, type FileStorageKind } from '../files/file-storage';
import { keptFilesDb } from '../db/kept-files-schema';
import { openFileStorage } from '../files/open-file-storage';
import { sweepOrphanFiles } from '../files/orphan-files';
import { openReview, type OpenedReview, type ReviewSettings } from '../open-review';
import { listenWithReview, signInOverHttp } from '@extraction-review/test-kit/review/review-over-http';
import { upstreamIdentity } from './upstream-identity';

const KiB = 1024;
const LANES = 20;
/** The kill comes after this many 202s, while the other lanes are mid-upload or mid-keep. */
const KILL_AFTER = 40;
const PASSWORD = 'correct horse battery staple';
const PDF_HEAD = Buffer.from(
  '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n',
  'latin1',
);

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A ~1 MB "PDF" of its own: a PDF head, then random bytes, so that every upload's sha256 differs. */
function documentBytes(size = 1024 * KiB): Buffer {
  return Buffer.concat([PDF_HEAD, randomBytes(size - PDF_HEAD.length)]);
}

/** What the upstream made of each request it read whole: the job it answered with. */
interface UpstreamJob {
  path: string;
  alias: string | undefined;
}

/**
 * The upstream: reads the whole body, then answers as the service does (v2 enqueue 202 `{job}`, v1
 * predict_async 202 `{job}`, v1 predict 201 `{document}`). A body cut short makes no job.
 */
async function startRecordingUpstream(jobs: Map<string, UpstreamJob>): Promise<TestUpstream> {
  let count = 0;
  return startUpstream(async (req, res) => {
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
    } catch {
      return;
    }
    if (!req.complete) return;
    const body = Buffer.concat(chunks).toString('latin1');
    const alias = /name="alias"\r\n\r\n([^\r]*)\r\n/.exec(body)?.[1];
    const url = req.url ?? '';
    count += 1;
    const id = `job-${count}-${randomBytes(4).toString('hex')}`;
    jobs.set(id, { path: url, alias });
    const sync = /\/predict\/?$/.test(url);
    res.writeHead(sync ? 201 : 202, { 'Content-Type': 'application/json' });
    res.end(
      JSON.stringify(
        sync
          ? {
              api_request: { status: 'success', status_code: 201 },
              document: { id, name: 'sync.pdf', inference: { prediction: {}, pages: [] } },
            }
          : { job: { id, status: 'Processing', alias: alias ?? null } },
      ),
    );
  });
}

interface Upload {
  alias: string;
  file: Buffer;
}

interface Sent extends Upload {
  status: number | undefined;
  jobId: string | undefined;
}

/** One multipart upload through fetch; a connection that dies is `status: undefined`. */
async function send(
  url: string,
  route: string,
  headers: Record<string, string>,
  upload: Upload,
  fileField = 'file',
): Promise<Sent> {
  const form = new FormData();
  if (fileField === 'file') form.set('model_id', 'model-kill');
  form.set('alias', upload.alias);
  form.set(
    fileField,
    new Blob([new Uint8Array(upload.file)], { type: 'application/pdf' }),
    `${upload.alias}.pdf`,
  );
  try {
    const answer = await fetch(`${url}${route}`, { method: 'POST', headers, body: form });
    const text = await answer.text();
    let jobId: string | undefined;
    try {
      const parsed = JSON.parse(text) as { job?: { id?: string }; document?: { id?: string } };
      jobId = parsed.job?.id ?? parsed.document?.id;
    } catch {
      jobId = undefined;
    }
    return { ...upload, status: answer.status, jobId };
  } catch {
    return { ...upload, status: undefined, jobId: undefined };
  }
}

function startServer(options: ReviewServerOptions): { child: ChildProcess; ready: Promise<string> } {
  const child = fork(
    path.join(import.meta.dirname, '../../../../packages/test-kit/src/app/review-server-process.ts'),
    [],
    {
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, REVIEW_SERVER_OPTIONS: JSON.stringify(options) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  return { child, ready: nextMessage(child, 'ready').then((message) => message.url) };
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  if (child.connected) child.disconnect();
  else child.kill('SIGTERM');
  await exited;
}

async function fileSha(files: FileStorage, key: string): Promise<string | undefined> {
  const opened = await files.open(key);
  if (opened === undefined) return undefined;
  const hash = createHash('sha256');
  for await (const chunk of opened.stream as Readable) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * What the storage holds, whatever its backend: each file's key, and whether it is whole (a saved file)
 * or a write cut short (a `.part` on disk, a `writing` file in the database).
 */
async function storedFiles(
  review: OpenedReview,
  kind: FileStorageKind,
  dataDir: string,
): Promise<{ key: string; whole: boolean }[]> {
  if (kind === 'database') {
    const rows = await keptFilesDb(review.database)
      .selectFrom('kept_files')
      .select(['key', 'state'])
      .execute();
    return rows.map((row) => ({ key: row.key, whole: row.state === 'complete' }));
  }
  const names = await readdir(path.join(dataDir, 'files')).catch(() => [] as string[]);
  return names.flatMap<{ key: string; whole: boolean }>((name) =>
    FILE_KEY.test(name)
      ? [{ key: name, whole: true }]
      : name.endsWith('.part')
        ? [{ key: name, whole: false }]
        : [],
  );
}

async function documentsOf(review: OpenedReview, integrationId: string): Promise<DocumentRow[]> {
  return review.database.db
    .selectFrom('documents')
    .selectAll()
    .where('integration_id', '=', integrationId)
    .execute();
}

// Each engine with the storage it is deployed with: SQLite with files on disk (the embedded default),
// PostgreSQL with files in the database (FILE_STORAGE's default when DATABASE_URL is set).
const SETUPS = [
  ['sqlite', 'disk'],
  ['postgres', 'database'],
] as const;

describe.each(SETUPS)('a 202 means kept, on %s with files on %s', (engine, storage) => {
  let store: TestStore;
  let settings: ReviewSettings;
  let upstream: TestUpstream;
  const jobs = new Map<string, UpstreamJob>();
  let key = '';
  let integrationId = '';
  let options: ReviewServerOptions;

  beforeAll(async () => {
    store = await openTestStore(engine);
    settings = { ...store.settings, fileStorage: { kind: storage } };
    const review = await openReview(settings);
    const created = await review.integrations.create({ name: 'Burst robot' }, Date.now());
    key = created.key;
    integrationId = created.integration.id;
    await review.operators.create(
      { name: 'Ada', role: 'operator', passwordHash: await hashPassword(PASSWORD) },
      Date.now(),
    );
    await review.close();
    upstream = await startRecordingUpstream(jobs);
    options = {
      store: settings,
      upstream: { url: upstream.url, apiKey: 'upstream-key' },
      intake: true,
    };
  }, 60_000);

  afterAll(async () => {
    await upstream?.close();
    await store?.cleanup();
  });

  it('kill -9 during 20 lanes of 1 MB gateway uploads: every 202 is kept byte for byte, nothing else but what the upstream took', async () => {
    const first = startServer(options);
    const url = await first.ready;
    const acknowledged: Sent[] = [];
    const unanswered: Sent[] = [];
    const sentFiles = new Map<string, Buffer>();
    let killed = false;
    let accepted = 0;

    const lane = async (index: number) => {
      for (let n = 0; !killed; n += 1) {
        const upload = { alias: `lane-${index}-${n}`, file: documentBytes() };
        sentFiles.set(upload.alias, upload.file);
        const sent = await send(url, '/v2/products/extraction/enqueue', { Authorization: key }, upload);
        if (sent.status === 202) {
          acknowledged.push(sent);
          accepted += 1;
          if (accepted === KILL_AFTER && !killed) {
            killed = true;
            first.child.kill('SIGKILL');
          }
        } else {
          // Answered otherwise only by the kill: the connection dies, or, never, a 503.
          expect(sent.status, `${sent.alias}: ${sent.status}`).toBeUndefined();
          unanswered.push(sent);
        }
      }
    };
    await Promise.all(Array.from({ length: LANES }, (_, index) => lane(index)));
    if (first.child.exitCode === null && first.child.signalCode === null) await once(first.child, 'exit');
    expect(first.child.signalCode).toBe('SIGKILL');

    // Started again on the same store, as after a crash.
    const second = startServer(options);
    const restartedUrl = await second.ready;
    const review = await openReview(settings);
    try {
      if (review.files === undefined) throw new Error('the store has no file storage');
      const files = review.files;
      const documents = await documentsOf(review, integrationId);
      const byJob = new Map(documents.map((row) => [row.upstream_job_id, row]));

      // Every 202: its document, tagged, its file byte for byte.
      for (const sent of acknowledged) {
        const row = byJob.get(sent.jobId ?? '');
        expect(row, `${sent.alias} (${sent.jobId}) got a 202`).toBeDefined();
        if (row === undefined) continue;
        expect(row.alias).toBe(sent.alias);
        expect(row.state).toBe('processing');
        expect(row.upstream_id).toBe(upstreamIdentity(upstream.url));
        expect(row.file_key).toBe(row.id);
        expect(row.file_bytes).toBe(sent.file.length);
        expect(row.file_sha256).toBe(sha256(sent.file));
        expect(await fileSha(files, row.id)).toBe(sha256(sent.file));
      }
      // Every document: an upload the upstream completed (its 202 may have been lost with the process).
      const acknowledgedJobs = new Set(acknowledged.map((sent) => sent.jobId));
      let keptUnacknowledged = 0;
      for (const row of documents) {
        const job = jobs.get(row.upstream_job_id ?? '');
        expect(job, `document ${row.id} names a job the upstream made`).toBeDefined();
        expect(row.alias).toBe(job?.alias);
        const file = sentFiles.get(row.alias ?? '');
        expect(file).toBeDefined();
        expect(await fileSha(files, row.id)).toBe(sha256(file ?? Buffer.alloc(0)));
        if (!acknowledgedJobs.has(row.upstream_job_id ?? undefined)) keptUnacknowledged += 1;
      }

      // In the storage: a whole file no document names is the file of an upload that got no 202.
      const named = new Set(documents.map((row) => row.file_key));
      const unansweredFiles = new Set(unanswered.map((sent) => sha256(sent.file)));
      let orphans = 0;
      let parts = 0;
      for (const file of await storedFiles(review, storage, store.settings.dataDir)) {
        if (!file.whole) parts += 1;
        else if (!named.has(file.key)) {
          orphans += 1;
          expect(unansweredFiles.has((await fileSha(files, file.key)) ?? '')).toBe(true);
        }
      }
      expect(orphans + parts).toBeLessThanOrEqual(LANES);
      console.info(
        `[kill-during-burst ${engine}, ${storage}] ${acknowledged.length} acknowledged, all kept; ` +
          `${unanswered.length} cut by the kill (${keptUnacknowledged} of them kept: taken upstream and ` +
          `committed, answer lost); ${orphans} orphan file(s) and ${parts} write(s) cut short in the ` +
          `storage; ${jobs.size} upstream jobs`,
      );
      expect(acknowledged.length).toBeGreaterThanOrEqual(KILL_AFTER);

      // What the kill cut short goes with the sweep (no grace; writes' heartbeats taken as stopped);
      // what was acknowledged stays.
      await sweepOrphanFiles({
        database: review.database,
        files: openFileStorage({ kind: storage, dataDir: store.settings.dataDir, database: review.database }),
        incomingDir: path.join(store.settings.dataDir, 'incoming'),
        now: Date.now() + STALE_WRITE_MS + 1,
        graceMs: 0,
      });
      const left = await storedFiles(review, storage, store.settings.dataDir);
      expect(left.filter((file) => !file.whole || !named.has(file.key))).toEqual([]);
      for (const sent of acknowledged) {
        const row = byJob.get(sent.jobId ?? '');
        expect(await fileSha(files, row?.id ?? '')).toBe(sha256(sent.file));
      }

      // The restarted server keeps the next upload as well.
      const after = await send(
        restartedUrl,
        '/v2/products/extraction/enqueue',
        { Authorization: key },
        {
          alias: 'after-restart',
          file: documentBytes(64 * KiB),
        },
      );
      expect(after.status).toBe(202);
      const kept = (await documentsOf(review, integrationId)).find(
        (row) => row.upstream_job_id === after.jobId,
      );
      expect(kept?.alias).toBe('after-restart');
    } finally {
      await review.close();
      await stopServer(second.child);
    }
  }, 120_000);

  it('each answer arrives with its document and file already in the store (gateway v2, v1, the app’s own upload)', async () => {
    const server = startServer(options);
    const url = await server.ready;
    const review = await openReview(settings);
    try {
      if (review.files === undefined) throw new Error('the store has no file storage');
      const files = review.files;
      const session = await signInOverHttp(url, 'Ada', PASSWORD);
      const asOperator = {
        Cookie: session.cookie,
        'X-CSRF-Token': session.csrf,
        Origin: url,
        'Sec-Fetch-Site': 'same-origin',
      };
      const routes = [
        {
          route: '/v2/products/extraction/enqueue',
          headers: { Authorization: key },
          field: 'file',
          status: 202,
        },
        {
          route: '/v1/products/mindee/invoices/v4/predict_async',
          headers: { Authorization: `Token ${key}` },
          field: 'document',
          status: 202,
        },
        {
          route: '/v1/products/mindee/invoices/v4/predict',
          headers: { Authorization: `Token ${key}` },
          field: 'document',
          status: 201,
        },
        { route: '/api/v2/products/extraction/enqueue', headers: asOperator, field: 'file', status: 202 },
        {
          route: '/api/v1/products/mindee/invoices/v4/predict_async',
          headers: asOperator,
          field: 'document',
          status: 202,
        },
      ];
      for (let round = 0; round < 3; round += 1) {
        for (const [index, target] of routes.entries()) {
          const upload = { alias: `at-once-${round}-${index}`, file: documentBytes(256 * KiB) };
          const sent = await send(url, target.route, target.headers, upload, target.field);
          expect(sent.status, target.route).toBe(target.status);
          // Read at once, before anything else runs: no waiting for the store to catch up.
          const column = target.route.endsWith('/predict') ? 'upstream_result_id' : 'upstream_job_id';
          const row = await review.database.db
            .selectFrom('documents')
            .selectAll()
            .where(column, '=', sent.jobId ?? '')
            .executeTakeFirst();
          expect(row, `${target.route}: the row is there when the answer arrives`).toBeDefined();
          expect(row?.file_sha256).toBe(sha256(upload.file));
          expect(await fileSha(files, row?.id ?? '')).toBe(sha256(upload.file));
          if (target.route.endsWith('/predict')) expect(row?.state).not.toBe('processing');
        }
      }
    } finally {
      await review.close();
      await stopServer(server.child);
    }
  }, 60_000);

  it('an upload cut by its client before the 202 leaves no document and no file', async () => {
    const server = startServer(options);
    const url = await server.ready;
    const review = await openReview(settings);
    try {
      const before = new Set(
        (await review.database.db.selectFrom('documents').select('id').execute()).map((r) => r.id),
      );
      const stored = async () => storedFiles(review, storage, store.settings.dataDir);
      const filesBefore = new Set((await stored()).map((file) => file.key));
      const reached = upstream.nextRequest('/v2/products/extraction/enqueue');
      // Half a multipart body, then the connection closed: raw TCP, so nothing else is sent.
      const { hostname, port } = new URL(url);
      const socket = net.connect({ host: hostname, port: Number(port) });
      await once(socket, 'connect');
      const boundary = 'cut-boundary-19';
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="model_id"\r\n\r\nmodel-kill\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="alias"\r\n\r\ncut-short\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.pdf"\r\n` +
          'Content-Type: application/pdf\r\n\r\n',
      );
      const half = Buffer.concat([head, documentBytes(512 * KiB)]);
      socket.write(
        `POST /v2/products/extraction/enqueue HTTP/1.1\r\nHost: ${hostname}:${port}\r\n` +
          `Authorization: ${key}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\n` +
          `Content-Length: ${half.length * 2}\r\n\r\n`,
      );
      socket.write(half);
      const request = await reached;
      socket.destroy();
      expect(await request.closed).toEqual({ complete: false });
      // The recorder's clean-up runs once the proxy has seen the cut: wait for its files to go.
      const named = async () =>
        new Set(
          (await review.database.db.selectFrom('documents').select('file_key').execute()).map(
            (r) => r.file_key,
          ),
        );
      let strays: string[] = [];
      for (let attempt = 0; attempt < 200; attempt += 1) {
        const kept = await named();
        strays = (await stored())
          .map((file) => file.key)
          .filter((key) => !kept.has(key) && !filesBefore.has(key));
        if (strays.length === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(strays).toEqual([]);
      const added = (
        await review.database.db.selectFrom('documents').select(['id', 'alias']).execute()
      ).filter((row) => !before.has(row.id));
      expect(added).toEqual([]);
    } finally {
      await review.close();
      await stopServer(server.child);
    }
  }, 60_000);

  it('when keeping fails the client gets 503-001, not the upstream’s 202, and nothing is left', async () => {
    const review = await openReview(settings);
    const refusing: FileStorage = {
      save: async (_key, source) => {
        source.resume();
        throw new Error('the disk is full');
      },
      open: async () => undefined,
      remove: async () => undefined,
    };
    const { server, follower } = await listenWithReview(
      { ...review, files: refusing },
      { dataDir: store.settings.dataDir, upstream: { url: upstream.url, apiKey: 'upstream-key' } },
    );
    try {
      const jobsBefore = jobs.size;
      const upload = { alias: 'not-kept', file: documentBytes(128 * KiB) };
      const v2 = await send(server.url, '/v2/products/extraction/enqueue', { Authorization: key }, upload);
      expect(v2.status).toBe(503);
      const v1 = await fetch(`${server.url}/v1/products/mindee/invoices/v4/predict_async`, {
        method: 'POST',
        headers: { Authorization: `Token ${key}` },
        body: (() => {
          const form = new FormData();
          form.set('document', new Blob([new Uint8Array(upload.file)], { type: 'application/pdf' }), 'x.pdf');
          return form;
        })(),
      });
      expect(v1.status).toBe(503);
      const envelope = (await v1.json()) as { api_request?: { error?: { code?: string } } };
      expect(envelope.api_request?.error?.code).toBe('503-001');
      // The upstream took both: the jobs exist there; the store has neither.
      expect(jobs.size).toBe(jobsBefore + 2);
      const rows = await review.database.db
        .selectFrom('documents')
        .select('id')
        .where('upstream_job_id', 'in', [...jobs.keys()].slice(jobsBefore))
        .execute();
      expect(rows).toEqual([]);
    } finally {
      await follower.stop();
      await server.close();
      await review.close();
    }
  }, 60_000);
});
