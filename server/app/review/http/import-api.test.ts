/**
 * POST /api/review/import over real HTTP, on both engines: a v2 and a v1 job a browser kept enter the
 * queue (`to_review`, their counts, the file served back byte for byte, `imported` in the timeline, a
 * live queue event); the same job again is the same document (also when imported at once, or entered
 * by an upload); every refusal says where (422 pointers into the form), leaves neither a document nor a
 * file; not signed in 401, no CSRF token 403. The form is built by the browser's own `toImportForm`.
 */
import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { toImportForm, type ImportInput } from '@extraction-review/contract/review/import-form';
import {
  ImportResponse,
  SessionResponse,
  TimelineResponse,
  type ImportMetadata,
} from '@extraction-review/contract/review/schemas';
import { ErrorResponse } from '@extraction-review/contract/v2/schemas';
import { createApp } from '../../create-app';
import { listen, type RunningServer } from '../../listen';
import { hashPassword } from '../auth/passwords';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import type { QueueChange } from '../events/queue-bus';
import { openReview, type OpenedReview } from '../open-review';
import { MAX_IMPORT_FILE_BYTES, MAX_IMPORT_PART_BYTES } from './read-import-form';
import { mountReview } from './mount-review';

const T0 = Date.UTC(2026, 10, 24, 9, 0, 0);
const PASSWORD = 'correct horse battery staple';
const V2_MODEL = 'b4e6af9b-dfe5-44c8-9ae8-22225d8d2d5a';

/** A v2 extraction response: 4 values, 3 of them for review (Medium, Low, none). */
function v2Result(jobId: string) {
  return {
    inference: {
      id: `inf-${jobId}`,
      job: { id: jobId },
      model: { id: V2_MODEL },
      file: { name: 'invoice.pdf', alias: null, page_count: 1, mime_type: 'application/pdf' },
      result: {
        fields: {
          total: { value: 12.5, confidence: 'Certain', locations: [] },
          supplier: { value: 'ACME', confidence: 'Medium', locations: [] },
          lines: { items: [{ fields: { qty: { value: 2, confidence: 'Low' }, code: { value: 'X' } } }] },
        },
      },
      active_options: {},
    },
  };
}

/** A v1 document response: 3 values, 2 below 0.8. */
function v1Result(documentId: string) {
  return {
    api_request: { status: 'success' },
    document: {
      id: documentId,
      name: 'receipt.jpg',
      n_pages: 1,
      inference: {
        prediction: {
          total_amount: { value: 10, confidence: 0.99 },
          date: { value: '2026-01-01', confidence: 0.5 },
          taxes: [{ value: 1, rate: 20, confidence: 0.1 }],
        },
      },
    },
    job: { id: `queue-${documentId}` },
  };
}

/** A file whose bytes are a PDF's (what the import keeps: documents only, told from their bytes). */
const pdfBytes = (rest: string | Buffer) =>
  Buffer.concat([Buffer.from('%PDF-1.7\n'), typeof rest === 'string' ? Buffer.from(rest) : rest]);
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const metadataFor = (overrides: Partial<ImportMetadata> = {}): ImportMetadata => ({
  apiVersion: 'v2',
  model: V2_MODEL,
  fileName: 'invoice.pdf',
  upstreamJobId: 'job-1',
  ...overrides,
});

async function problem(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  const body = ErrorResponse.parse(await response.json());
  expect(body).toMatchObject({ status, code });
  return body;
}

