/**
 * The extension `GET /v2/extensions/models/{model_id}` over real HTTP: behind the key and the GET
 * budget, 404 for an unknown model, 422 for a malformed id, and a body the browser app's own schema
 * reads without dropping a key (and that a request could send back as a data schema). Also the
 * service's `extraWebhooks`: on every model, listed without their secret, clashing ids refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelSchemaResponse } from '@extraction-review/contract/v2/model-schema';
import { DataSchemaReplace, ModelsSearchResponse } from '@extraction-review/contract/v2/schemas';
import type { ReferenceService } from '../create-reference-service';
import { loadModelCatalog } from '../models/model-catalog';
import { expectProblem } from '@extraction-review/test-kit/reference/contract';
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
  writeTestModels,
} from '@extraction-review/test-kit/reference/test-models';

const EXTRA_HOOK = '5f0c2a7e-8d41-4b6a-9e3c-7a1d2b4c6e80';
const EXTRA_SECRET = 'extra-secret-never-shown';

let service: ReferenceService;
let limited: ReferenceService;
let modelsFile: string;
let data: Awaited<ReturnType<typeof makeDataDir>>;
let hookUrl = 'http://127.0.0.1:1/hooks/v2';

beforeAll(async () => {
  data = await makeDataDir();
  modelsFile = await writeTestModels(data.dir);
  service = await startTestService(`${data.dir}/main`, {
    modelsFile,
    env: TEST_MODELS_ENV,
    extraWebhooks: [{ id: EXTRA_HOOK, name: 'extraction-review', url: () => hookUrl, secret: EXTRA_SECRET }],
  });
  limited = await startTestService(`${data.dir}/limited`, {
    rateLimits: { postPerWindow: 0, getPerWindow: 2, windowMs: 60_000 },
  });
});

afterAll(async () => {
  await service.close();
  await limited.close();
  await data.remove();
});

const schemaUrl = (base: string, id: string) => `${base}/v2/extensions/models/${id}`;

/** Every key path of a JSON value, to compare shapes. */
function keysOf(value: unknown, at = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => keysOf(item, `${at}[${i}]`));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value)
      .flatMap(([key, v]) => [`${at}.${key}`, ...keysOf(v, `${at}.${key}`)])
      .sort();
  }
  return [];
}

describe('GET /v2/extensions/models/{model_id}', () => {
  it("answers the model's data schema, read by the app's schema with no key dropped", async () => {
    const response = await get(schemaUrl(service.url, INVOICE_MODEL_ID));
    expect(response.status).toBe(200);
    const body = (await response.json()) as unknown;
    const parsed = ModelSchemaResponse.parse(body);
    expect(keysOf(parsed)).toEqual(keysOf(body));

    const catalog = await loadModelCatalog(modelsFile, TEST_MODELS_ENV);
    const model = catalog.find(INVOICE_MODEL_ID);
    expect(parsed.model).toEqual({
      id: INVOICE_MODEL_ID,
      name: model?.name,
      data_schema: model?.data_schema,
    });
    // What it shows could be sent back as a data schema replacement.
    expect(DataSchemaReplace.safeParse(parsed.model.data_schema).success).toBe(true);

    const classification = parsed.model.data_schema.fields.find((f) => f.type === 'classification');
    expect(classification?.classification_values.length).toBeGreaterThan(0);
  });

  it('never shows the webhooks, nor their secrets', async () => {
    const response = await get(schemaUrl(service.url, QUIET_MODEL_ID));
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(text).not.toMatch(/webhook|secret-a|secret-b|EXTRA_SECRET|extra-secret/i);
  });

  it('takes the id in any case', async () => {
    const response = await get(schemaUrl(service.url, INVOICE_MODEL_ID.toUpperCase()));
    expect(response.status).toBe(200);
    expect(ModelSchemaResponse.parse(await response.json()).model.id).toBe(INVOICE_MODEL_ID);
  });

  it('is 404-004 for a model it does not have, 422-004 for a malformed id', async () => {
    const unknown = await get(schemaUrl(service.url, '00000000-0000-4000-8000-000000000000'));
    expect(unknown.status).toBe(404);
    expect(expectProblem(await unknown.json())).toMatchObject({ code: '404-004' });
    const malformed = await get(schemaUrl(service.url, 'invoice'));
    expect(malformed.status).toBe(422);
    expect(expectProblem(await malformed.json())).toMatchObject({ code: '422-004' });
  });

  it('needs the key: 401-008 without, 401-001 with a wrong one', async () => {
    const none = await get(schemaUrl(service.url, INVOICE_MODEL_ID), null);
    expect(none.status).toBe(401);
    expect(expectProblem(await none.json())).toMatchObject({ code: '401-008' });
    const wrong = await get(schemaUrl(service.url, INVOICE_MODEL_ID), 'not-the-key');
    expect(wrong.status).toBe(401);
    expect(expectProblem(await wrong.json())).toMatchObject({ code: '401-001' });
  });

  it('counts against the GET budget', async () => {
    expect((await get(schemaUrl(limited.url, INVOICE_MODEL_ID))).status).toBe(200);
    expect((await get(schemaUrl(limited.url, INVOICE_MODEL_ID))).status).toBe(200);
    const refused = await get(schemaUrl(limited.url, INVOICE_MODEL_ID));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});

describe('extraWebhooks', () => {
  it("are added to every model, after the models file's, listed without their secret", async () => {
    hookUrl = 'http://127.0.0.1:4321/hooks/v2';
    const response = await get(`${service.url}/v2/search/models`);
    const text = await response.text();
    expect(text).not.toContain(EXTRA_SECRET);
    const { models } = ModelsSearchResponse.parse(JSON.parse(text));
    expect(models.length).toBeGreaterThan(1);
    for (const model of models) {
      expect(model.webhooks.at(-1)).toEqual({
        id: EXTRA_HOOK,
        name: 'extraction-review',
        url: 'http://127.0.0.1:4321/hooks/v2',
      });
    }
    expect(models.find((m) => m.id === QUIET_MODEL_ID)?.webhooks.map((w) => w.id)).toEqual([
      WEBHOOK_A,
      expect.any(String),
      EXTRA_HOOK,
    ]);
  });

  it('read a URL given as a function at each use', async () => {
    hookUrl = 'http://127.0.0.1:9876/hooks/v2';
    const { models } = ModelsSearchResponse.parse(
      await (await get(`${service.url}/v2/search/models`)).json(),
    );
    expect(models[0]?.webhooks.at(-1)?.url).toBe('http://127.0.0.1:9876/hooks/v2');
  });

  it('stop the start when a model already has a webhook with the same id', async () => {
    await expect(
      startTestService(`${data.dir}/clash`, {
        modelsFile,
        env: TEST_MODELS_ENV,
        extraWebhooks: [{ id: WEBHOOK_A, name: 'x', url: 'http://127.0.0.1:1/hooks/v2', secret: 's' }],
      }),
    ).rejects.toThrow(new RegExp(`${WEBHOOK_A}.*${QUIET_MODEL_ID}`));
  });
});
