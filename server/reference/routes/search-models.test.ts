import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MODELS_FILE, type ReferenceService } from '../create-reference-service';
import { loadModelCatalog } from '../models/model-catalog';
import { expectModelsSearchResponse, expectProblem } from '@extraction-review/test-kit/reference/contract';
import {
  get,
  INVOICE_MODEL_ID,
  makeDataDir,
  startTestService,
} from '@extraction-review/test-kit/reference/reference-harness';
import {
  QUIET_MODEL_ID,
  TEST_MODELS_ENV,
  WEBHOOK_A,
  WEBHOOK_B,
  writeTestModels,
} from '@extraction-review/test-kit/reference/test-models';

let service: ReferenceService;
let data: Awaited<ReturnType<typeof makeDataDir>>;
/** The models of server/reference/models.json, whatever they are. */
let seeded: readonly { id: string; name: string }[];
beforeAll(async () => {
  seeded = (await loadModelCatalog(DEFAULT_MODELS_FILE)).models;
  data = await makeDataDir();
  service = await startTestService(data.dir);
});
afterAll(async () => {
  await service.close();
  await data.remove();
});

const search = async (query = '') => {
  const response = await get(`${service.url}/v2/search/models${query}`);
  return { status: response.status, body: (await response.json()) as unknown };
};

const invoiceModel = {
  id: INVOICE_MODEL_ID,
  name: 'Invoice (reference)',
  model_type: 'extraction',
  webhooks: [],
};

describe('GET /v2/search/models', () => {
  it('lists the seeded models in the hosted service shape', async () => {
    const { status, body } = await search();
    expect(status).toBe(200);
    const listed = expectModelsSearchResponse(body);
    expect(listed.models).toEqual(seeded.map(({ id, name }) => ({ ...invoiceModel, id, name })));
    expect(listed.pagination).toEqual({
      per_page: 50,
      page: 1,
      total_items: seeded.length,
      total_pages: 1,
      total_items_unfiltered: null,
    });
  });

  it('filters by name (substring, any case) and model_type', async () => {
    expect((await search('?name=INVOICE')).body).toMatchObject({
      models: [invoiceModel],
      pagination: { total_items: 1, total_items_unfiltered: seeded.length },
    });
    expect((await search('?name=no-such-model')).body).toMatchObject({
      models: [],
      pagination: { total_items: 0, total_pages: 0, total_items_unfiltered: seeded.length },
    });
    expect((await search('?model_type=extraction')).body).toMatchObject({
      pagination: { total_items: seeded.length },
    });
    expect((await search('?model_type=split')).body).toMatchObject({ models: [] });
  });

  it('pages', async () => {
    expect((await search('?per_page=1&page=1')).body).toMatchObject({
      models: [{ id: seeded[0]?.id }],
      pagination: { per_page: 1, page: 1, total_pages: seeded.length },
    });
    expect((await search(`?per_page=1&page=${seeded.length + 1}`)).body).toMatchObject({
      models: [],
      pagination: { page: seeded.length + 1 },
    });
  });

  it('refuses bad paging values with every problem listed', async () => {
    const { status, body } = await search('?page=0&per_page=1000');
    expect(status).toBe(422);
    expect(expectProblem(body)).toMatchObject({
      code: '422-001',
      errors: [
        { pointer: null, detail: 'page must be a positive integer, got "0"' },
        { pointer: null, detail: 'per_page must be at most 100' },
      ],
    });
  });
});

describe('GET /v2/search/models with webhooks', () => {
  it('lists each webhook as id, name and url, never its signing secret', async () => {
    const other = await makeDataDir();
    const withHooks = await startTestService(other.dir, {
      modelsFile: await writeTestModels(other.dir),
      env: TEST_MODELS_ENV,
    });
    try {
      const response = await get(`${withHooks.url}/v2/search/models?name=quiet`);
      const text = await response.text();
      expect(text).not.toMatch(/secret/);
      const body = expectModelsSearchResponse(JSON.parse(text));
      expect(body.models).toEqual([
        {
          id: QUIET_MODEL_ID,
          name: 'Quiet invoice',
          model_type: 'extraction',
          webhooks: [
            { id: WEBHOOK_A, name: 'A', url: 'https://hooks.invalid/a' },
            { id: WEBHOOK_B, name: 'B', url: 'https://hooks.invalid/b' },
          ],
        },
      ]);
    } finally {
      await withHooks.close();
      await other.remove();
    }
  });
});