describe.each(ENGINES)('POST /api/review/import on %s', (engine) => {
  let store: TestStore;
  let review: OpenedReview;
  let server: RunningServer;
  let cookie = '';
  let csrf = '';
  let adaId = '';
  let clock = T0;
  const changes: QueueChange[] = [];

  const filesDir = () => path.join(store.settings.dataDir, 'files');
  const keptFiles = async () => (await readdir(filesDir()).catch(() => [])).sort();
  const documentCount = async () =>
    Number(
      (
        await review.database.db
          .selectFrom('documents')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  /** A request as the app's page sends it: same origin, the session cookie and its CSRF token. */
  function send(
    method: string,
    url: string,
    body?: FormData | string | ReadableStream,
    headers: Record<string, string> = {},
  ) {
    return fetch(`${server.url}${url}`, {
      method,
      headers: {
        Origin: server.url,
        'Sec-Fetch-Site': 'same-origin',
        Cookie: cookie,
        'X-CSRF-Token': csrf,
        ...headers,
      },
      body,
      ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
    } as RequestInit);
  }

  const importJob = (input: ImportInput, headers: Record<string, string> = {}) =>
    send('POST', '/api/review/import', toImportForm(input), headers);

  beforeAll(async () => {
    store = await openTestStore(engine);
    review = await openReview({ ...store.settings, clock: { now: () => clock } });
    review.bus.subscribe({ onChange: (change) => changes.push(change) });
    adaId = (
      await review.operators.create(
        { name: 'Ada', role: 'operator', passwordHash: await hashPassword(PASSWORD) },
        T0,
      )
    ).id;
    server = await listen(createApp({ upstream: {}, staticDir: null, review: mountReview(review) }), {
      host: '127.0.0.1',
      port: 0,
    });
    const signedIn = await fetch(`${server.url}/api/session`, {
      method: 'POST',
      headers: { Origin: server.url, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Ada', password: PASSWORD }),
    });
    expect(signedIn.status).toBe(200);
    cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    csrf = SessionResponse.parse(await signedIn.json()).csrfToken;
  });
  afterAll(async () => {
    await server?.close();
    await review?.close();
    await store?.cleanup();
  });

  it('imports a v2 job with its file: in the queue, the file served back byte for byte, the timeline says imported', async () => {
    clock += 1000;
    const bytes = pdfBytes(randomBytes(300_000));
    const response = await importJob({
      metadata: metadataFor({ alias: 'march', fileName: 'facture été.pdf' }),
      result: v2Result('job-1'),
      file: new Blob([bytes], { type: 'application/pdf' }),
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const { document, imported } = ImportResponse.parse(await response.json());
    expect(imported).toBe(true);
    expect(document).toMatchObject({
      apiVersion: 'v2',
      model: V2_MODEL,
      fileName: 'facture été.pdf',
      alias: 'march',
      state: 'to_review',
      upstreamJobId: 'job-1',
      upstreamResultId: 'inf-job-1',
      fieldsTotal: 4,
      fieldsToReview: 3,
      createdAt: new Date(clock).toISOString(),
      readyAt: new Date(clock).toISOString(),
      corrections: {},
    });
    expect(document.result).toEqual(v2Result('job-1'));

    const file = await send('GET', `/api/review/documents/${document.id}/file`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await file.arrayBuffer()).equals(bytes)).toBe(true);
    expect(await keptFiles()).toEqual([document.id]);
    // A kept file never changes: the browser keeps it and asks again with its validator, which is
    // answered without the bytes (and only with a session).
    const validator = file.headers.get('etag') ?? '';
    expect(validator).toMatch(/^"[0-9a-f-]{36}"$/);
    expect(file.headers.get('cache-control')).toBe('private, no-cache');
    const again = await send('GET', `/api/review/documents/${document.id}/file`, undefined, {
      'If-None-Match': `W/"other", ${validator}`,
    });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(validator);
    expect(await again.arrayBuffer()).toHaveProperty('byteLength', 0);
    const changed = await send('GET', `/api/review/documents/${document.id}/file`, undefined, {
      'If-None-Match': '"other"',
    });
    expect(changed.status).toBe(200);
    expect(Buffer.from(await changed.arrayBuffer()).equals(bytes)).toBe(true);
    const signedOut = await fetch(`${server.url}/api/review/documents/${document.id}/file`, {
      headers: { 'If-None-Match': validator },
    });
    expect(signedOut.status).toBe(401);

    const timeline = TimelineResponse.parse(
      await (await send('GET', `/api/review/documents/${document.id}/timeline`)).json(),
    );
    expect(timeline.events.map((event) => event.kind)).toEqual(['imported', 'extracted']);
    expect(timeline.events[0]).toMatchObject({
      actor: { id: adaId, name: 'Ada' },
      data: { apiVersion: 'v2', upstreamJobId: 'job-1', file: true },
    });
    expect(timeline.events[1]?.data).toEqual({ fieldsTotal: 4, fieldsToReview: 3 });

    // The browsers hear of it, as of any document entering the queue.
    await expect
      .poll(() => changes.find((change) => change.documentId === document.id)?.state)
      .toBe('to_review');
    // And an operator can take it.
    const next = await send('POST', '/api/review/next');
    expect(((await next.json()) as { document: { id: string } }).document.id).toBe(document.id);
  });

  it('imports a v1 job without a file: its result id read from the document, no file to serve', async () => {
    clock += 1000;
    const response = await importJob({
      metadata: metadataFor({
        apiVersion: 'v1',
        model: 'mindee/expense_receipts/v5',
        fileName: 'receipt.jpg',
        upstreamJobId: 'queue-doc-7',
      }),
      result: v1Result('doc-7'),
      file: null,
    });
    expect(response.status).toBe(201);
    const { document, imported } = ImportResponse.parse(await response.json());
    expect(imported).toBe(true);
    expect(document).toMatchObject({
      apiVersion: 'v1',
      model: 'mindee/expense_receipts/v5',
      alias: null,
      state: 'to_review',
      upstreamJobId: 'queue-doc-7',
      upstreamResultId: 'doc-7',
      fieldsTotal: 3,
      fieldsToReview: 2,
    });
    await problem(await send('GET', `/api/review/documents/${document.id}/file`), 404, '404-010');
    const timeline = TimelineResponse.parse(
      await (await send('GET', `/api/review/documents/${document.id}/timeline`)).json(),
    );
    expect(timeline.events[0]).toMatchObject({ kind: 'imported', data: { file: false } });

    // A v1 job with a file, and an upstreamResultId given.
    clock += 1000;
    const withFile = await importJob({
      metadata: metadataFor({
        apiVersion: 'v1',
        model: 'acme/custom/v12',
        fileName: 'scan.png',
        upstreamJobId: 'doc-8',
        upstreamResultId: 'doc-8',
      }),
      result: v1Result('doc-8'),
      file: new Blob([Buffer.concat([PNG_SIGNATURE, Buffer.from('PNG bytes')])]),
    });
    expect(withFile.status).toBe(201);
    const eight = ImportResponse.parse(await withFile.json()).document;
    const served = await send('GET', `/api/review/documents/${eight.id}/file`);
    // No type declared: the one read from its bytes.
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(
      Buffer.from(await served.arrayBuffer())
        .subarray(8)
        .toString(),
    ).toBe('PNG bytes');

    // Its file gone from this copy's storage (copies that do not share their files): an error the
    // review shows, never the 404 it takes for "sent by URL" and shows the values alone for.
    const row = await review.queue.find(eight.id);
    await review.files?.remove(row?.file_key ?? '');
    await problem(await send('GET', `/api/review/documents/${eight.id}/file`), 500, '500-005');
  });

  it('imports a job once: the same job again is the same document, unchanged, with no second file', async () => {
    clock += 1000;
    const first = ImportResponse.parse(
      await (
        await importJob({
          metadata: metadataFor({ upstreamJobId: 'job-twice' }),
          result: v2Result('job-twice'),
          file: new Blob([pdfBytes('first')]),
        })
      ).json(),
    );
    const files = await keptFiles();
    const count = await documentCount();

    clock += 1000;
    const again = await importJob({
      metadata: metadataFor({ upstreamJobId: 'job-twice', fileName: 'renamed.pdf' }),
      result: v2Result('job-twice'),
      file: new Blob([pdfBytes('second')]),
    });
    expect(again.status).toBe(200);
    const body = ImportResponse.parse(await again.json());
    expect(body.imported).toBe(false);
    expect(body.document).toEqual(first.document);
    expect(await documentCount()).toBe(count);
    expect(await keptFiles()).toEqual(files);
    const kept = await send('GET', `/api/review/documents/${first.document.id}/file`);
    expect(await kept.text()).toBe('%PDF-1.7\nfirst');

    // The same job id under the other API is another job.
    const v1 = await importJob({
      metadata: metadataFor({ apiVersion: 'v1', model: 'a/b/v1', upstreamJobId: 'job-twice' }),
      result: v1Result('job-twice'),
    });
    expect(v1.status).toBe(201);
  });

  it('answers a job uploaded through the app with its document, as it is', async () => {
    clock += 1000;
    const uploaded = await review.queue.addDocument(
      { apiVersion: 'v2', modelKey: V2_MODEL, fileName: 'live.pdf', upstreamJobId: 'job-live' },
      clock,
    );
    const response = await importJob({
      metadata: metadataFor({ upstreamJobId: 'job-live' }),
      result: v2Result('job-live'),
      file: new Blob([pdfBytes('bytes')]),
    });
    expect(response.status).toBe(200);
    const body = ImportResponse.parse(await response.json());
    expect(body).toMatchObject({ imported: false, document: { id: uploaded.id, state: 'processing' } });
    expect(await keptFiles()).not.toContain(expect.stringMatching(/\.part$/));
  });

  it('makes one document of the same job imported several times at once', async () => {
    clock += 1000;
    const before = await documentCount();
    const filesBefore = (await keptFiles()).length;
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        importJob({
          metadata: metadataFor({ upstreamJobId: 'job-race' }),
          result: v2Result('job-race'),
          file: new Blob([pdfBytes(randomBytes(50_000))]),
        }),
      ),
    );
    const bodies = await Promise.all(answers.map(async (r) => ImportResponse.parse(await r.json())));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    expect(new Set(bodies.map((b) => b.document.id)).size).toBe(1);
    expect(bodies.filter((b) => b.imported)).toHaveLength(1);
    expect(await documentCount()).toBe(before + 1);
    expect((await keptFiles()).length).toBe(filesBefore + 1);
  });

  it('refuses a form that does not fit, pointing into it, and keeps nothing of it', async () => {
    const count = await documentCount();
    const files = await keptFiles();
    const refused = async (form: FormData) => {
      const body = await problem(await send('POST', '/api/review/import', form), 422, '422-008');
      return body.errors.map((error) => error.pointer).sort();
    };
    const form = (parts: Record<string, string | Blob>) => {
      const data = new FormData();
      for (const [name, value] of Object.entries(parts)) {
        if (typeof value === 'string') data.append(name, value);
        else data.append(name, value, `${name}.bin`);
      }
      return data;
    };
    const file = new Blob(['bytes']);

    expect(await refused(form({ file }))).toEqual(['#/metadata', '#/result']);
    expect(await refused(form({ metadata: 'not json', result: '{"inference":{}}', file }))).toEqual([
      '#/metadata',
    ]);
    expect(
      await refused(
        toImportForm({
          metadata: { ...metadataFor(), apiVersion: 'v3', fileName: ' ' } as unknown as ImportMetadata,
          result: v2Result('x'),
          file,
        }),
      ),
    ).toEqual(['#/metadata/apiVersion', '#/metadata/fileName']);
    expect(
      await refused(
        toImportForm({
          metadata: { ...metadataFor({ apiVersion: 'v1', model: 'receipts' }), extra: 1 } as ImportMetadata,
          result: v1Result('x'),
        }),
      ),
    ).toEqual(['#/metadata', '#/metadata/model']);
    expect(
      await refused(
        toImportForm({ metadata: { ...metadataFor(), upstreamJobId: '' }, result: v2Result('x'), file }),
      ),
    ).toEqual(['#/metadata/upstreamJobId']);
    expect(await refused(toImportForm({ metadata: metadataFor({ model: 'a/b/v1' }), result: {} }))).toEqual([
      '#/metadata/model',
    ]);
    // The result: JSON, an object, shaped as its API version's answers.
    expect(await refused(form({ metadata: JSON.stringify(metadataFor()), result: '{', file }))).toEqual([
      '#/result',
    ]);
    expect(await refused(toImportForm({ metadata: metadataFor(), result: [v2Result('x')], file }))).toEqual([
      '#/result',
    ]);
    expect(await refused(toImportForm({ metadata: metadataFor(), result: v1Result('x'), file }))).toEqual([
      '#/result/inference',
    ]);
    expect(
      await refused(
        toImportForm({ metadata: metadataFor({ apiVersion: 'v1', model: 'a/b/v2' }), result: v2Result('x') }),
      ),
    ).toEqual(['#/result/document']);
    // The parts themselves.
    expect(
      await refused(
        form({
          metadata: JSON.stringify(metadataFor()),
          result: JSON.stringify(v2Result('x')),
          file: 'text',
        }),
      ),
    ).toEqual(['#/file']);
    expect(
      await refused(
        toImportForm({
          metadata: metadataFor({ upstreamJobId: 'empty' }),
          result: v2Result('x'),
          file: new Blob([]),
        }),
      ),
    ).toEqual(['#/file']);
    expect(
      await refused(
        form({ metadata: JSON.stringify(metadataFor()), result: JSON.stringify(v2Result('x')), extra: 'x' }),
      ),
    ).toEqual(['#/extra']);

    // Not multipart, or broken.
    await problem(
      await send('POST', '/api/review/import', JSON.stringify({ metadata: metadataFor() }), {
        'Content-Type': 'application/json',
      }),
      415,
      '415-001',
    );
    await problem(
      await send('POST', '/api/review/import', 'no boundary', { 'Content-Type': 'multipart/form-data' }),
      400,
      '400-001',
    );
    await problem(
      await send(
        'POST',
        '/api/review/import',
        '--b\r\nContent-Disposition: form-data; name="metadata"\r\n\r\n{',
        {
          'Content-Type': 'multipart/form-data; boundary=b',
        },
      ),
      400,
      '400-001',
    );

    expect(await documentCount()).toBe(count);
    expect(await keptFiles()).toEqual(files);
  });

  it('refuses parts over their limits (413), streaming the file to storage and removing it', async () => {
    const count = await documentCount();
    const files = await keptFiles();
    const bigResult = new Blob([`{"inference":{},"pad":"${'x'.repeat(MAX_IMPORT_PART_BYTES)}"}`], {
      type: 'application/json',
    });
    const form = new FormData();
    form.append('metadata', JSON.stringify(metadataFor({ upstreamJobId: 'big-result' })));
    form.append('result', bigResult, 'result.json');
    await problem(await send('POST', '/api/review/import', form), 413, '413-001');

    // One byte over the file's limit, sent as a stream (never a 100 MB buffer on either side).
    const boundary = 'import-boundary';
    const head = Buffer.from(
      [
        `--${boundary}`,
        'Content-Disposition: form-data; name="metadata"',
        '',
        JSON.stringify(metadataFor({ upstreamJobId: 'big-file' })),
        `--${boundary}`,
        'Content-Disposition: form-data; name="result"',
        '',
        JSON.stringify(v2Result('big-file')),
        `--${boundary}`,
        'Content-Disposition: form-data; name="file"; filename="big.pdf"',
        'Content-Type: application/pdf',
        '',
        '',
      ].join('\r\n'),
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const chunk = Buffer.alloc(1024 * 1024, 7);
    let left = MAX_IMPORT_FILE_BYTES + 1;
    let started = false;
    let ended = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (!started) {
          started = true;
          controller.enqueue(head);
        } else if (left > 0) {
          const size = Math.min(left, chunk.length);
          left -= size;
          controller.enqueue(chunk.subarray(0, size));
        } else if (!ended) {
          ended = true;
          controller.enqueue(tail);
          controller.close();
        }
      },
    });
    await problem(
      await send('POST', '/api/review/import', stream, {
        'Content-Type': `multipart/form-data; boundary=${boundary}`,
      }),
      413,
      '413-001',
    );
    expect(await documentCount()).toBe(count);
    expect(await keptFiles()).toEqual(files);
  });

  it('answers a failing file storage with a 500, and creates nothing', async () => {
    const count = await documentCount();
    const files = review.files;
    if (files === undefined) throw new Error('no file storage');
    const save = vi.spyOn(files, 'save').mockImplementationOnce(async (_key, source) => {
      await new Promise((resolve) => source.once('data', resolve));
      source.destroy();
      throw new Error('ENOSPC: no space left on device');
    });
    try {
      const response = await importJob({
        metadata: metadataFor({ upstreamJobId: 'job-full-disk' }),
        result: v2Result('job-full-disk'),
        file: new Blob([randomBytes(2_000_000)]),
      });
      await problem(response, 500, '500-001');
    } finally {
      save.mockRestore();
    }
    expect(await documentCount()).toBe(count);
  });

  it('needs a session (401) and its CSRF token (403), and then creates nothing', async () => {
    const count = await documentCount();
    const input = { metadata: metadataFor({ upstreamJobId: 'job-anon' }), result: v2Result('job-anon') };
    await problem(await importJob(input, { Cookie: '' }), 401, '401-011');
    await problem(await importJob(input, { 'X-CSRF-Token': '' }), 403, '403-004');
    await problem(await importJob(input, { 'X-CSRF-Token': `${csrf.slice(1)}x` }), 403, '403-004');
    expect(await documentCount()).toBe(count);
  });
});
