/** The v1 calls against a real local server. */
import { describe, expect, it } from 'vitest';
import { InvalidRequestError, V1JobFailedError } from '../errors';
import { readForm, sendJson, serveEach } from '../testing/test-server';
import {
  getDocument,
  getFeedback,
  getQueuedJob,
  getQueuedJobByUrl,
  predict,
  predictAsync,
  sendFeedback,
  v1JobFailure,
} from './endpoints';
import { hasDocument } from '@extraction-review/contract/v1/schemas';

const product = { account: 'mindee', name: 'invoices', version: 4 };
const PRODUCT_PATH = '/api/v1/products/mindee/invoices/v4';

const apiRequest = (statusCode = 200, resources = ['job']) => ({
  error: {},
  resources,
  status: 'success',
  status_code: statusCode,
  url: 'https://api.mindee.net/v1/products/mindee/invoices/v4/predict_async',
});

const job = (status: string, extra: Record<string, unknown> = {}) => ({
  id: 'J1',
  issued_at: '2023-02-16T12:33:49.602947+00:00',
  available_at: null,
  status,
  error: {},
  ...extra,
});

const document = {
  id: 'D1',
  name: 'invoice.pdf',
  n_pages: 1,
  inference: {
    started_at: '2023-03-21T13:52:56.326107+00:00',
    finished_at: '2023-03-21T13:53:00.974000',
    processing_time: 4.3,
    is_rotation_applied: true,
    extras: {},
    prediction: { total_amount: { value: 12.5, confidence: 0.99, polygon: [], page_id: 0 } },
    pages: [{ id: 0, orientation: { value: 90 }, extras: {}, prediction: {} }],
  },
};

const serve = serveEach();

describe('predict and predictAsync', () => {
  it('uploads the file as `document`, with the options', async () => {
    const { server, client } = await serve((_req, res) =>
      sendJson(res, 202, {
        api_request: apiRequest(202),
        job: job('waiting', { polling_url: '/api/v1/documents/queue/J1' }),
      }),
    );
    const file = new File(['%PDF'], 'invoice.pdf');
    const { job: queued } = await predictAsync(
      product,
      { file },
      { client, cropper: true, includeWords: true },
    );
    expect(queued.polling_url).toBe('/api/v1/documents/queue/J1');
    const [req] = server.requests;
    expect(req?.url).toBe(`${PRODUCT_PATH}/predict_async?cropper=true`);
    const form = await readForm(req);
    expect(form.get('include_mvision')).toBe('true');
    expect((form.get('document') as File).name).toBe('invoice.pdf');
  });

  it('sends base64 content or a URL as JSON', async () => {
    const { server, client } = await serve((_req, res) =>
      sendJson(res, 201, { api_request: apiRequest(201, ['document']), document }),
    );
    const { document: predicted } = await predict(
      { ...product, version: 'v4' },
      { base64: 'JVBERi0=' },
      { client, fullTextOcr: true },
    );
    expect(predicted.inference.pages[0]?.orientation.value).toBe(90);
    await predict(product, { url: 'https://example.com/a.pdf' }, { client });
    expect(server.requests.map((r) => [r.url, r.headers['content-type'], r.body.toString()])).toEqual([
      [`${PRODUCT_PATH}/predict?full_text_ocr=true`, 'application/json', '{"document":"JVBERi0="}'],
      [`${PRODUCT_PATH}/predict`, 'application/json', '{"document":"https://example.com/a.pdf"}'],
    ]);
  });

  it('checks the product and the document before sending', async () => {
    const { server, client } = await serve((_req, res) => sendJson(res, 500, {}));
    await expect(predict({ ...product, name: '../x' }, { base64: 'x' }, { client })).rejects.toBeInstanceOf(
      InvalidRequestError,
    );
    await expect(predict(product, { url: 'http://example.com/a.pdf' }, { client })).rejects.toBeInstanceOf(
      InvalidRequestError,
    );
    expect(server.requests).toHaveLength(0);
  });
});

