import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReferenceService } from '../create-reference-service';
import { expectProblem } from '@extraction-review/test-kit/reference/contract';
import {
  get,
  INVOICE_MODEL_ID,
  makeDataDir,
  startTestService,
  TEST_API_KEY,
  enqueue,
} from '@extraction-review/test-kit/reference/reference-harness';

let service: ReferenceService;
let data: Awaited<ReturnType<typeof makeDataDir>>;
beforeAll(async () => {
  data = await makeDataDir();
  service = await startTestService(data.dir);
});
afterAll(async () => {
  await service.close();
  await data.remove();
});

const someId = '00000000-0000-4000-8000-000000000000';
const routes = () => [
  `${service.url}/v2/jobs/${someId}`,
  `${service.url}/v2/products/extraction/results/${someId}`,
  `${service.url}/v2/inferences/${someId}`,
  `${service.url}/v2/search/models`,
  `${service.url}/v2/no-such-route`,
];

describe('Authorization on /v2', () => {
  it('answers 401-008 "Missing credentials" without a key, on every route', async () => {
    for (const url of routes()) {
      const response = await get(url, null);
      expect(response.status, url).toBe(401);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(expectProblem(await response.json())).toEqual({
        status: 401,
        title: 'Missing credentials',
        detail: 'Credentials are required.',
        code: '401-008',
        errors: [],
      });
    }
    const upload = await enqueue(service, { modelId: INVOICE_MODEL_ID, apiKey: null });
    expect(upload.status).toBe(401);
  });

  it('answers 401-001 "Invalid API key" for a wrong key, on every route', async () => {
    for (const url of routes()) {
      const response = await get(url, 'not-the-key');
      expect(response.status, url).toBe(401);
      expect(expectProblem(await response.json())).toEqual({
        status: 401,
        title: 'Invalid API key',
        detail: 'The provided API key is invalid.',
        code: '401-001',
        errors: [],
      });
    }
    expect((await enqueue(service, { modelId: INVOICE_MODEL_ID, apiKey: 'nope' })).status).toBe(401);
  });

  it('takes the bare key only: "Bearer <key>" is a wrong key', async () => {
    const response = await get(`${service.url}/v2/search/models`, `Bearer ${TEST_API_KEY}`);
    expect(response.status).toBe(401);
    expect(((await response.json()) as { code: string }).code).toBe('401-001');
    expect((await get(`${service.url}/v2/search/models`)).status).toBe(200);
  });

  it('leaves /health open, and renders unknown routes as problems', async () => {
    const health = await get(`${service.url}/health`, null);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });

    const unknown = await get(`${service.url}/v2/no-such-route`);
    expect(unknown.status).toBe(404);
    expect(expectProblem(await unknown.json())).toMatchObject({ code: '404-003', status: 404 });
    expect((await get(`${service.url}/elsewhere`, null)).status).toBe(404);
  });
});
