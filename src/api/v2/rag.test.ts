/** The reference service's RAG extension, against a real local server answering as rag-routes.ts does. */
import { describe, expect, it } from 'vitest';
import { InvalidRequestError, ProblemDetailsError, SchemaMismatchError } from '../errors';
import { ragDocumentKeys } from '../keys';
import { sendJson, serveEach } from '../testing/test-server';
import { addRagDocument, listRagDocuments, ragDocumentsQueryOptions } from './rag';
import type { FieldMap } from '@extraction-review/contract/v2/schemas';

const MODEL_ID = 'b4e6af9b-dfe5-44c8-9ae8-22225d8d2d5a';
const INFERENCE_ID = '0b8f3c52-5f0e-4c41-9d2c-6f3a2f0f7e11';
const fields: FieldMap = {
  supplier_name: {
    value: 'ACME',
    locations: [
      {
        page: 0,
        polygon: [
          [0.1, 0.1],
          [0.3, 0.1],
          [0.3, 0.12],
          [0.1, 0.12],
        ],
      },
    ],
    confidence: null,
  },
  total_amount: { value: 83.5, locations: [], confidence: null },
};
const document = {
  id: '7d0e5a1c-0000-4000-8000-000000000001',
  model_id: MODEL_ID,
  inference_id: INFERENCE_ID,
  created_at: '2026-03-14T09:30:12.345000',
  page_count: 1,
  fields,
  raw_text: { pages: [{ content: 'ACME Total 83.50' }] },
};

const serve = serveEach();

describe('addRagDocument', () => {
  it('POSTs the inference id and the corrected fields as JSON, and reads the 201 document', async () => {
    const { server, client } = await serve((_req, res) => sendJson(res, 201, { document }));
    const answer = await addRagDocument(MODEL_ID, { inference_id: INFERENCE_ID, fields }, { client });
    const [request] = server.requests;
    expect(request).toMatchObject({ method: 'POST', url: `/api/v2/extensions/rag/${MODEL_ID}/documents` });
    expect(request?.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(request?.body.toString() ?? '')).toEqual({ inference_id: INFERENCE_ID, fields });
    expect(answer.document).toMatchObject({ id: document.id, created_at: '2026-03-14T09:30:12.345000Z' });
    expect(answer.document.raw_text?.pages[0]?.content).toBe('ACME Total 83.50');
  });

  it('sends nothing when the input breaks the contract: no field, not a UUID', async () => {
    const { server, client } = await serve((_req, res) => sendJson(res, 201, { document }));
    await expect(
      addRagDocument(MODEL_ID, { inference_id: INFERENCE_ID, fields: {} }, { client }),
    ).rejects.toBeInstanceOf(InvalidRequestError);
    const error = await addRagDocument(MODEL_ID, { inference_id: 'not-a-uuid', fields }, { client }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).issues[0]?.pointer).toBe('#/inference_id');
    expect(server.requests).toHaveLength(0);
  });

  it('gives the refusals as problem details, pointers included', async () => {
    const { client } = await serve((_req, res) =>
      sendJson(res, 422, {
        status: 422,
        title: 'Unprocessable entity',
        detail: 'One or more fields failed validation.',
        code: '422-001',
        errors: [{ pointer: '#/fields/total', detail: 'the inference has no field "total"' }],
      }),
    );
    const error = await addRagDocument(MODEL_ID, { inference_id: INFERENCE_ID, fields }, { client }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ProblemDetailsError);
    expect(error).toMatchObject({ status: 422, code: '422-001', errors: [{ pointer: '#/fields/total' }] });
  });

  it('refuses an answer that does not match the schema', async () => {
    const { client } = await serve((_req, res) => sendJson(res, 201, { document: { id: 'x' } }));
    await expect(
      addRagDocument(MODEL_ID, { inference_id: INFERENCE_ID, fields }, { client }),
    ).rejects.toBeInstanceOf(SchemaMismatchError);
  });
});

describe('listRagDocuments', () => {
  it('GETs the model documents, keyed under the RAG documents of the model', async () => {
    const { raw_text: _text, ...summary } = document;
    const { server, client } = await serve((_req, res) => sendJson(res, 200, { documents: [summary] }));
    const { documents } = await listRagDocuments(MODEL_ID, { client });
    expect(server.requests[0]).toMatchObject({
      method: 'GET',
      url: `/api/v2/extensions/rag/${MODEL_ID}/documents`,
    });
    expect(documents.map((d) => d.id)).toEqual([document.id]);
    expect(ragDocumentsQueryOptions(MODEL_ID).queryKey).toEqual(ragDocumentKeys.list(MODEL_ID));
    expect(ragDocumentKeys.list(MODEL_ID).slice(0, 2)).toEqual(ragDocumentKeys.all);
  });
});
