/**
 * The upload call against a real local server (node:http): Node has no XMLHttpRequest, so these tests
 * give `uploadExtraction` a fetch transport; the XMLHttpRequest transport itself is checked against a
 * stand-in that plays the browser's events.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { InvalidRequestError, NetworkError, ProblemDetailsError } from '../errors';
import { createApiClient, onRetryWait, type RetryWait } from '../http';
import { onFakeClocks } from '../testing/fake-clocks';
import { sendJson, serveEach } from '../testing/test-server';
import {
  parseHeaderLines,
  uploadExtraction,
  xhrTransport,
  type UploadProgress,
  type UploadTransport,
} from './upload';

const MODEL = '87654321-4321-4321-4321-cba987654321';
const job = {
  job: {
    id: '12345678-1234-1234-1234-123456789abc',
    model_id: MODEL,
    filename: 'a.pdf',
    created_at: '2025-07-03T14:27:58.974451',
    status: 'Processing',
    polling_url: '/api/v2/jobs/12345678-1234-1234-1234-123456789abc',
  },
};
const pdf = () => new File(['%PDF-1.7\n%%EOF\n'], 'a.pdf', { type: 'application/pdf' });

/** fetch as a transport: no progress events, the same answers. */
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

describe('uploadExtraction', () => {
  it('sends the enqueue form and returns the checked job', async () => {
    const { server, client } = await serve((_req, res) => sendJson(res, 202, job));
    const progress: UploadProgress[] = [];
    const answer = await uploadExtraction(
      { model_id: MODEL, file: pdf(), raw_text: true, alias: 'ref-1' },
      { client, transport: fetchTransport, onProgress: (p) => progress.push(p) },
    );
    expect(answer.job.status).toBe('Processing');
    expect(answer.job.webhooks).toEqual([]);
    const request = server.requests[0];
    expect(request?.url).toBe('/api/v2/products/extraction/enqueue');
    const body = request?.body.toString('latin1') ?? '';
    expect(body).toContain('name="raw_text"\r\n\r\ntrue');
    expect(body).toContain('name="alias"\r\n\r\nref-1');
    // Unset options are not sent: the model's defaults apply.
    expect(body).not.toContain('name="polygon"');
    expect(progress).toEqual([{ loaded: 1, total: 1 }]);
  });

  it('checks the input first and sends nothing when it is invalid', async () => {
    const { server, client } = await serve((_req, res) => sendJson(res, 202, job));
    const error = await uploadExtraction(
      { model_id: 'not-a-uuid', file: pdf() },
      { client, transport: fetchTransport },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).issues[0]?.pointer).toBe('#/model_id');
    expect(server.requests).toHaveLength(0);
  });

  it('turns a 422 into ProblemDetailsError with its pointers, and does not retry it', async () => {
    const { server, client } = await serve((_req, res) =>
      sendJson(res, 422, {
        status: 422,
        title: 'Invalid fields in form',
        detail: 'One or more fields failed validation.',
        code: '422-001',
        errors: [{ pointer: '#/webhook_ids/0', detail: 'Not a webhook of this model' }],
      }),
    );
    const error = await uploadExtraction(
      { model_id: MODEL, file: pdf() },
      { client, transport: fetchTransport },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProblemDetailsError);
    expect((error as ProblemDetailsError).code).toBe('422-001');
    expect((error as ProblemDetailsError).errors).toEqual([
      { pointer: '#/webhook_ids/0', detail: 'Not a webhook of this model' },
    ]);
    expect(server.requests).toHaveLength(1);
  });

  it('waits out a 429 for its Retry-After, says so, then sends again', async () => {
    const { server, client } = await serve((_req, res, i) =>
      i === 0
        ? sendJson(res, 429, { title: 'Too many requests', code: '429-001' }, { 'retry-after': '1' })
        : sendJson(res, 202, job),
    );
    const waits: number[] = [];
    const global: RetryWait[] = [];
    const stop = onRetryWait((w) => global.push(w));
    try {
      // On fake clocks, moved to the next timer (the wait's, set as it was announced) and no further:
      // the requests' gap is the wait the upload took.
      await onFakeClocks(async () => {
        let told!: () => void;
        const waiting = new Promise<void>((resolve) => (told = resolve));
        const upload = uploadExtraction(
          { model_id: MODEL, file: pdf() },
          {
            client,
            transport: fetchTransport,
            onRetryWait: (w) => {
              waits.push(w.waitMs);
              told();
            },
          },
        );
        await waiting;
        vi.advanceTimersToNextTimer();
        await upload;
      });
    } finally {
      stop();
    }
    expect(waits).toEqual([1000]);
    expect(global).toMatchObject([{ status: 429, waitMs: 1000, retry: 1 }]);
    expect(server.requests).toHaveLength(2);
    expect((server.requests[1]?.at ?? 0) - (server.requests[0]?.at ?? 0)).toBe(1000);
  });

  it('gives up at once on a Retry-After longer than allowed, saying how long it was', async () => {
    const { server, client } = await serve((_req, res) =>
      sendJson(res, 429, { title: 'Too many requests' }, { 'retry-after': '120' }),
    );
    const error = await uploadExtraction(
      { model_id: MODEL, file: pdf() },
      { client, transport: fetchTransport },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProblemDetailsError);
    expect((error as ProblemDetailsError).retryAfterSeconds).toBe(120);
    expect(server.requests).toHaveLength(1);
  });

  it('never repeats a POST after a 500 or a dropped connection', async () => {
    const { server, client } = await serve((_req, res) => sendJson(res, 500, { title: 'Broken' }));
    await expect(
      uploadExtraction({ model_id: MODEL, file: pdf() }, { client, transport: fetchTransport }),
    ).rejects.toBeInstanceOf(ProblemDetailsError);
    expect(server.requests).toHaveLength(1);

    const dropped = await serve((_req, res) => void res.socket?.destroy());
    await expect(
      uploadExtraction(
        { model_id: MODEL, file: pdf() },
        { client: dropped.client, transport: fetchTransport },
      ),
    ).rejects.toBeInstanceOf(NetworkError);
    expect(dropped.server.requests).toHaveLength(1);
  });

  it('stops during a Retry-After wait when cancelled, without another request', async () => {
    const { server, client } = await serve((_req, res) =>
      sendJson(res, 429, { title: 'Too many requests' }, { 'retry-after': '5' }),
    );
    const controller = new AbortController();
    const reason = new Error('cancelled by the operator');
    const pending = uploadExtraction(
      { model_id: MODEL, file: pdf() },
      {
        client,
        transport: fetchTransport,
        signal: controller.signal,
        onRetryWait: () => controller.abort(reason),
      },
    );
    await expect(pending).rejects.toBe(reason);
    expect(server.requests).toHaveLength(1);
  });
});

