/** A model's data schema (an extension of the reference service) against a real local server. */
import { describe, expect, it } from 'vitest';
import { ProblemDetailsError, SchemaMismatchError } from '../errors';
import { modelKeys } from '../keys';
import { sendJson, serveEach } from '../testing/test-server';
import { fieldSchemaAt, getModelSchema, modelSchemaKey, modelSchemaQueryOptions } from './model-schema';

const MODEL_ID = '12345678-1234-1234-1234-123456789abc';

const body = {
  model: {
    id: MODEL_ID,
    name: 'Invoice',
    data_schema: {
      fields: [
        {
          title: 'Document type',
          name: 'document_type',
          is_array: false,
          unique_values: false,
          description: 'What the document is.',
          guidelines: null,
          classification_values: ['invoice', 'credit note'],
          type: 'classification',
          nested_fields: [],
        },
        {
          title: 'Supplier address',
          name: 'supplier_address',
          is_array: false,
          description: 'Where the supplier is.',
          type: 'nested_object',
          nested_fields: [
            { title: 'Country', name: 'country', is_array: false, description: 'Country.', type: 'string' },
          ],
        },
        // A type added tomorrow does not hide the schema.
        { title: 'Signature', name: 'signature', type: 'signature_box' },
      ],
    },
  },
};

const serve = serveEach();

describe('getModelSchema', () => {
  it('GETs /v2/extensions/models/{id} and reads the schema liberally, defaults filled in', async () => {
    const { server, client } = await serve((_req, res) => sendJson(res, 200, body));
    const schema = await getModelSchema(MODEL_ID, { client });
    expect(server.requests[0]).toMatchObject({ method: 'GET', url: `/api/v2/extensions/models/${MODEL_ID}` });
    expect(schema?.data_schema.fields.map((f) => f.type)).toEqual([
      'classification',
      'nested_object',
      'signature_box',
    ]);
    expect(schema?.data_schema.fields[2]).toEqual({
      title: 'Signature',
      name: 'signature',
      type: 'signature_box',
      is_array: false,
      unique_values: false,
      description: '',
      guidelines: null,
      classification_values: [],
      nested_fields: [],
    });
    if (!schema) throw new Error('no schema');
    expect(fieldSchemaAt(schema, ['document_type'])?.classification_values).toEqual([
      'invoice',
      'credit note',
    ]);
    expect(fieldSchemaAt(schema, ['supplier_address', 'country'])?.type).toBe('string');
    expect(fieldSchemaAt(schema, ['supplier_address', 'city'])).toBeUndefined();
    expect(fieldSchemaAt(schema, ['nope'])).toBeUndefined();
    expect(fieldSchemaAt(schema, [])).toBeUndefined();
  });

  it('resolves to null where the upstream lacks the extension (404), whatever the body', async () => {
    const html = await serve((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<h1>Not Found</h1>');
    });
    expect(await getModelSchema(MODEL_ID, { client: html.client })).toBeNull();
    const problem = await serve((_req, res) =>
      sendJson(res, 404, { status: 404, title: 'Model not found', detail: '', code: '404-004', errors: [] }),
    );
    expect(await getModelSchema(MODEL_ID, { client: problem.client })).toBeNull();
  });

  it('throws on other failures, and on a body that is not a schema', async () => {
    const down = await serve((_req, res) =>
      sendJson(res, 401, { status: 401, title: 'Invalid API key', detail: '', code: '401-001', errors: [] }),
    );
    await expect(getModelSchema(MODEL_ID, { client: down.client })).rejects.toBeInstanceOf(
      ProblemDetailsError,
    );
    const odd = await serve((_req, res) => sendJson(res, 200, { model: { id: MODEL_ID } }));
    await expect(getModelSchema(MODEL_ID, { client: odd.client })).rejects.toBeInstanceOf(
      SchemaMismatchError,
    );
  });
});

describe('modelSchemaQueryOptions', () => {
  it('keys the schema under the models, per model, and keeps it for the session', () => {
    const options = modelSchemaQueryOptions(MODEL_ID);
    expect(options.queryKey).toEqual(['v2', 'models', MODEL_ID, 'schema']);
    expect(modelSchemaKey(MODEL_ID).slice(0, 2)).toEqual([...modelKeys.all]);
    expect(options.staleTime).toBe(Infinity);
  });
});
