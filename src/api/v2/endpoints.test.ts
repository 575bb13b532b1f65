/** The v2 calls against a real local server: what goes on the wire, and what comes back. */
import { describe, expect, it } from 'vitest';
import { ForeignUrlError, InvalidRequestError } from '../errors';
import { createApiClient } from '../http';
import { readForm, sendJson, serveEach } from '../testing/test-server';
import { enqueueExtraction, getExtractionResult, getJob, searchModels, toEnqueueForm } from './endpoints';

const MODEL_ID = '12345678-1234-1234-1234-123456789abc';
const JOB_ID = '87654321-4321-4321-4321-cba987654321';

const jobBody = (status = 'Processing') => ({
  job: {
    id: JOB_ID,
    model_id: MODEL_ID,
    filename: 'invoice.pdf',
    alias: null,
    created_at: '2025-07-03T14:27:58.974451',
    completed_at: null,
    status,
    polling_url: `/api/v2/jobs/${JOB_ID}`,
    result_url: status === 'Processed' ? `/api/v2/products/extraction/results/${JOB_ID}` : null,
    webhooks: [],
    error: null,
  },
});

const serve = serveEach();

describe('enqueueExtraction', () => {
  it('posts a multipart form with only the options that are set', async () => {
    const { server, client } = await serve((_req, res) => sendJson(res, 202, jobBody()));
    const file = new File(['%PDF-1.7'], 'invoice.pdf', { type: 'application/pdf' });
    const response = await enqueueExtraction(
      {
        model_id: MODEL_ID,
        file,
        alias: 'ref-1',
        webhook_ids: [MODEL_ID, JOB_ID],
        polygon: true,
        rag: false,
        data_schema: { replace: null },
      },
      { client },
    );
    expect(response.job.id).toBe(JOB_ID);

    const [req] = server.requests;
    expect(req?.method).toBe('POST');
    expect(req?.url).toBe('/api/v2/products/extraction/enqueue');
    const form = await readForm(req);
    expect([...form.keys()]).toEqual([
      'model_id',
      'alias',
      'webhook_ids',
      'polygon',
      'rag',
      'data_schema',
      'file',
    ]);
    expect(form.get('webhook_ids')).toBe(`${MODEL_ID},${JOB_ID}`);
    expect(form.get('polygon')).toBe('true');
    expect(form.get('rag')).toBe('false');
    expect(form.get('data_schema')).toBe('{"replace":null}');
    const sent = form.get('file') as File;
    expect(sent.name).toBe('invoice.pdf');
    expect(await sent.text()).toBe('%PDF-1.7');
  });

  it('sends the whole form again after a 429', async () => {
    const { server } = await serve((_req, res, i) =>
      i === 0
        ? sendJson(res, 429, { title: 'Too many requests' }, { 'retry-after': '0' })
        : sendJson(res, 202, jobBody()),
    );
    const retrying = createApiClient({ baseUrl: server.baseUrl, retry: { limit: 1 } });
    const file = new File(['%PDF-1.7'], 'invoice.pdf');
    await enqueueExtraction({ model_id: MODEL_ID, file }, { client: retrying });
    expect(server.requests).toHaveLength(2);
    const form = await readForm(server.requests[1]);
    expect(await (form.get('file') as File).text()).toBe('%PDF-1.7');
  });

  it('names a bare Blob after `filename`, or "document"', () => {
    const blob = new Blob(['x']);
    expect(
      (toEnqueueForm({ model_id: MODEL_ID, file: blob, filename: 'scan.png' }).get('file') as File).name,
    ).toBe('scan.png');
    expect((toEnqueueForm({ model_id: MODEL_ID, file: blob }).get('file') as File).name).toBe('document');
    expect([...toEnqueueForm({ model_id: MODEL_ID, url: 'https://example.com/a.pdf' }).keys()]).toEqual([
      'model_id',
      'url',
    ]);
  });

  it('sends nothing when the input is invalid', async () => {
    const { server, client } = await serve((_req, res) => sendJson(res, 202, jobBody()));
    const error = await enqueueExtraction({ model_id: 'nope' }, { client }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).issues.map((i) => i.pointer)).toEqual(['#/model_id', '#/file']);
    expect(server.requests).toHaveLength(0);
  });
});

describe('getJob', () => {
  it('asks not to be redirected', async () => {
    const { server, client } = await serve((_req, res) => sendJson(res, 200, jobBody('Processed')));
    const { job } = await getJob(JOB_ID, { client });
    expect(server.requests[0]?.url).toBe(`/api/v2/jobs/${JOB_ID}?redirect=false`);
    expect(job.result_url).toBe(`/api/v2/products/extraction/results/${JOB_ID}`);
  });

  it('encodes the id as one path segment', async () => {
    const { server, client } = await serve((_req, res) => sendJson(res, 200, jobBody()));
    await getJob('a/b?c', { client });
    expect(server.requests[0]?.url).toBe('/api/v2/jobs/a%2Fb%3Fc?redirect=false');
    await expect(getJob('..', { client })).rejects.toThrow(/Invalid job id/);
  });
});

describe('getExtractionResult', () => {
  it('follows the rewritten result_url, and only that', async () => {
    const inference = {
      inference: {
        id: JOB_ID,
        job: { id: JOB_ID },
        model: { id: MODEL_ID },
        file: { name: 'invoice.pdf', alias: null, page_count: 1, mime_type: 'application/pdf' },
        result: { fields: { total: { value: 12.5, locations: [], confidence: 'Low' } }, raw_text: null },
        active_options: {
          raw_text: false,
          polygon: false,
          confidence: true,
          rag: false,
          text_context: false,
          data_schema: { replace: false },
        },
      },
    };
    const { server, client } = await serve((_req, res) => sendJson(res, 200, inference));
    const result = await getExtractionResult(`/api/v2/inferences/${JOB_ID}`, { client });
    expect(result.inference.result.fields.total).toEqual({ value: 12.5, locations: [], confidence: 'Low' });
    expect(result.inference.active_options.multipage_context).toBe(false);
    await expect(
      getExtractionResult(`https://api-v2.mindee.net/v2/inferences/${JOB_ID}`, { client }),
    ).rejects.toBeInstanceOf(ForeignUrlError);
    expect(server.requests).toHaveLength(1);
  });
});

describe('searchModels', () => {
  it('sends the filters as query parameters', async () => {
    const { server, client } = await serve((_req, res) =>
      sendJson(res, 200, {
        models: [{ id: MODEL_ID, name: 'Invoices', model_type: 'extraction' }],
        pagination: { per_page: 10, page: 2, total_items: 11, total_pages: 2, total_items_unfiltered: null },
      }),
    );
    const found = await searchModels(
      { name: 'Inv', model_type: 'extraction', page: 2, per_page: 10 },
      { client },
    );
    expect(server.requests[0]?.url).toBe(
      '/api/v2/search/models?name=Inv&model_type=extraction&page=2&per_page=10',
    );
    expect(found.models[0]?.webhooks).toEqual([]);
  });

  it('refuses bad paging before sending', async () => {
    const { client } = await serve((_req, res) => sendJson(res, 200, {}));
    await expect(searchModels({ page: 0 }, { client })).rejects.toBeInstanceOf(InvalidRequestError);
  });
});
