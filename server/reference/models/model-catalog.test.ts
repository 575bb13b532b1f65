/**
 * The models file is checked at start with the same strict schema as the `data_schema` request
 * parameter, and every problem is named with its place in the file.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_MODELS_FILE } from '../create-reference-service';
import { loadModelCatalog, parseModels, parseV1Products } from './model-catalog';

const MODEL_ID = '5d3b0c0e-6f0f-4b59-9a57-1e3f2a5c7d01';
const HOOK_ID = 'a2286ed9-aa11-4a11-bdc5-2f8496c5641a';

const field = (over: Record<string, unknown> = {}) => ({
  title: 'Total',
  name: 'total',
  is_array: false,
  type: 'number',
  description: 'The total.',
  ...over,
});

const file = (model: Record<string, unknown>) => ({
  models: [
    { id: MODEL_ID, name: 'M', model_type: 'extraction', data_schema: { fields: [field()] }, ...model },
  ],
});

describe('models file', () => {
  it('loads the seeded models', async () => {
    const catalog = await loadModelCatalog(DEFAULT_MODELS_FILE);
    expect(catalog.models.length).toBeGreaterThan(0);
    for (const model of catalog.models) expect(model.delete_after_fetch).toBe(false);
  });

  it('fills defaults: options, webhooks, delete_after_fetch, and each field member', () => {
    const [model] = parseModels(file({}), {});
    expect(model).toEqual({
      id: MODEL_ID,
      name: 'M',
      model_type: 'extraction',
      webhooks: [],
      default_options: {
        raw_text: true,
        polygon: true,
        confidence: true,
        rag: false,
        multipage_context: false,
      },
      delete_after_fetch: false,
      data_schema: {
        fields: [
          {
            ...field(),
            unique_values: false,
            guidelines: null,
            classification_values: [],
            nested_fields: [],
          },
        ],
      },
    });
  });

  it('checks the data schema with the shared contract, naming each problem', () => {
    const bad = file({
      data_schema: {
        fields: [
          field({ name: 'Total Amount' }),
          field({ type: 'classification' }),
          field({ name: 'total', typo: true }),
        ],
      },
    });
    let message = '';
    try {
      parseModels(bad, {}, 'models.json');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^Invalid models file models\.json:/);
    expect(message).toContain('→ at models[0].data_schema.fields[0].name');
    expect(message).toContain('→ at models[0].data_schema.fields[1].classification_values');
    expect(message).toContain('→ at models[0].data_schema.fields[2].typo');
    expect(message).toContain('→ at models[0].data_schema.fields[2].name');
  });

  it('takes a webhook secret written in the file or named by an environment variable', () => {
    const hooks = (webhook: Record<string, unknown>) =>
      file({ webhooks: [{ id: HOOK_ID, name: 'H', url: 'https://hooks.invalid/h', ...webhook }] });
    expect(parseModels(hooks({ secret: 'inline' }), {})[0]?.webhooks[0]?.secret).toBe('inline');
    expect(
      parseModels(hooks({ secret_env: 'HOOK_SECRET' }), { HOOK_SECRET: 'from-env' })[0]?.webhooks[0]?.secret,
    ).toBe('from-env');
    expect(() => parseModels(hooks({ secret_env: 'HOOK_SECRET' }), {})).toThrow(
      /the environment variable HOOK_SECRET \(the webhook's signing secret\) is not set/,
    );
    expect(() => parseModels(hooks({ secret: 'a', secret_env: 'B' }), {})).toThrow(
      /give exactly one of secret/,
    );
    expect(() => parseModels(hooks({}), {})).toThrow(/give exactly one of secret/);
    expect(() => parseModels(hooks({ secret: 'a', url: 'ftp://x' }), {})).toThrow(/webhooks/);
  });

  it('refuses duplicate model and webhook ids', () => {
    const hook = { id: HOOK_ID, name: 'H', url: 'https://hooks.invalid/h', secret: 's' };
    const twice = file({ webhooks: [hook, { ...hook, name: 'again' }] });
    expect(() => parseModels(twice, {})).toThrow(/webhook ids must be unique/);
    const first = file({}).models[0];
    expect(() => parseModels({ models: [first, first] }, {})).toThrow(/model ids must be unique/);
  });
});

describe('v1 products of the models file', () => {
  const product = (over: Record<string, unknown> = {}) => ({
    account: 'acme',
    name: 'orders',
    version: '1',
    model_id: MODEL_ID,
    sync: false,
    async: true,
    fields: [{ name: 'total_amount', from: 'total' }],
    ...over,
  });
  const withProducts = (...products: unknown[]) => ({ ...file({}), v1_products: products });

  it('seeds mindee/invoices/v4, mindee/expense_receipts/v5 and a custom async-only product', async () => {
    const catalog = await loadModelCatalog(DEFAULT_MODELS_FILE);
    expect(catalog.findProduct('mindee', 'invoices', '4')).toMatchObject({
      sync: true,
      async: true,
      feedback: true,
    });
    expect(catalog.findProduct('mindee', 'expense_receipts', '5')).toMatchObject({ type: 'standard' });
    expect(catalog.findProduct('acme-corp', 'purchase_orders', '1')).toMatchObject({
      sync: false,
      async: true,
      feedback: false,
      type: 'custom',
    });
    expect(catalog.findProduct('mindee', 'invoices', '3')).toBeUndefined();
  });

  it('reads a product with its defaults', () => {
    expect(parseV1Products(withProducts(product()))).toEqual([
      {
        ...product(),
        type: 'custom',
        feedback: false,
        rotation_applied: true,
        webhooks: [],
        fields: [{ name: 'total_amount', from: 'total', percent: [] }],
      },
    ]);
  });

  it.each([
    [
      'an unknown model',
      product({ model_id: '5d3b0c0e-6f0f-4b59-9a57-1e3f2a5c7d09' }),
      'no model has this id',
    ],
    ['a field the model lacks', product({ fields: [{ name: 'x', from: 'nope' }] }), 'has no field nope'],
    ['neither mode', product({ async: false }), 'sync, async or both'],
  ])('refuses %s', (_, entry, message) => {
    expect(() => parseModels(withProducts(entry), {})).toThrow(message);
  });

  it('refuses a product defined twice', () => {
    expect(() => parseModels(withProducts(product(), product({ version: '1' })), {})).toThrow(
      'defined twice',
    );
  });
});
