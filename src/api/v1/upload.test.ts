/** The v1 upload with progress against a real local server, with a fetch transport (as v2/upload.test.ts). */
import { describe, expect, it } from 'vitest';
import { InvalidRequestError, V1ApiError } from '../errors';
import { sendJson, serveEach } from '../testing/test-server';
import type { UploadTransport } from '../v2/upload';
import { uploadPrediction } from './upload';

const apiRequest = (status: number, resources: string[]) => ({
  error: {},
  resources,
  status: 'success',
  status_code: status,
  url: 'http://localhost/v1/products/mindee/invoices/v4/predict_async',
});
const job = {
  id: '12345678-1234-1234-1234-123456789abc',
  issued_at: '2025-01-01T10:00:00+00:00',
  status: 'waiting',
};
const pdf = () => new File(['%PDF-1.7\n%%EOF\n'], 'a.pdf', { type: 'application/pdf' });
const product = { account: 'mindee', name: 'invoices', version: '4' };

const fetchTransport: UploadTransport = async ({ url, form, signal, onProgress }) => {
  const response = await fetch(url, { method: 'POST', body: form, signal });
  onProgress({ loaded: 1, total: 1 });
  return {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
    body: await response.text(),
  };
};

const serve = serveEach({});

describe('uploadPrediction', () => {
  it('sends the file as the `document` part to predict_async and returns the waiting job', async () => {
    const { server, client } = await serve((_req, res) =>
      sendJson(res, 202, { api_request: apiRequest(202, ['job']), job }),
    );
    const progress: number[] = [];
    const answer = await uploadPrediction(
      product,
      'async',
      { file: pdf() },
      { client, transport: fetchTransport, onProgress: (p) => progress.push(p.loaded) },
    );
    expect(answer.job.status).toBe('waiting');
    const request = server.requests[0];
    expect(request?.url).toBe('/api/v1/products/mindee/invoices/v4/predict_async');
    expect(request?.body.toString('latin1')).toMatch(/name="document"; filename="a.pdf"/);
    expect(progress).toEqual([1]);
  });

  it('reads a v1 error envelope as V1ApiError, and refuses a product with a stray key before sending', async () => {
    const { server, client } = await serve((_req, res) =>
      sendJson(res, 403, {
        api_request: {
          ...apiRequest(403, []),
          status: 'failure',
          error: { code: '403-001', message: 'Not allowed', details: 'No sync mode.' },
        },
      }),
    );
    const failed = uploadPrediction(product, 'sync', { file: pdf() }, { client, transport: fetchTransport });
    await expect(failed).rejects.toBeInstanceOf(V1ApiError);
    await expect(failed).rejects.toMatchObject({ code: '403-001', status: 403 });

    const stray = { ...product, mode: 'sync' } as unknown as typeof product;
    await expect(
      uploadPrediction(stray, 'sync', { file: pdf() }, { client, transport: fetchTransport }),
    ).rejects.toBeInstanceOf(InvalidRequestError);
    expect(server.requests).toHaveLength(1);
  });
});
