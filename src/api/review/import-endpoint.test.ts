/**
 * `importDocument` over real HTTP (a test server): the multipart form it sends (metadata, the result as
 * a JSON part, the file last under its name), the CSRF token, and the answer checked with its schema.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SchemaMismatchError } from '../errors';
import { readForm, sendJson, serveEach } from '../testing/test-server';
import { rememberCsrfToken } from '@extraction-review/contract/review/csrf';
import { importDocument } from './endpoints';
import type { ImportResponse } from '@extraction-review/contract/review/schemas';

const serve = serveEach();

const ANSWER: ImportResponse = {
  document: {
    id: 'D1',
    version: 2,
    apiVersion: 'v2',
    model: 'model-a',
    fileName: 'invoice.pdf',
    alias: null,
    state: 'to_review',
    holder: null,
    leaseExpiresAt: null,
    decidedBy: null,
    decidedAt: null,
    reason: null,
    priority: 0,
    fieldsTotal: 0,
    fieldsToReview: 0,
    createdAt: '2026-01-05T08:00:00.000Z',
    readyAt: '2026-01-05T08:00:00.000Z',
    upstreamJobId: 'job-1',
    upstreamResultId: 'inf-1',
    uploadedBy: null,
    duplicateOf: null,
    result: { inference: {} },
    error: null,
    corrections: {},
  },
  imported: true,
};

afterEach(() => rememberCsrfToken(undefined));

describe('importDocument', () => {
  it('posts the metadata, the result and the file as multipart, with the CSRF token', async () => {
    rememberCsrfToken('token-1');
    const { server, client } = await serve((_req, res) => sendJson(res, 201, ANSWER));
    const answer = await importDocument(
      {
        metadata: { apiVersion: 'v2', model: 'model-a', fileName: 'facture été.pdf', upstreamJobId: 'job-1' },
        result: { inference: { id: 'inf-1' } },
        file: new Blob(['%PDF'], { type: 'application/pdf' }),
      },
      { client },
    );
    expect(answer).toEqual(ANSWER);

    const [request] = server.requests;
    expect(request).toMatchObject({ method: 'POST', url: '/api/review/import' });
    expect(request?.headers['x-csrf-token']).toBe('token-1');
    const form = await readForm(request);
    expect([...form.keys()]).toEqual(['metadata', 'result', 'file']);
    expect(JSON.parse(String(form.get('metadata')))).toEqual({
      apiVersion: 'v2',
      model: 'model-a',
      fileName: 'facture été.pdf',
      upstreamJobId: 'job-1',
    });
    const result = form.get('result') as File;
    expect(result.type).toBe('application/json');
    expect(JSON.parse(await result.text())).toEqual({ inference: { id: 'inf-1' } });
    const file = form.get('file') as File;
    expect(file.name).toBe('facture été.pdf');
    expect(file.type).toBe('application/pdf');
    expect(await file.text()).toBe('%PDF');
  });

  it('sends no file part without a file, and checks the answer', async () => {
    const { server, client } = await serve((_req, res) => sendJson(res, 200, { imported: false }));
    await expect(
      importDocument(
        {
          metadata: { apiVersion: 'v1', model: 'a/b/v1', fileName: 'x.jpg', upstreamJobId: 'q' },
          result: {},
        },
        { client },
      ),
    ).rejects.toBeInstanceOf(SchemaMismatchError);
    expect([...(await readForm(server.requests[0])).keys()]).toEqual(['metadata', 'result']);
  });
});
