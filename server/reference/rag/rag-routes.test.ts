/**
 * The RAG extension endpoints on a small Hono app built like the reference app (routes under `/v2`,
 * problem details for every error), over `app.request`.
 */
import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { notFound, renderError } from '@extraction-review/server-kit/problem-response';
import { expectProblem } from '@extraction-review/test-kit/reference/contract';
import {
  extractedFields,
  invoiceA,
  openRagDatabase,
  OTHER_MODEL_ID,
  processedInference,
  RAG_MODEL_ID,
  type TestRagDatabase,
} from '@extraction-review/test-kit/reference/rag-fixtures';
import { openRag } from './rag-extension';
import type { RagDocumentJson, RagDocumentSummaryJson } from './rag-routes';

let data: TestRagDatabase;
let app: Hono;
let inferenceId: string;

beforeEach(async () => {
  data = await openRagDatabase();
  const models = { find: (id: string) => ([RAG_MODEL_ID, OTHER_MODEL_ID].includes(id) ? { id } : undefined) };
  const v2 = new Hono();
  // As the service mounts it (rag-extension.ts); its store shares the database with data.store.
  openRag({ database: data.db, models }).extendV2(v2);
  app = new Hono();
  app.route('/v2', v2);
  app.onError(renderError);
  app.notFound(notFound);
  const inference = processedInference(RAG_MODEL_ID, extractedFields());
  data.store.rememberInference(inference, invoiceA);
  inferenceId = inference.id;
});
afterEach(() => data.remove());

const documentsUrl = (modelId = RAG_MODEL_ID) => `/v2/extensions/rag/${modelId}/documents`;

const post = (body: unknown, { modelId = RAG_MODEL_ID, contentType = 'application/json' } = {}) =>
  app.request(documentsUrl(modelId), {
    method: 'POST',
    headers: { 'Content-Type': contentType },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

const validBody = () => ({
  inference_id: inferenceId,
  fields: {
    supplier_name: {
      value: 'ACME Industrial Supplies GmbH',
      locations: [
        {
          polygon: [
            [0.05, 0.05],
            [0.34, 0.05],
            [0.34, 0.07],
          ],
          page: 0,
        },
      ],
      confidence: 'Certain',
    },
    total_amount: { value: 83.5 },
  },
});

async function problemOf(response: Response, status: number) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  return expectProblem(await response.json());
}

describe('RAG documents extension', () => {
  it('stores a validated document from an inference and its corrected fields (201)', async () => {
    const response = await post(validBody());
    expect(response.status).toBe(201);
    const { document } = (await response.json()) as { document: RagDocumentJson };
    expect(response.headers.get('location')).toBe(`${documentsUrl()}/${document.id}`);
    expect(document).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      model_id: RAG_MODEL_ID,
      inference_id: inferenceId,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/),
      page_count: 1,
      fields: {
        supplier_name: validBody().fields.supplier_name,
        // Read with the app's schema: the defaults of a field result are filled in.
        total_amount: { value: 83.5, locations: [], confidence: null },
      },
      raw_text: { pages: [{ content: expect.stringContaining('IBAN: CH93 0076 2011 6238 5295 7') }] },
    });
    expect(data.store.findDocument(RAG_MODEL_ID, document.id)?.fields).toEqual(document.fields);

    const one = await app.request(`${documentsUrl()}/${document.id.toUpperCase()}`);
    expect(one.status).toBe(200);
    expect(await one.json()).toEqual({ document });

    const list = await app.request(documentsUrl());
    expect(list.status).toBe(200);
    const { raw_text: _text, ...summary } = document;
    expect(await list.json()).toEqual({ documents: [summary satisfies RagDocumentSummaryJson] });
  });

  it('deletes a document (204), then answers 404 for it', async () => {
    const { document } = (await (await post(validBody())).json()) as { document: RagDocumentJson };
    const deleted = await app.request(`${documentsUrl()}/${document.id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe('');
    expect(await (await app.request(documentsUrl())).json()).toEqual({ documents: [] });
    const again = await problemOf(
      await app.request(`${documentsUrl()}/${document.id}`, { method: 'DELETE' }),
      404,
    );
    expect(again.detail).toBe(`The model ${RAG_MODEL_ID} has no RAG document ${document.id}.`);
    await problemOf(await app.request(`${documentsUrl()}/${document.id}`), 404);
  });

  it('answers 422 with a pointer for each problem of the body', async () => {
    const problem = await problemOf(
      await post({
        inference_id: 'not-a-uuid',
        fields: { total_amount: { value: { amount: 1 } }, supplier_name: { items: 'x' } },
        extra: true,
      }),
      422,
    );
    expect(problem.code).toBe('422-001');
    const pointers = problem.errors.map((e) => e.pointer);
    expect(pointers).toEqual(
      expect.arrayContaining([
        '#/inference_id',
        '#/extra',
        expect.stringMatching(/^#\/fields\/total_amount\/value/),
        expect.stringMatching(/^#\/fields\/supplier_name/),
      ]),
    );
    expect(problem.errors.find((e) => e.pointer === '#/inference_id')?.detail).toMatch(/^inference_id: /);

    const empty = await problemOf(await post({ inference_id: inferenceId, fields: {} }), 422);
    expect(empty.errors).toEqual([{ pointer: '#/fields', detail: 'fields: expected at least one field' }]);
  });

  it('answers 422 for fields the inference does not have, and for an inference of another model', async () => {
    const unknownField = await problemOf(
      await post({ inference_id: inferenceId, fields: { iban: { value: 'CH93' }, 'a/b': { value: 1 } } }),
      422,
    );
    expect(unknownField.errors).toEqual([
      { pointer: '#/fields/iban', detail: 'the inference has no field "iban"' },
      { pointer: '#/fields/a~1b', detail: 'the inference has no field "a/b"' },
    ]);

    const otherModel = await problemOf(await post(validBody(), { modelId: OTHER_MODEL_ID }), 422);
    expect(otherModel.errors).toEqual([
      {
        pointer: '#/inference_id',
        detail: `inference_id is an inference of the model ${RAG_MODEL_ID}, not of ${OTHER_MODEL_ID}`,
      },
    ]);
  });

  it('answers 404 for an unknown model or inference, 422 for a malformed id', async () => {
    const unknownModel = randomUUID();
    const model = await problemOf(await post(validBody(), { modelId: unknownModel }), 404);
    expect(model).toMatchObject({ code: '404-004', detail: `No model has the id ${unknownModel}.` });
    await problemOf(await app.request(documentsUrl(unknownModel)), 404);

    const unknownInference = randomUUID();
    const inference = await problemOf(await post({ ...validBody(), inference_id: unknownInference }), 404);
    expect(inference).toMatchObject({ code: '404-002' });
    expect(inference.detail).toContain(unknownInference);

    expect(await problemOf(await app.request(documentsUrl('nope')), 422)).toMatchObject({ code: '422-004' });
    expect(await problemOf(await app.request(`${documentsUrl()}/nope`), 422)).toMatchObject({
      code: '422-004',
    });
  });

  it('refuses a body that is not JSON (415), malformed JSON (400) or too large (413)', async () => {
    expect(
      await problemOf(await post(validBody(), { contentType: 'application/x-www-form-urlencoded' }), 415),
    ).toMatchObject({ code: '415-001' });
    expect(await problemOf(await post('{"inference_id": '), 400)).toMatchObject({ code: '400-001' });
    const huge = JSON.stringify({ ...validBody(), padding: 'x'.repeat(6 * 1024 * 1024) });
    expect(await problemOf(await post(huge), 413)).toMatchObject({ code: '413-001' });
  });
});