/** Plays what a browser's XMLHttpRequest does for one request. */
class FakeXhr {
  static last: FakeXhr | undefined;
  readonly upload = new EventTarget();
  private readonly events = new EventTarget();
  status = 0;
  statusText = '';
  response: unknown = '';
  responseType = '';
  method = '';
  url = '';
  headers: Record<string, string> = {};
  sent: unknown;
  aborted = false;
  private responseHeaders = '';

  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  addEventListener(type: string, listener: EventListener) {
    this.events.addEventListener(type, listener);
  }
  send(body: unknown) {
    this.sent = body;
  }
  abort() {
    this.aborted = true;
    this.events.dispatchEvent(new Event('abort'));
  }
  getAllResponseHeaders() {
    return this.responseHeaders;
  }
  progress(loaded: number, total: number) {
    const event = Object.assign(new Event('progress'), { lengthComputable: true, loaded, total });
    this.upload.dispatchEvent(event);
  }
  answer(status: number, body: string, headers = 'content-type: application/json\r\n') {
    this.status = status;
    this.response = body;
    this.responseHeaders = headers;
    this.events.dispatchEvent(new Event('load'));
  }
  fail() {
    this.events.dispatchEvent(new Event('error'));
  }
}

describe('xhrTransport', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('reports upload progress and resolves with the answer', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const progress: UploadProgress[] = [];
    const form = new FormData();
    const pending = xhrTransport({
      url: '/api/x',
      form,
      signal: undefined,
      onProgress: (p) => progress.push(p),
    });
    const xhr = FakeXhr.last as FakeXhr;
    expect(xhr.method).toBe('POST');
    expect(xhr.sent).toBe(form);
    xhr.progress(10, 100);
    xhr.progress(100, 100);
    xhr.answer(202, '{"ok":true}', 'Content-Type: application/json\r\nRetry-After: 3\r\n');
    const answer = await pending;
    expect(progress).toEqual([
      { loaded: 10, total: 100 },
      { loaded: 100, total: 100 },
    ]);
    expect(answer.status).toBe(202);
    expect(answer.headers.get('retry-after')).toBe('3');
    expect(z.object({ ok: z.boolean() }).parse(JSON.parse(answer.body))).toEqual({ ok: true });
  });

  it('aborts the request with the signal, and rejects on a network error', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const controller = new AbortController();
    const reason = new Error('stop');
    const pending = xhrTransport({
      url: '/x',
      form: new FormData(),
      signal: controller.signal,
      onProgress() {},
    });
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(FakeXhr.last?.aborted).toBe(true);

    const failing = xhrTransport({ url: '/x', form: new FormData(), signal: undefined, onProgress() {} });
    FakeXhr.last?.fail();
    await expect(failing).rejects.toBeInstanceOf(TypeError);
  });

  it('reads header lines leniently', () => {
    const headers = parseHeaderLines('a: 1\r\nbad line\r\nRetry-After:  7 \r\n\r\n');
    expect(headers.get('a')).toBe('1');
    expect(headers.get('retry-after')).toBe('7');
  });
});

describe('retry waits of the HTTP doorway', () => {
  it('are told to listeners, with the Retry-After they wait for', async () => {
    const { server } = await serve((_req, res, i) =>
      i === 0
        ? sendJson(res, 429, { title: 'Too many requests' }, { 'retry-after': '1' })
        : sendJson(res, 200, { ok: true }),
    );
    const own: RetryWait[] = [];
    const global: RetryWait[] = [];
    const client = createApiClient({ baseUrl: server.baseUrl, onRetryWait: (w) => own.push(w) });
    const stop = onRetryWait((w) => global.push(w));
    try {
      await client.request({ method: 'GET', path: '/v2/jobs/J1', schema: z.object({ ok: z.boolean() }) });
    } finally {
      stop();
    }
    expect(own).toMatchObject([{ endpoint: 'GET /api/v2/jobs/J1', status: 429, waitMs: 1000, retry: 1 }]);
    expect(global).toEqual(own);
  });
});
