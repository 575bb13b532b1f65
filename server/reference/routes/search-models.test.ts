import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReferenceService } from '../create-reference-service';
import { expectModelsSearchResponse, expectProblem } from '../testing/contract';
import { get, INVOICE_MODEL_ID, makeDataDir, startTestService } from '../testing/reference-harness';

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
    expect(expectModelsSearchResponse(body)).toEqual({
      models: [invoiceModel],
      pagination: { per_page: 50, page: 1, total_items: 1, total_pages: 1, total_items_unfiltered: null },
    });
  });

  it('filters by name (substring, any case) and model_type', async () => {
    expect((await search('?name=INVOICE')).body).toMatchObject({
      models: [invoiceModel],
      pagination: { total_items: 1, total_items_unfiltered: 1 },
    });
    expect((await search('?name=receipt')).body).toMatchObject({
      models: [],
      pagination: { total_items: 0, total_pages: 0, total_items_unfiltered: 1 },
    });
    expect((await search('?model_type=extraction')).body).toMatchObject({ models: [invoiceModel] });
    expect((await search('?model_type=split')).body).toMatchObject({ models: [] });
  });

  it('pages', async () => {
    expect((await search('?per_page=1&page=1')).body).toMatchObject({
      models: [invoiceModel],
      pagination: { per_page: 1, page: 1, total_pages: 1 },
    });
    expect((await search('?per_page=1&page=2')).body).toMatchObject({ models: [], pagination: { page: 2 } });
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
