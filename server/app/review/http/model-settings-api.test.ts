/**
 * Routing and business rules over real HTTP, on both engines: every operator reads a model's
 * settings, admins save them on the version read (422 with pointers into invalid rules, 409 with the
 * settings as they are now), v1 products in one URL-encoded segment; confirming a document whose
 * business rule fails needs an override reason (422 `422-009` naming each rule and its fields), which
 * its timeline keeps; a corrected value makes the rule pass.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_REASONS,
  ModelSettings,
  ModelsResponse,
} from '@extraction-review/contract/review/model-settings';
import { DocumentResponse, TimelineResponse } from '@extraction-review/contract/review/schemas';
import {
  generatedInvoice,
  type GeneratedInvoice,
} from '@extraction-review/test-kit/invoices/generated-invoice';
import type { RunningServer } from '../../listen';
import { ENGINES, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import {
  closeReviewApi,
  expectProblem,
  openReviewApiTeam,
  ReviewBrowser,
} from '@extraction-review/test-kit/review/review-browser';
import type { OpenedReview } from '../open-review';

const T0 = Date.UTC(2026, 10, 24, 9, 0, 0);
const MODEL = 'invoice-model';
const SUM = { id: 'lines', kind: 'sum', list: 'line_items', item: 'total_price', equals: 'total_net' };
const ORDER = { id: 'due', kind: 'date_order', earlier: 'date', later: 'due_date' };

describe.each(ENGINES)('model settings and confirming over rules on %s', (engine) => {
  let store: TestStore;
  let review: OpenedReview;
  let server: RunningServer;
  let admin: ReviewBrowser;
  let alice: ReviewBrowser;
  let clock = T0;

  beforeAll(async () => {
    ({ store, review, server, admin, alice } = await openReviewApiTeam(engine, () => clock, T0));
  });
  afterAll(() => closeReviewApi({ store, review, server }));

  const settingsPath = (apiVersion: string, model: string) =>
    `/api/review/models/${apiVersion}/${encodeURIComponent(model)}/settings`;

  async function queued(invoice: GeneratedInvoice) {
    clock += 1000;
    const added = await review.queue.addDocument(
      { apiVersion: 'v2', modelKey: MODEL, fileName: 'invoice.pdf', upstreamJobId: `job-${String(clock)}` },
      clock,
    );
    await review.queue.setResult(
      added.id,
      {
        json: JSON.stringify(generatedInvoice(invoice)),
        resultId: 'inf',
        fieldsTotal: 14,
        fieldsToReview: 0,
      },
      clock,
    );
    const taken = await alice.send('POST', `/api/review/documents/${added.id}/take`);
    expect(taken.status).toBe(200);
    return DocumentResponse.parse(await taken.json()).document;
  }

  it('needs a session to read settings', async () => {
    await expectProblem(
      await new ReviewBrowser(server.url).send('GET', '/api/review/models'),
      401,
      '401-011',
    );
    await expectProblem(
      await new ReviewBrowser(server.url).send('GET', settingsPath('v2', MODEL)),
      401,
      '401-011',
    );
  });

  it('gives the defaults of a model never configured, to any operator; a v1 product in one segment', async () => {
    const read = await alice.send('GET', settingsPath('v1', 'acme/invoices/v4'));
    expect(read.status).toBe(200);
    expect(ModelSettings.parse(await read.json())).toEqual({
      apiVersion: 'v1',
      model: 'acme/invoices/v4',
      version: 0,
      routing: {
        autoConfirm: false,
        minConfidence: 'High',
        requiredFields: [],
        onRuleFailure: true,
        samplePercent: 0,
      },
      rules: [],
      feedbackEnabled: false,
      reasons: DEFAULT_REASONS,
      retention: { filesAfterDays: null, documentsAfterDays: null },
      updatedAt: null,
      updatedBy: null,
    });
    await expectProblem(await alice.send('GET', settingsPath('v1', 'invoices')), 404, '404-004');
    await expectProblem(await alice.send('GET', settingsPath('v3', MODEL)), 404, '404-004');
    await expectProblem(await alice.send('GET', settingsPath('v2', 'a/b')), 404, '404-004');
  });

  it('lets admins, and only admins, save settings on the version read', async () => {
    const body = { version: 0, routing: { autoConfirm: true }, rules: [SUM], feedbackEnabled: true };
    await expectProblem(
      await alice.send('PUT', settingsPath('v1', 'acme/invoices/v4'), body),
      403,
      '403-005',
    );
    const saved = await admin.send('PUT', settingsPath('v1', 'acme/invoices/v4'), body);
    expect(saved.status).toBe(200);
    expect(ModelSettings.parse(await saved.json())).toMatchObject({
      version: 1,
      routing: { autoConfirm: true },
      rules: [{ ...SUM, tolerance: 0.01 }],
      feedbackEnabled: true,
      updatedAt: new Date(clock).toISOString(),
      updatedBy: { name: 'Ada' },
    });

    const stale = await expectProblem(
      await admin.send('PUT', settingsPath('v1', 'acme/invoices/v4'), body),
      409,
      '409-001',
    );
    expect(ModelSettings.parse(stale.current)).toMatchObject({ version: 1 });
    expect(stale.detail).toMatch(/version 1, saved by Ada/);

    const listed = ModelsResponse.parse(await (await alice.send('GET', '/api/review/models')).json());
    expect(listed.models.map((m) => [m.apiVersion, m.model, m.version])).toContainEqual([
      'v1',
      'acme/invoices/v4',
      1,
    ]);
  });

  it('refuses invalid rules with pointers into the body', async () => {
    const invalid = await expectProblem(
      await admin.send('PUT', settingsPath('v2', MODEL), {
        version: 0,
        routing: { samplePercent: 150 },
        rules: [
          { id: 'fmt', kind: 'pattern', field: 'invoice_number', pattern: '(unclosed' },
          { id: 'range', kind: 'date_range', field: 'date', min: '2024-05-01', max: '2024-01-01' },
          { id: 'fmt', kind: 'one_of', field: 'currency', values: [] },
        ],
      }),
      422,
      '422-008',
    );
    expect((invalid.errors as { pointer: string }[]).map((e) => e.pointer).sort()).toEqual([
      '#/routing/samplePercent',
      '#/rules/0/pattern',
      '#/rules/1/max',
      '#/rules/2/id',
      '#/rules/2/values',
    ]);
  });

  it('asks for an override reason to confirm a document whose business rule fails, and keeps it', async () => {
    const saved = await admin.send('PUT', settingsPath('v2', MODEL), {
      version: 0,
      routing: {},
      rules: [SUM, ORDER],
    });
    expect(saved.status).toBe(200);

    const document = await queued({ lines: [50, 54], net: 100, tax: 20, total: 120 });
    const refused = await expectProblem(
      await alice.send('POST', `/api/review/documents/${document.id}/confirm`, { version: document.version }),
      422,
      '422-009',
    );
    const message = 'line_items[*].total_price add up to 104.00, not total_net 100.00 (tolerance 0.01)';
    expect(refused.errors).toEqual([{ pointer: '#/fields/line_items/0/total_price', detail: message }]);
    expect(refused.failures).toEqual([
      {
        ruleId: 'lines',
        kind: 'sum',
        message,
        fields: ['line_items[0].total_price', 'line_items[1].total_price', 'total_net'],
      },
    ]);
    // Nothing was decided.
    const still = DocumentResponse.parse(
      await (await alice.send('GET', `/api/review/documents/${document.id}`)).json(),
    );
    expect(still.document).toMatchObject({ state: 'in_review', version: document.version });

    // An empty reason is no reason.
    await expectProblem(
      await alice.send('POST', `/api/review/documents/${document.id}/confirm`, {
        version: document.version,
        overrideReason: '  ',
      }),
      422,
      '422-008',
    );

    const confirmed = await alice.send('POST', `/api/review/documents/${document.id}/confirm`, {
      version: document.version,
      overrideReason: 'The supplier adds a handling fee to the net total.',
    });
    expect(confirmed.status).toBe(200);
    expect(DocumentResponse.parse(await confirmed.json()).document.state).toBe('confirmed');
    const timeline = TimelineResponse.parse(
      await (await alice.send('GET', `/api/review/documents/${document.id}/timeline`)).json(),
    );
    expect(timeline.events.at(-1)).toMatchObject({
      kind: 'confirmed',
      actor: { name: 'Alice' },
      data: {
        override: 'The supplier adds a handling fee to the net total.',
        failing: [{ ruleId: 'lines', message }],
      },
    });
  });

  it('confirms without a reason once the operator’s correction makes the rule pass', async () => {
    const document = await queued({ lines: [50, 54], net: 100, tax: 20, total: 120 });
    const corrected = await alice.send('PUT', `/api/review/documents/${document.id}/corrections`, {
      version: document.version,
      corrections: [{ path: 'line_items[1].total_price', value: '50.00' }],
    });
    const { version } = DocumentResponse.parse(await corrected.json()).document;
    const confirmed = await alice.send('POST', `/api/review/documents/${document.id}/confirm`, { version });
    expect(confirmed.status).toBe(200);
    const timeline = TimelineResponse.parse(
      await (await alice.send('GET', `/api/review/documents/${document.id}/timeline`)).json(),
    );
    expect(timeline.events.at(-1)).toMatchObject({ kind: 'confirmed', data: null });
  });

  it('answers a stale or foreign confirmation as before, rules or not', async () => {
    const document = await queued({ dueDate: '2000-01-01' });
    await expectProblem(
      await alice.send('POST', `/api/review/documents/${document.id}/confirm`, {
        version: document.version - 1,
      }),
      409,
      '409-001',
    );
    await expectProblem(
      await admin.send('POST', `/api/review/documents/${document.id}/confirm`, { version: document.version }),
      403,
      '403-006',
    );
    const refused = await expectProblem(
      await alice.send('POST', `/api/review/documents/${document.id}/confirm`, { version: document.version }),
      422,
      '422-009',
    );
    expect(refused.errors).toEqual([
      { pointer: '#/fields/due_date', detail: 'due_date 2000-01-01 is before date 2024-03-14' },
    ]);
  });

  it('offers the fields seen in the model’s documents, and refuses a rule on a field they do not have (422-015)', async () => {
    const fieldsPath = (model: string) => `/api/review/models/v2/${encodeURIComponent(model)}/fields`;
    const listed = (await (await alice.send('GET', fieldsPath(MODEL))).json()) as {
      fields: { path: string; title: string }[];
      documentsRead: number;
    };
    expect(listed.documentsRead).toBeGreaterThan(0);
    expect(listed.fields).toEqual(
      expect.arrayContaining([
        { path: 'total_amount', title: 'Total amount' },
        { path: 'supplier_address', title: 'Supplier address' },
        { path: 'supplier_address.city', title: 'Supplier address › City' },
        { path: 'line_items', title: 'Line items' },
        { path: 'line_items[*].total_price', title: 'Line items › Total price' },
      ]),
    );
    // One entry per field, whatever the number of items.
    expect(new Set(listed.fields.map((f) => f.path)).size).toBe(listed.fields.length);

    const current = ModelSettings.parse(await (await admin.send('GET', settingsPath('v2', MODEL))).json());
    const refused = await expectProblem(
      await admin.send('PUT', settingsPath('v2', MODEL), {
        version: current.version,
        routing: { requiredFields: ['total_amount', 'totl_amount'] },
        rules: [
          { id: 'total', kind: 'required', field: 'totl_amount' },
          { id: 'lines', kind: 'sum', list: 'line_items', item: 'price', equals: 'total_net' },
          { id: 'first', kind: 'required', field: 'line_items[0].description' },
        ],
      }),
      422,
      '422-015',
    );
    expect((refused.errors as { pointer: string }[]).map((e) => e.pointer)).toEqual([
      '#/routing/requiredFields/1',
      '#/rules/0/field',
      '#/rules/1/item',
    ]);
    // Nothing was saved.
    const after = ModelSettings.parse(await (await admin.send('GET', settingsPath('v2', MODEL))).json());
    expect(after.version).toBe(current.version);

    // A model with no document yet: its first rules cannot be checked, and are kept.
    const empty = (await (await alice.send('GET', fieldsPath('new-model'))).json()) as {
      documentsRead: number;
    };
    expect(empty).toEqual({ fields: [], documentsRead: 0, dataSchema: false });
    expect(
      (
        await admin.send('PUT', settingsPath('v2', 'new-model'), {
          version: 0,
          routing: {},
          rules: [{ id: 'total', kind: 'required', field: 'totl_amount' }],
        })
      ).status,
    ).toBe(200);
  });
});
