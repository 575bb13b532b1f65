/**
 * `npm run bench -- gateway`: what the app server's gateway (`/v2`, `/v1` for pipelines, with an
 * integration key) adds to a pipeline's calls, beside the same calls made straight to the upstream
 * (the reference service) in the same run, interleaved so that both see the same background load:
 *
 * - enqueue of a 1-page text PDF (the gateway checks the key, tees the body into the review store's
 *   intake, keeps the document before it answers, the file saved durably and the row committed
 *   (docs/gateway.md, "Durability"), rewrites the answer's URLs);
 * - the result fetch `GET /v2/inferences/{id}` (key check, URL rewriting of a whole inference);
 * - 20 pipelines at once, each enqueueing 1 MB files (p95 enqueue), through the gateway and straight.
 *
 * The review store is the embedded one (SQLite), as `npm start` runs it. Figures are printed, never
 * asserted. Aim (issue 11): under 10 ms p95 added. What keeping before the answer costs is also shown
 * on its own: the document row's commit (`addDocument`), which the answer now waits for.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { createApp } from '@extraction-review/app-server/create-app';
import { listen } from '@extraction-review/app-server/listen';
import { startReferenceService } from '@extraction-review/reference/create-reference-service';
import { mountReview } from '@extraction-review/app-server/review/http/mount-review';
import { JobFollower } from '@extraction-review/app-server/review/intake/job-follower';
import { openReview } from '@extraction-review/app-server/review/open-review';
import { ms, percentile, table } from './stats';

const MODEL_ID = 'b4e6af9b-dfe5-44c8-9ae8-22225d8d2d5a';
const REFERENCE_KEY = 'bench-reference-key';
const ROUNDS = 60;
const FETCHES = 200;
const PIPELINES = 20;
/** Rounds of the 20 pipelines, one 1 MB file each per round. */
const FILES_PER_PIPELINE = 3;

async function textPdf(paddingBytes = 0): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  page.drawText('Invoice number: BENCH-1', { x: 72, y: 760, size: 12, font });
  page.drawText('Total: 1,234.50', { x: 72, y: 740, size: 12, font });
  // A 1 MB file whose extraction stays a text-layer one: the bytes ride as an attachment.
  if (paddingBytes > 0) {
    // Random, so that no compression shrinks it.
    await doc.attach(randomBytes(paddingBytes), 'padding.bin', { mimeType: 'application/octet-stream' });
  }
  return doc.save({ useObjectStreams: false });
}

