/**
 * The rules' known fields from the model's data schema (issue 21), over real HTTP on both engines: a
 * v2 model whose upstream (a real HTTP server on 127.0.0.1) offers its schema has its fields offered,
 * titled by the schema, and checked before its first document; its documents' own fields join them;
 * the schema is read once per model for a while; an upstream without the extension (404) or down
 * leaves the documents' fields alone, as before.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelFields } from '@extraction-review/contract/review/model-settings';
import { SessionResponse } from '@extraction-review/contract/review/schemas';
import { startUpstream, type TestUpstream } from '@extraction-review/test-kit/app/upstream';
import { createApp } from '../../create-app';
import { listen, type RunningServer } from '../../listen';
import { hashPassword } from '../auth/passwords';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { openReview, type OpenedReview } from '../open-review';
import { cachedModelSchemas } from '../../upstream/model-schemas';
import { V2Upstream } from '../../upstream/v2-upstream';
import { mountReview } from './mount-review';

const T0 = Date.UTC(2026, 11, 7, 9, 0, 0);
const PASSWORD = 'correct horse battery staple';
const MODEL = 'b4e6af9b-dfe5-44c8-9ae8-22225d8d2d5a';
const NO_SCHEMA = 'model-without-schema';

const SCHEMA = {
  model: {
    id: MODEL,
    name: 'Invoice',
    data_schema: {
      fields: [
        { name: 'invoice_number', title: 'Invoice Number', type: 'string' },
        {
          name: 'supplier_address',
          title: 'Supplier Address',
          type: 'nested_object',
          nested_fields: [{ name: 'city', title: 'City', type: 'string' }],
        },
        {
          name: 'line_items',
          title: 'Line Items',
          type: 'nested_object',
          is_array: true,
          nested_fields: [{ name: 'total_price', title: 'Total Price', type: 'number' }],
        },
      ],
    },
  },
};

const settingsPath = (model: string) => `/api/review/models/v2/${encodeURIComponent(model)}/settings`;
const fieldsPath = (model: string) => `/api/review/models/v2/${encodeURIComponent(model)}/fields`;

describe.each(ENGINES)("the rules' known fields from the model's data schema on %s", (engine) => {
  let upstream: TestUpstream;
  let store: TestStore;
  let review: OpenedReview;
  let server: RunningServer;
  let cookie = '';
  let csrf = '';
  let clock = T0;

  const send = async (method: string, path: string, body?: unknown) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: {
        Origin: server.url,
        'Sec-Fetch-Site': 'same-origin',
        Cookie: cookie,
        'X-CSRF-Token': csrf,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  beforeAll(async () => {
    upstream = await startUpstream((req, res: ServerResponse) => {
      req.resume();
      const known = req.url === `/v2/extensions/models/${MODEL}`;
      res.writeHead(known ? 200 : 404, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(known ? SCHEMA : { status: 404, detail: 'No such model' }));
    });
    store = await openTestStore(engine);
    review = await openReview({ ...store.settings, clock: { now: () => clock } });
    const modelSchemas = cachedModelSchemas(new V2Upstream({ url: upstream.url, apiKey: 'server-key' }), {
      clock: { now: () => clock },
    });
    server = await listen(
      createApp({ upstream: {}, staticDir: null, review: mountReview({ ...review, modelSchemas }) }),
      { host: '127.0.0.1', port: 0 },
    );
    await review.operators.create(
      { name: 'Ada', role: 'admin', passwordHash: await hashPassword(PASSWORD) },
      T0,
    );
    const signedIn = await send('POST', '/api/session', { name: 'Ada', password: PASSWORD });
    expect(signedIn.status).toBe(200);
    cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    csrf = SessionResponse.parse(await signedIn.json()).csrfToken;
  });
  afterAll(async () => {
    await server.close();
    await review.close();
    await store.cleanup();
    await upstream.close();
  });

  it('offers the schema’s fields, titled by it, before any document, and checks rules against them', async () => {
    const read = await send('GET', fieldsPath(MODEL));
    expect(read.status).toBe(200);
    expect(ModelFields.parse(await read.json())).toEqual({
      fields: [
        { path: 'invoice_number', title: 'Invoice Number' },
        { path: 'supplier_address', title: 'Supplier Address' },
        { path: 'supplier_address.city', title: 'Supplier Address › City' },
        { path: 'line_items', title: 'Line Items' },
        { path: 'line_items[*].total_price', title: 'Line Items › Total Price' },
      ],
      documentsRead: 0,
      dataSchema: true,
    });

    const refused = await send('PUT', settingsPath(MODEL), {
      version: 0,
      routing: {},
      rules: [
        { id: 'city', kind: 'required', field: 'supplier_address.town' },
        { id: 'lines', kind: 'sum', list: 'line_items', item: 'total_price', equals: 'invoice_number' },
      ],
    });
    expect(refused.status).toBe(422);
    const problem = (await refused.json()) as { code: string; errors: { pointer: string }[] };
    expect(problem.code).toBe('422-015');
    expect(problem.errors.map((e) => e.pointer)).toEqual(['#/rules/0/field']);

    const saved = await send('PUT', settingsPath(MODEL), {
      version: 0,
      routing: {},
      rules: [{ id: 'city', kind: 'required', field: 'supplier_address.city' }],
    });
    expect(saved.status).toBe(200);
  });

  it("adds the documents' own fields after the schema's, and reads the schema once for a while", async () => {
    clock += 1000;
    const added = await review.queue.addDocument(
      { apiVersion: 'v2', modelKey: MODEL, fileName: 'invoice.pdf', upstreamJobId: 'job-1' },
      clock,
    );
    const result = {
      inference: {
        id: 'inf-1',
        model: { id: MODEL },
        file: { name: 'invoice.pdf', alias: null, page_count: 1, mime_type: 'application/pdf' },
        job: { id: 'job-1' },
        active_options: {
          raw_text: false,
          polygon: false,
          confidence: true,
          rag: false,
          multipage_context: false,
          text_context: false,
          data_schema: { replace: false },
        },
        result: {
          fields: {
            invoice_number: { value: 'INV-1', locations: [], confidence: 'High' },
            purchase_order: { value: 'PO-9', locations: [], confidence: 'High' },
          },
          raw_text: null,
          rag: null,
        },
      },
    };
    await review.queue.setResult(
      added.id,
      { json: JSON.stringify(result), resultId: 'inf-1', fieldsTotal: 2, fieldsToReview: 0 },
      clock,
    );
    const before = upstream.requests.length;
    const read = ModelFields.parse(await (await send('GET', fieldsPath(MODEL))).json());
    expect(read.documentsRead).toBe(1);
    expect(read.dataSchema).toBe(true);
    expect(read.fields.map((f) => f.path)).toEqual([
      'invoice_number',
      'supplier_address',
      'supplier_address.city',
      'line_items',
      'line_items[*].total_price',
      'purchase_order',
    ]);
    expect(read.fields.at(-1)).toEqual({ path: 'purchase_order', title: 'Purchase order' });
    // Kept: the schema was not asked for again within the five minutes.
    expect(upstream.requests.length).toBe(before);
    clock += 5 * 60_000;
    await send('GET', fieldsPath(MODEL));
    expect(upstream.requests.length).toBe(before + 1);
  });

  it('does without a schema the upstream does not have (404): nothing to check before a document', async () => {
    const read = ModelFields.parse(await (await send('GET', fieldsPath(NO_SCHEMA))).json());
    expect(read).toEqual({ fields: [], documentsRead: 0, dataSchema: false });
    const saved = await send('PUT', settingsPath(NO_SCHEMA), {
      version: 0,
      routing: {},
      rules: [{ id: 'any', kind: 'required', field: 'anything' }],
    });
    expect(saved.status).toBe(200);
  });
});
