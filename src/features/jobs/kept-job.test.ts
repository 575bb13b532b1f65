import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturesDir } from '@extraction-review/test-kit/fixtures-dir';
import { keptResult, keptSettledJob } from './kept-job';

const recorded = (name: string): { job: Record<string, unknown> } =>
  JSON.parse(readFileSync(path.join(fixturesDir, 'v2/job', name), 'utf8')) as {
    job: Record<string, unknown>;
  };

describe('keptSettledJob', () => {
  it('reads a processed job whose webhooks are delivered as the job query’s data', () => {
    const { job } = recorded('ok_processed_webhooks_ok.json');
    expect(keptSettledJob(job)).toEqual({
      job: expect.objectContaining({ id: job.id, status: 'Processed', result_url: job.result_url }),
    });
  });

  it('keeps nothing that may still change, or does not read as a job', () => {
    expect(keptSettledJob(recorded('ok_processing.json').job)).toBeUndefined();
    const { job } = recorded('ok_processed_webhooks_ok.json');
    expect(
      keptSettledJob({ ...job, webhooks: [{ ...(job.webhooks as object[])[0], status: 'Processing' }] }),
    ).toBeUndefined();
    expect(keptSettledJob(null)).toBeUndefined();
    expect(keptSettledJob({ id: 'x' })).toBeUndefined();
  });
});

describe('keptResult', () => {
  const result = JSON.parse(
    readFileSync(path.join(fixturesDir, 'v2/products/extraction/financial_document/complete.json'), 'utf8'),
  ) as { inference: Record<string, unknown> };

  it('reads a kept result as the result query’s data', () => {
    expect(keptResult(result)).toEqual({
      inference: expect.objectContaining({ id: result.inference.id }),
    });
  });

  it('ignores what was not kept or does not read as a result, so that it is fetched again', () => {
    expect(keptResult(null)).toBeUndefined();
    expect(keptResult(undefined)).toBeUndefined();
    expect(keptResult({ inference: { id: 'x' } })).toBeUndefined();
    expect(keptResult({ ...result, inference: { ...result.inference, result: 'gone' } })).toBeUndefined();
  });
});
