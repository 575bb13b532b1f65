/**
 * JobService with a scripted extractor: deadlines (running and queued jobs), the job-finished hook and
 * the webhook deliveries seam, and a clean stop that leaves jobs to resume.
 */
import path from 'node:path';
import { writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WebhookResponse } from '@extraction-review/document-text/api-types';
import { DEFAULT_MODELS_FILE } from '../create-reference-service';
import type { DocumentText, Extractor } from '@extraction-review/document-text/extractor';
import { loadModelCatalog, type Model, type ModelCatalog } from '../models/model-catalog';
import { FileStore } from '../store/file-store';
import type { InferenceRecord, JobRecord } from '../store/job-store';
import { SqliteJobStore } from '../store/sqlite-job-store';
import { manualClock } from '@extraction-review/test-kit/manual-clock';
import { INVOICE_MODEL_ID, makeDataDir } from '@extraction-review/test-kit/reference/reference-harness';
import { JobService } from './job-service';
import { resolveJobOptions } from './job-options';

const ONE_WORD: DocumentText = {
  pageCount: 1,
  pages: [
    {
      index: 0,
      width: 100,
      height: 100,
      words: [{ text: 'Hello', box: { x0: 0.1, y0: 0.1, x1: 0.2, y1: 0.12 }, confidence: 1 }],
    },
  ],
};

/** Answers at once for files named `quick-*`, never (until aborted) for the others. */
class ScriptedExtractor implements Extractor {
  started: string[] = [];
  accepts(): boolean {
    return true;
  }
  extract(file: { path: string }, signal?: AbortSignal): Promise<DocumentText> {
    this.started.push(path.basename(file.path));
    if (path.basename(file.path).startsWith('quick-')) return Promise.resolve(ONE_WORD);
    return new Promise((_, reject) => {
      signal?.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
    });
  }
}

let data: Awaited<ReturnType<typeof makeDataDir>>;
let files: FileStore;
let store: SqliteJobStore;
let catalog: ModelCatalog;
let model: Model;
let extractor: ScriptedExtractor;

beforeEach(async () => {
  data = await makeDataDir();
  files = new FileStore(path.join(data.dir, 'files'));
  await files.init();
  store = new SqliteJobStore(path.join(data.dir, 'reference.sqlite'));
  catalog = await loadModelCatalog(DEFAULT_MODELS_FILE);
  const found = catalog.find(INVOICE_MODEL_ID);
  if (!found) throw new Error('no invoice model');
  model = found;
  extractor = new ScriptedExtractor();
});
afterEach(async () => {
  store.close();
  await data.remove();
});

async function enqueue(service: JobService, id: string): Promise<JobRecord> {
  await writeFile(files.pathOf(id), 'x');
  return service.enqueue({
    id,
    model,
    filename: `${id}.pdf`,
    alias: null,
    mimeType: 'application/pdf',
    fileSize: 1,
    options: resolveJobOptions(model),
    webhookIds: [],
  });
}

const until = async (check: () => boolean, ms = 5000): Promise<void> => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

const T0 = Date.UTC(2026, 10, 25, 9, 0, 0);

describe('JobService', () => {
  it('fails a running job at its deadline, counted from its creation', async () => {
    const clock = manualClock(T0);
    const service = new JobService({
      store,
      files,
      models: catalog,
      extractor,
      processingTimeoutMs: 150,
      clock,
    });
    const stuck = await enqueue(service, 'stuck-1');
    await until(() => extractor.started.length === 1);
    // Running: the service's clock when its timer fires (the timer itself runs on real time).
    clock.advance(150);
    await until(() => store.findJob(stuck.id)?.status !== 'Processing');
    const failed = store.findJob(stuck.id);
    expect(failed).toMatchObject({
      status: 'Failed',
      error: {
        code: '500-003',
        title: 'Processing timed out',
        detail: 'Processing did not finish within 150 ms.',
      },
    });
    expect(failed?.createdAt).toBe(new Date(T0).toISOString());
    expect(failed?.completedAt).toBe(new Date(T0 + 150).toISOString());
    await service.close();
  });

  it('fails, without starting it, a job whose time ran out while the service was down', async () => {
    // Created 10 s before the service's clock says it resumes, with 5 s to finish.
    const past = new Date(T0 - 10_000).toISOString();
    await writeFile(files.pathOf('quick-old'), 'x');
    const base = {
      modelId: model.id,
      alias: null,
      mimeType: 'application/pdf',
      fileSize: 1,
      options: resolveJobOptions(model),
      webhookIds: [],
      attempts: 0,
      createdAt: past,
      completedAt: null,
      status: 'Processing' as const,
      inferenceId: null,
      error: null,
    };
    store.insertJob({ ...base, id: 'quick-old', filename: 'old.pdf' });
    const service = new JobService({
      store,
      files,
      models: catalog,
      extractor,
      processingTimeoutMs: 5000,
      clock: manualClock(T0),
    });
    expect(service.resumeInterrupted()).toEqual({ resumed: 1, failed: 0 });
    await until(() => store.findJob('quick-old')?.status !== 'Processing');
    expect(store.findJob('quick-old')).toMatchObject({ status: 'Failed', error: { code: '500-003' } });
    expect(extractor.started).toEqual([]);
    await service.close();
  });

  it('tells the finished hook once per job, and gives webhooks only once a job is final', async () => {
    const finished: [JobRecord, InferenceRecord | undefined][] = [];
    const delivered: WebhookResponse[] = [
      { id: 'w', created_at: null, status: 'Processed', error: null, attempts_count: 1 },
    ];
    const service = new JobService({
      store,
      files,
      models: catalog,
      extractor,
      processingTimeoutMs: 200,
      onFinished: (job, inference) => {
        finished.push([job, inference]);
        throw new Error('a failing hook does not fail the job');
      },
      webhookDeliveries: { deliveriesFor: () => delivered },
    });
    const quick = await enqueue(service, 'quick-1');
    expect(service.webhooksOf(quick)).toEqual([]);
    const stuck = await enqueue(service, 'stuck-2');
    await until(() => finished.length === 2);
    const byId = new Map(finished.map(([job, inference]) => [job.id, { job, inference }]));
    expect(byId.get(quick.id)?.job.status).toBe('Processed');
    expect(byId.get(quick.id)?.inference?.body.job.id).toBe(quick.id);
    expect(byId.get(stuck.id)?.job.status).toBe('Failed');
    expect(byId.get(stuck.id)?.inference).toBeUndefined();
    const stored = store.findJob(quick.id);
    expect(stored && service.webhooksOf(stored)).toEqual(delivered);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(finished).toHaveLength(2);
    await service.close();
  });

  it('leaves the job under way Processing at a clean stop, with its start not counted', async () => {
    const service = new JobService({ store, files, models: catalog, extractor, concurrency: 1 });
    const stuck = await enqueue(service, 'stuck-3');
    await until(() => extractor.started.length === 1);
    expect(store.findJob(stuck.id)?.attempts).toBe(1);
    await service.close();
    expect(store.findJob(stuck.id)).toMatchObject({ status: 'Processing', attempts: 0 });
  });
});