describe('getQueuedJob', () => {
  it('returns the job while it runs', async () => {
    const { server, client } = await serve((_req, res) =>
      sendJson(res, 200, { api_request: apiRequest(), job: job('processing') }),
    );
    const body = await getQueuedJob(product, 'J1', { client });
    expect(server.requests[0]?.url).toBe(`${PRODUCT_PATH}/documents/queue/J1`);
    expect(hasDocument(body) ? 'document' : body.job.status).toBe('processing');
  });

  it('returns the document when the 302 was followed', async () => {
    const { server, client } = await serve((req, res) => {
      if (req.url.includes('/queue/')) {
        res.writeHead(302, { location: `${PRODUCT_PATH}/documents/D1` });
        return void res.end();
      }
      sendJson(res, 200, {
        api_request: apiRequest(200, ['document', 'job']),
        document,
        job: job('completed'),
      });
    });
    const body = await getQueuedJobByUrl('/api/v1/documents/queue/J1', { client });
    expect(server.requests.map((r) => r.url)).toEqual([
      '/api/v1/documents/queue/J1',
      `${PRODUCT_PATH}/documents/D1`,
    ]);
    expect(hasDocument(body) && body.document.id).toBe('D1');
  });

  it('reports a failed job as a V1JobFailedError on demand', () => {
    const failed = v1JobFailure({
      ...job('failed'),
      issued_at: 'x',
      available_at: null,
      status: 'failed',
      error: { code: 'ServerError', details: 'An error occurred', message: 'Inference failed' },
    });
    expect(failed).toBeInstanceOf(V1JobFailedError);
    expect(failed).toMatchObject({
      jobId: 'J1',
      code: 'ServerError',
      message: 'Inference failed: An error occurred',
    });
    expect(
      v1JobFailure({
        ...job('completed'),
        issued_at: 'x',
        available_at: null,
        status: 'completed',
        error: {},
      }),
    ).toBe(undefined);
  });
});

describe('getDocument', () => {
  it('returns the document', async () => {
    const { client } = await serve((_req, res) =>
      sendJson(res, 200, { api_request: apiRequest(200, ['document']), document }),
    );
    const body = await getDocument(product, 'D1', { client });
    expect(body.document.inference.prediction.total_amount).toEqual({
      value: 12.5,
      confidence: 0.99,
      polygon: [],
      page_id: 0,
    });
  });

  it('turns a failed job in place of the document into V1JobFailedError', async () => {
    const { client } = await serve((_req, res) =>
      sendJson(res, 200, {
        api_request: apiRequest(),
        job: job('failed', {
          error: { code: 'ServerError', details: 'An error occurred', message: 'An error occurred' },
        }),
      }),
    );
    const error = await getDocument(product, 'D1', { client }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(V1JobFailedError);
    expect(error).toMatchObject({
      jobId: 'J1',
      code: 'ServerError',
      endpoint: `GET /v1/products/mindee/invoices/v4/documents/D1`,
    });
  });
});

describe('feedback', () => {
  const answer = {
    api_request: apiRequest(200, ['feedback']),
    feedback: { total_amount: { value: 13 }, line_items: null, date: null },
  };

  it('sends PUT or PATCH with the validated values, and reads them back', async () => {
    const { server, client } = await serve((_req, res) => sendJson(res, 200, answer));
    const feedback = { total_amount: { value: 13 }, date: null, taxes: [{ value: 1.3, rate: 0.1 }] };
    await sendFeedback('D1', feedback, { method: 'PUT', client });
    await sendFeedback('D1', { total_amount: { value: 13 } }, { method: 'PATCH', client });
    const stored = await getFeedback('D1', { client });
    expect(stored.feedback.total_amount).toEqual({ value: 13 });
    expect(server.requests.map((r) => [r.method, r.url])).toEqual([
      ['PUT', '/api/v1/documents/D1/feedback'],
      ['PATCH', '/api/v1/documents/D1/feedback'],
      ['GET', '/api/v1/documents/D1/feedback'],
    ]);
    expect(JSON.parse(server.requests[0]?.body.toString() ?? '')).toEqual({ feedback });
  });

  it('refuses empty or malformed feedback before sending', async () => {
    const { server, client } = await serve((_req, res) => sendJson(res, 200, answer));
    const empty = await sendFeedback('D1', {}, { method: 'PUT', client }).catch((e: unknown) => e);
    expect(empty).toBeInstanceOf(InvalidRequestError);
    expect((empty as InvalidRequestError).issues).toEqual([
      { path: 'feedback', pointer: '#/feedback', message: 'Send at least one field' },
    ]);
    const malformed = await sendFeedback(
      'D1',
      // @ts-expect-error: a value must be wrapped as { value }
      { total_amount: 13, 'Bad Name': { value: 1 }, date: { value: '2024-01-01', raw: 'x' } },
      { method: 'PATCH', client },
    ).catch((e: unknown) => e);
    expect((malformed as InvalidRequestError).issues.map((i) => i.pointer)).toEqual([
      '#/feedback/total_amount',
      '#/feedback/Bad Name',
      '#/feedback/date/raw',
    ]);
    expect(server.requests).toHaveLength(0);
  });
});
