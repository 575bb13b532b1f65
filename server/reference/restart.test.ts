/**
 * A restart in the middle of a job: the job is neither lost nor left `Processing` for ever.
 * - A clean stop (close, SIGTERM) interrupts the job under way; the next start resumes it, with the
 *   options it was enqueued with.
 * - A crash (SIGKILL of a real `npm run reference` process) mid-job: the next start resumes it.
 * - A job whose processing was started and never ended MAX_ATTEMPTS times is failed, not retried.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS } from './jobs/job-service';
import { resolveJobOptions } from './jobs/job-options';
import { newJob } from './jobs/job-state';
import { loadModelCatalog } from './models/model-catalog';
import { FileStore } from './store/file-store';
import { SqliteJobStore } from './store/sqlite-job-store';
import { DEFAULT_MODELS_FILE } from './create-reference-service';
import { expectExtractionResponse, expectJobResponse } from '@extraction-review/test-kit/reference/contract';
import { generatePdf } from '@extraction-review/test-kit/reference/generate-pdf';
import {
  enqueue,
  get,
  INVOICE_MODEL_ID,
  makeDataDir,
  startTestService,
  waitForJob,
} from '@extraction-review/test-kit/reference/reference-harness';
import { startReferenceProcess } from '@extraction-review/test-kit/reference/reference-process';

/** Many pages of text: processing takes long enough to be interrupted. */
const longPdf = () =>
  generatePdf(
    Array.from({ length: 150 }, (_, i) => ({
      lines: [
        ...(i === 0 ? [{ text: 'Invoice number: LONG-1', x: 72, y: 760 }] : []),
        ...Array.from({ length: 2 }, (_, j) => ({
          text: `Page ${i + 1} line ${j + 1} lorem ipsum dolor`,
          x: 72,
          y: 740 - j * 16,
        })),
      ],
    })),
  );

/** The job row as stored, read beside the running service (WAL allows it). */
function storedJob(dataDir: string, jobId: string): { status: string; attempts: number } | undefined {
  const db = new Database(path.join(dataDir, 'reference.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare<[string], { status: string; attempts: number }>(
        'SELECT status, attempts FROM jobs WHERE id = ?',
      )
      .get(jobId);
  } finally {
    db.close();
  }
}

describe('restart in the middle of a job', () => {
  it('resumes the jobs a clean stop interrupted, with their options', async () => {
    const data = await makeDataDir();
    try {
      const first = await startTestService(data.dir, { concurrency: 1 });
      const long = expectJobResponse(
        await (
          await enqueue(first, {
            modelId: INVOICE_MODEL_ID,
            file: { bytes: (await longPdf()).bytes, name: 'long.pdf' },
          })
        ).json(),
      ).job;
      const replaced = {
        replace: {
          fields: [
            {
              name: 'invoice_id',
              title: 'Invoice Number',
              is_array: false,
              type: 'string',
              description: 'Its number.',
            },
          ],
        },
      };
      const queued = expectJobResponse(
        await (
          await enqueue(first, {
            modelId: INVOICE_MODEL_ID,
            file: { bytes: (await longPdf()).bytes, name: 'queued.pdf' },
            fields: {
              raw_text: 'false',
              confidence: 'false',
              data_schema: JSON.stringify(replaced),
              alias: 'q',
            },
          })
        ).json(),
      ).job;
      // The first is under way when the service stops.
      const started = Date.now() + 30_000;
      while (storedJob(data.dir, long.id)?.attempts !== 1) {
        if (Date.now() > started) throw new Error('processing did not start');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await first.close();
      // Both still Processing; the interrupted one's start is not counted against it.
      expect(storedJob(data.dir, long.id)).toEqual({ status: 'Processing', attempts: 0 });
      expect(storedJob(data.dir, queued.id)).toEqual({ status: 'Processing', attempts: 0 });

      const second = await startTestService(data.dir, { concurrency: 1 });
      try {
        const resumed = await waitForJob(second, long.id, 120_000);
        expect(resumed.status).toBe('Processed');
        const done = await waitForJob(second, queued.id, 120_000);
        expect(done.status).toBe('Processed');
        const { inference } = expectExtractionResponse(await (await get(done.result_url ?? '')).json());
        expect(inference.active_options).toMatchObject({
          raw_text: false,
          confidence: false,
          polygon: true,
          data_schema: { replace: true },
        });
        expect(Object.keys(inference.result.fields)).toEqual(['invoice_id']);
        expect(inference.result.fields['invoice_id']).toMatchObject({ value: 'LONG-1', confidence: null });
        expect(inference.file.alias).toBe('q');
      } finally {
        await second.close();
      }
    } finally {
      await data.remove();
    }
  });

  it('resumes a job after the process is killed mid-way (SIGKILL)', async () => {
    const data = await makeDataDir();
    const env = { REFERENCE_DATA_DIR: data.dir, REFERENCE_CONCURRENCY: '1' };
    let first = await startReferenceProcess(env);
    try {
      const response = await enqueue(first, {
        modelId: INVOICE_MODEL_ID,
        file: { bytes: (await longPdf()).bytes, name: 'long.pdf' },
      });
      const { job } = expectJobResponse(await response.json());
      // Wait for processing to start, then pull the plug.
      const deadline = Date.now() + 30_000;
      while (storedJob(data.dir, job.id)?.attempts !== 1) {
        if (Date.now() > deadline) throw new Error('processing did not start');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await first.kill('SIGKILL');
      expect(storedJob(data.dir, job.id)).toEqual({ status: 'Processing', attempts: 1 });

      first = await startReferenceProcess(env);
      expect(first.output()).toMatch(/interrupted jobs from the previous run: 1 resumed, 0 failed/);
      const done = await waitForJob(first, job.id, 120_000);
      expect(done.status).toBe('Processed');
      expect(storedJob(data.dir, job.id)).toEqual({ status: 'Processed', attempts: 2 });
    } finally {
      await first.kill('SIGKILL');
      await data.remove();
    }
  });

  it(`fails a job whose processing never ended ${MAX_ATTEMPTS} times`, async () => {
    const data = await makeDataDir();
    try {
      const files = new FileStore(path.join(data.dir, 'files'));
      await files.init();
      const store = new SqliteJobStore(path.join(data.dir, 'reference.sqlite'));
      const model = (await loadModelCatalog(DEFAULT_MODELS_FILE)).find(INVOICE_MODEL_ID);
      if (!model) throw new Error('no invoice model');
      const pdf = (await longPdf()).bytes;
      const job = newJob({
        id: '7a1c1d5e-3a53-4a0e-9d3b-0c3c1f1e0a01',
        modelId: INVOICE_MODEL_ID,
        filename: 'poison.pdf',
        alias: null,
        mimeType: 'application/pdf',
        fileSize: pdf.length,
        options: resolveJobOptions(model),
        at: new Date(),
      });
      store.insertJob(job);
      for (let i = 0; i < MAX_ATTEMPTS; i++) store.startAttempt(job.id);
      store.close();
      await writeFile(files.pathOf(job.id), pdf);

      const service = await startTestService(data.dir);
      try {
        const failed = await waitForJob(service, job.id);
        expect(failed).toMatchObject({
          status: 'Failed',
          error: {
            status: 500,
            code: '500-004',
            title: 'Processing interrupted',
            detail: `The reference service stopped ${MAX_ATTEMPTS} times while processing this job; it is not tried again.`,
          },
        });
      } finally {
        await service.close();
      }
    } finally {
      await data.remove();
    }
  });
});
