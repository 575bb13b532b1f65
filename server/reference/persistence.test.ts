/**
 * The data directory outlives the process: jobs, their options and results survive a restart, and
 * jobs a previous run left Processing are resumed (file still there) or failed (file gone), never
 * left Processing. (restart.test.ts stops the service in the middle of a job.)
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { newJob } from './jobs/job-state';
import { FileStore } from './store/file-store';
import { SqliteJobStore } from './store/sqlite-job-store';
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

const invoice = () =>
  generatePdf([
    {
      lines: [
        { text: 'Invoice number: P-1', x: 72, y: 700 },
        { text: 'Total: 5.00', x: 72, y: 680 },
      ],
    },
  ]);

describe('persistence', () => {
  it('keeps jobs and results across a restart on the same data directory', async () => {
    const data = await makeDataDir();
    try {
      // A job that fails (a run with a 1 ms time-out), then one that is processed.
      const impatient = await startTestService(data.dir, { processingTimeoutMs: 1 });
      const failed = await waitForJob(
        impatient,
        expectJobResponse(
          await (
            await enqueue(impatient, {
              modelId: INVOICE_MODEL_ID,
              file: { bytes: (await invoice()).bytes, name: 'late.pdf' },
            })
          ).json(),
        ).job.id,
      );
      expect(failed.status).toBe('Failed');
      await impatient.close();

      const first = await startTestService(data.dir);
      const response = await enqueue(first, {
        modelId: INVOICE_MODEL_ID,
        file: { bytes: (await invoice()).bytes, name: 'p.pdf' },
        fields: { raw_text: 'false', alias: 'kept' },
      });
      const { job } = expectJobResponse(await response.json());
      const processed = await waitForJob(first, job.id);
      const result = await (await get(processed.result_url ?? '')).json();
      await first.close();

      const second = await startTestService(data.dir);
      try {
        expect(second.url).not.toBe(first.url);
        // Same job, same result; URLs in the new base, since they are written when answering.
        const rebase = (url: string | null) => url?.replace(first.url, second.url) ?? null;
        const poll = await get(`${second.url}/v2/jobs/${job.id}`);
        expect(poll.status).toBe(302);
        expect(expectJobResponse(await poll.json()).job).toEqual({
          ...processed,
          created_at: `${processed.created_at}Z`,
          completed_at: `${processed.completed_at}Z`,
          polling_url: rebase(processed.polling_url),
          result_url: rebase(processed.result_url),
        });
        expect(poll.headers.get('location')).toBe(rebase(processed.result_url));
        const again = await get(rebase(processed.result_url) ?? '');
        expect(await again.json()).toEqual(result);
        const { inference } = expectExtractionResponse(result);
        // The options it was enqueued with are kept with it.
        expect(inference.active_options.raw_text).toBe(false);
        expect(inference.file.alias).toBe('kept');

        const failedAgain = await get(`${second.url}/v2/jobs/${failed.id}`);
        expect(failedAgain.status).toBe(200);
        expect(((await failedAgain.json()) as { job: unknown }).job).toMatchObject({
          status: 'Failed',
          error: failed.error,
        });
      } finally {
        await second.close();
      }
    } finally {
      await data.remove();
    }
  });

  it('resumes jobs left Processing whose file is there, and fails those whose file is gone', async () => {
    const data = await makeDataDir();
    try {
      // What a run that stopped mid-way leaves behind: two Processing jobs, one upload, one half upload.
      const files = new FileStore(path.join(data.dir, 'files'));
      await files.init();
      const store = new SqliteJobStore(path.join(data.dir, 'reference.sqlite'));
      const pdf = (await invoice()).bytes;
      const common = {
        modelId: INVOICE_MODEL_ID,
        alias: null,
        mimeType: 'application/pdf',
        fileSize: pdf.length,
        at: new Date(),
      };
      const withFile = newJob({
        ...common,
        id: '6f1c1d5e-3a53-4a0e-9d3b-0c3c1f1e0a01',
        filename: 'kept.pdf',
      });
      const withoutFile = newJob({
        ...common,
        id: '6f1c1d5e-3a53-4a0e-9d3b-0c3c1f1e0a02',
        filename: 'lost.pdf',
      });
      store.insertJob(withFile);
      store.insertJob(withoutFile);
      store.close();
      await writeFile(files.pathOf(withFile.id), pdf);
      await writeFile(files.partPath('6f1c1d5e-3a53-4a0e-9d3b-0c3c1f1e0a03'), pdf.subarray(0, 100));

      const service = await startTestService(data.dir);
      try {
        const resumed = await waitForJob(service, withFile.id);
        expect(resumed.status).toBe('Processed');
        const { inference } = expectExtractionResponse(await (await get(resumed.result_url ?? '')).json());
        expect(inference.result.fields['invoice_number']).toMatchObject({ value: 'P-1' });

        const lost = await waitForJob(service, withoutFile.id);
        expect(lost).toMatchObject({
          status: 'Failed',
          error: {
            status: 500,
            code: '500-004',
            title: 'Processing interrupted',
            detail:
              'The reference service stopped while this job was processing, and its uploaded file is gone.',
          },
        });
        expect(existsSync(files.partPath('6f1c1d5e-3a53-4a0e-9d3b-0c3c1f1e0a03'))).toBe(false);
      } finally {
        await service.close();
      }
    } finally {
      await data.remove();
    }
  });
});