async function enqueue(base: string, key: string, pdf: Uint8Array, name: string): Promise<string> {
  const form = new FormData();
  form.set('model_id', MODEL_ID);
  form.set('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), name);
  const answer = await fetch(`${base}/v2/products/extraction/enqueue`, {
    method: 'POST',
    headers: { Authorization: key },
    body: form,
  });
  if (answer.status !== 202) throw new Error(`enqueue answered ${answer.status}: ${await answer.text()}`);
  return ((await answer.json()) as { job: { id: string } }).job.id;
}

async function timed(samples: number[], run: () => Promise<unknown>): Promise<void> {
  const start = performance.now();
  await run();
  samples.push(performance.now() - start);
}

async function waitForInference(base: string, key: string, jobId: string): Promise<string> {
  for (let attempt = 0; attempt < 600; attempt += 1) {
    const answer = await fetch(`${base}/v2/jobs/${jobId}?redirect=false`, {
      headers: { Authorization: key },
    });
    const { job } = (await answer.json()) as { job: { status: string; result_url?: string | null } };
    if (job.status === 'Processed' && job.result_url) return job.result_url.split('/').at(-1) ?? '';
    if (job.status === 'Failed') throw new Error(`job ${jobId} failed`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`job ${jobId} never finished`);
}

export async function benchGateway(): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-gateway-'));
  const reference = await startReferenceService({
    host: '127.0.0.1',
    port: 0,
    apiKey: REFERENCE_KEY,
    dataDir: path.join(dir, 'reference'),
    rateLimits: { postPerWindow: 0, getPerWindow: 0 },
  });
  const review = await openReview({ dataDir: path.join(dir, 'app') });
  const { key } = await review.integrations.create({ name: 'bench' }, Date.now());
  // The row's commit, timed where the intake calls it: the part of the answer's wait that is the store's.
  const commits: number[] = [];
  const addDocument = review.queue.addDocument.bind(review.queue);
  review.queue.addDocument = async (...args) => {
    const start = performance.now();
    try {
      return await addDocument(...args);
    } finally {
      commits.push(performance.now() - start);
    }
  };
  const upstream = { url: reference.url, apiKey: REFERENCE_KEY };
  const follower = new JobFollower({ review, upstream: { v2: upstream, v1: upstream } });
  follower.start();
  const server = await listen(
    createApp({
      upstream: { v2: upstream, v1: upstream },
      staticDir: null,
      review: mountReview(review, {
        intake: { tempDir: path.join(dir, 'app', 'incoming'), onDocument: (id) => follower.follow(id) },
      }),
    }),
    { host: '127.0.0.1', port: 0 },
  );
  const straight = { base: reference.url, key: REFERENCE_KEY };
  const gateway = { base: server.url, key };

  try {
    const small = await textPdf();
    const large = await textPdf(1024 * 1024);
    console.log(
      `Upstream: the reference service; review store: embedded SQLite. Files: ${small.byteLength} B and ` +
        `${(large.byteLength / 1024 / 1024).toFixed(2)} MB text PDFs.`,
    );
    /** Every upload the gateway answered is kept and its result in (or the wait gives up). */
    const intakeSettled = async () => {
      for (let i = 0; i < 600; i += 1) {
        const pending = await review.database.db
          .selectFrom('documents')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('state', '=', 'processing')
          .executeTakeFirstOrThrow();
        if (Number(pending.n) === 0) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    // Warm both paths (connections, JIT, the first extraction thread).
    for (const target of [straight, gateway]) await enqueue(target.base, target.key, small, 'warm.pdf');

    const enqueueTimes = { straight: [] as number[], gateway: [] as number[] };
    for (let i = 0; i < ROUNDS; i += 1) {
      await timed(enqueueTimes.straight, () => enqueue(straight.base, straight.key, small, `s-${i}.pdf`));
      await timed(enqueueTimes.gateway, () => enqueue(gateway.base, gateway.key, small, `g-${i}.pdf`));
    }

    // Sent through the gateway: an inference is the integration's only if it came through with its key.
    const jobId = await enqueue(gateway.base, gateway.key, small, 'result.pdf');
    const inferenceId = await waitForInference(gateway.base, gateway.key, jobId);
    const fetchTimes = { straight: [] as number[], gateway: [] as number[] };
    const fetchResult = async (target: { base: string; key: string }) => {
      const answer = await fetch(`${target.base}/v2/inferences/${inferenceId}`, {
        headers: { Authorization: target.key },
      });
      if (answer.status !== 200) throw new Error(`result answered ${answer.status}`);
      await answer.arrayBuffer();
    };
    for (let i = 0; i < FETCHES; i += 1) {
      await timed(fetchTimes.straight, () => fetchResult(straight));
      await timed(fetchTimes.gateway, () => fetchResult(gateway));
    }

    // Rounds of 20 pipelines sending one file each, straight then through the gateway, the upstream's
    // jobs (and the gateway's intake) finished between rounds so that each starts from the same idle.
    const together = { straight: [] as number[], gateway: [] as number[] };
    for (let round = 0; round < FILES_PER_PIPELINE; round += 1) {
      for (const [name, target] of [
        ['straight', straight],
        ['gateway', gateway],
      ] as const) {
        const jobs = await Promise.all(
          Array.from({ length: PIPELINES }, async (_, p) => {
            let job = '';
            await timed(together[name], async () => {
              job = await enqueue(target.base, target.key, large, `${name}-${round}-${p}.pdf`);
            });
            return job;
          }),
        );
        for (const job of jobs) await waitForInference(straight.base, straight.key, job);
        await intakeSettled();
      }
    }

    const row = (name: string, times: { straight: number[]; gateway: number[] }) => {
      const p50 = (values: number[]) => percentile(values, 50);
      const p95 = (values: number[]) => percentile(values, 95);
      return [
        name,
        ms(p50(times.gateway)),
        ms(p95(times.gateway)),
        ms(p50(times.straight)),
        ms(p95(times.straight)),
        ms(p95(times.gateway) - p95(times.straight)),
      ];
    };
    console.log(
      table([
        ['figure', 'gateway p50', 'gateway p95', 'straight p50', 'straight p95', 'added p95 (aim < 10 ms)'],
        row(`enqueue, 1 page (${ROUNDS}×)`, enqueueTimes),
        row(`result fetch (${FETCHES}×)`, fetchTimes),
        row(`enqueue 1 MB, ${PIPELINES} pipelines at once (${PIPELINES * FILES_PER_PIPELINE}×)`, together),
      ]),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    await intakeSettled();
    const kept = await review.database.db
      .selectFrom('documents')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('integration_id', 'is not', null)
      .executeTakeFirstOrThrow();
    console.log(`Documents kept by the gateway's intake: ${Number(kept.n)}.`);
    console.log(
      `The row's commit before each answer (${commits.length}×): p50 ${ms(percentile(commits, 50))}, ` +
        `p95 ${ms(percentile(commits, 95))}.`,
    );
  } finally {
    await follower.stop();
    await server.close();
    await review.close();
    await reference.close();
    await rm(dir, { recursive: true, force: true });
  }
}
