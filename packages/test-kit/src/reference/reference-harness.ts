/**
 * Starts the real reference service on 127.0.0.1, port 0, with a temporary data directory, and talks
 * to it over real HTTP with fetch and FormData, as any client would.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { JobJson } from '@extraction-review/document-text/api-types';
import {
  startReferenceService,
  type ReferenceService,
  type ReferenceServiceOptions,
} from '@extraction-review/reference/create-reference-service';

export const TEST_API_KEY = 'reference-test-key';
/** The seeded "Invoice (reference)" model of server/reference/models.json. */
export const INVOICE_MODEL_ID = 'b4e6af9b-dfe5-44c8-9ae8-22225d8d2d5a';

export async function makeDataDir(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'reference-test-'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

export function startTestService(
  dataDir: string,
  options: Partial<ReferenceServiceOptions> = {},
): Promise<ReferenceService> {
  return startReferenceService({
    host: '127.0.0.1',
    port: 0,
    apiKey: TEST_API_KEY,
    dataDir,
    // Tests poll fast (every 25 ms): no budgets unless a test sets them (rate-limit.test.ts).
    rateLimits: { postPerWindow: 0, getPerWindow: 0 },
    ...options,
  });
}

export interface EnqueueInput {
  file?: { bytes: Uint8Array; name: string; type?: string };
  modelId?: string;
  /** Text parts; an array sends the name once per value. */
  fields?: Record<string, string | string[]>;
  apiKey?: string | null;
}

/** A multipart enqueue, as the official client sends it. */
export function enqueue(service: Pick<ReferenceService, 'url'>, input: EnqueueInput): Promise<Response> {
  const form = new FormData();
  if (input.modelId !== undefined) form.set('model_id', input.modelId);
  for (const [name, value] of Object.entries(input.fields ?? {})) {
    for (const one of Array.isArray(value) ? value : [value]) form.append(name, one);
  }
  if (input.file) {
    const blob = new Blob([new Uint8Array(input.file.bytes)], {
      type: input.file.type ?? 'application/octet-stream',
    });
    form.set('file', blob, input.file.name);
  }
  return fetch(`${service.url}/v2/products/extraction/enqueue`, {
    method: 'POST',
    headers: authHeaders(input.apiKey === undefined ? TEST_API_KEY : input.apiKey),
    body: form,
  });
}

/** A JSON enqueue (`url` or `file_base64`, no `file`). */
export function enqueueJson(
  service: Pick<ReferenceService, 'url'>,
  body: unknown,
  apiKey: string | null = TEST_API_KEY,
): Promise<Response> {
  return fetch(`${service.url}/v2/products/extraction/enqueue`, {
    method: 'POST',
    headers: { ...authHeaders(apiKey), 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

export function get(url: string, apiKey: string | null = TEST_API_KEY): Promise<Response> {
  return fetch(url, { headers: authHeaders(apiKey), redirect: 'manual' });
}

const authHeaders = (apiKey: string | null): Record<string, string> =>
  apiKey === null ? {} : { Authorization: apiKey };

/** Polls with `redirect=false` until the job is no longer Processing. */
export async function waitForJob(
  service: Pick<ReferenceService, 'url'>,
  jobId: string,
  timeoutMs = 20_000,
): Promise<JobJson> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await get(`${service.url}/v2/jobs/${jobId}?redirect=false`);
    const { job } = (await response.json()) as { job: JobJson };
    if (job.status !== 'Processing') return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still Processing after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
