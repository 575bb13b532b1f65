/**
 * Spec §3.3: a model may delete extracted data once it has been fetched. The fetch completes; any
 * later request for the inference answers 404 (404-002), the job's `result_url` included. Other models
 * keep their results.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReferenceService } from '../create-reference-service';
import {
  expectExtractionResponse,
  expectJobResponse,
  expectProblem,
} from '@extraction-review/test-kit/reference/contract';
import { generatePdf } from '@extraction-review/test-kit/reference/generate-pdf';
import {
  enqueue,
  get,
  INVOICE_MODEL_ID,
  makeDataDir,
  startTestService,
  waitForJob,
} from '@extraction-review/test-kit/reference/reference-harness';
import {
  FORGETFUL_MODEL_ID,
  TEST_MODELS_ENV,
  writeTestModels,
} from '@extraction-review/test-kit/reference/test-models';

let service: ReferenceService;
let data: Awaited<ReturnType<typeof makeDataDir>>;
let pdf: Uint8Array;

beforeAll(async () => {
  data = await makeDataDir();
  service = await startTestService(data.dir, {
    modelsFile: await writeTestModels(data.dir),
    env: TEST_MODELS_ENV,
  });
  pdf = (await generatePdf([{ lines: [{ text: 'Invoice number: DEL-1', x: 72, y: 700 }] }])).bytes;
});
afterAll(async () => {
  await service.close();
  await data.remove();
});

async function processedJob(modelId: string) {
  const response = await enqueue(service, { modelId, file: { bytes: pdf, name: 'd.pdf' } });
  const { job } = expectJobResponse(await response.json());
  const done = await waitForJob(service, job.id);
  expect(done.status).toBe('Processed');
  return done;
}

describe('delete_after_fetch', () => {
  it('completes the first fetch, then answers 404 for the inference and through the job', async () => {
    const job = await processedJob(FORGETFUL_MODEL_ID);
    const resultUrl = job.result_url ?? '';
    const first = await get(resultUrl);
    expect(first.status).toBe(200);
    const { inference } = expectExtractionResponse(await first.json());
    expect(inference.result.fields['invoice_number']).toMatchObject({ value: 'DEL-1' });
    // The uploaded document goes with it.
    expect(existsSync(path.join(data.dir, 'files', job.id))).toBe(false);

    const again = await get(resultUrl);
    expect(again.status).toBe(404);
    expect(expectProblem(await again.json())).toEqual({
      status: 404,
      title: 'Inference not found',
      code: '404-002',
      detail: `The inference ${inference.id} was deleted once fetched (its model deletes extracted data after the first fetch).`,
      errors: [],
    });

    // The job still says where the result was; following it leads to the same 404.
    const poll = await get(job.polling_url);
    expect(poll.status).toBe(302);
    expect(expectJobResponse(await poll.json()).job.result_url).toBe(resultUrl);
    expect((await get(poll.headers.get('location') ?? '')).status).toBe(404);
    expect((await get(`${service.url}/v2/inferences/${inference.id}`)).status).toBe(404);
  });

  it('gives the result to one of two concurrent fetches only', async () => {
    const job = await processedJob(FORGETFUL_MODEL_ID);
    const statuses = await Promise.all([get(job.result_url ?? ''), get(job.result_url ?? '')]).then((rs) =>
      rs.map((r) => r.status).sort(),
    );
    expect(statuses).toEqual([200, 404]);
  });

  it('keeps the results of other models, also under /v2/inferences/{id}', async () => {
    const job = await processedJob(INVOICE_MODEL_ID);
    const inferenceId = (job.result_url ?? '').split('/').at(-1) ?? '';
    for (const url of [
      job.result_url ?? '',
      job.result_url ?? '',
      `${service.url}/v2/inferences/${inferenceId}`,
    ]) {
      const response = await get(url);
      expect(response.status).toBe(200);
      expectExtractionResponse(await response.json());
    }
    expect(existsSync(path.join(data.dir, 'files', job.id))).toBe(true);
  });
});
