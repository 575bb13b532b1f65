/**
 * Routing at intake on both engines: a document sent by an integration whose values pass its model's
 * rules is confirmed on its own (by nobody, now, `auto_confirmed` with what it passed, the
 * confirmation hook run in the same transaction); one that fails a rule, is below the confidence
 * level, lacks a required field or is drawn for the sample goes to the queue, its timeline saying
 * why; the app's own uploads always go to the queue; the model settings are saved on their version.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BusinessRules,
  RoutingRules,
  type BusinessRuleInput,
} from '@extraction-review/contract/review/model-settings';
import {
  generatedInvoice,
  type GeneratedInvoice,
} from '@extraction-review/test-kit/invoices/generated-invoice';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { documentTimeline } from '../store/audit-store';
import { IntegrationStore } from '../store/integration-store';
import { ModelSettingsStore } from '../store/model-settings-store';
import { OperatorStore } from '../store/operator-store';
import { QueueStore, type ConfirmationHook } from '../store/queue-store';
import { failingRules, setRoutedResult } from './route-result';

const T0 = Date.UTC(2026, 10, 24, 9, 0, 0);
const MODEL = 'invoice-model';
const SUM: BusinessRuleInput = {
  id: 'lines',
  kind: 'sum',
  list: 'line_items',
  item: 'total_price',
  equals: 'total_net',
};

describe.each(ENGINES)('routing at intake on %s', (engine) => {
  let store: TestStore;
  let queue: QueueStore;
  let settings: ModelSettingsStore;
  let integration: string;
  let admin: string;
  let clock = T0;
  const confirmed: { id: string; state: string; inTransaction: boolean }[] = [];
  let failHook = false;

  beforeAll(async () => {
    store = await openTestStore(engine);
    const hook: ConfirmationHook = async (trx, document) => {
      // Inside the confirming transaction: it sees the confirmed row.
      const row = await trx
        .selectFrom('documents')
        .select('state')
        .where('id', '=', document.id)
        .executeTakeFirst();
      confirmed.push({ id: document.id, state: document.state, inTransaction: row?.state === 'confirmed' });
      if (failHook) throw new Error('the way back cannot be written');
    };
    queue = new QueueStore(store.database, 60_000, undefined, hook);
    settings = new ModelSettingsStore(store.database);
    admin = (
      await new OperatorStore(store.database).create({ name: 'Ada', role: 'admin', passwordHash: 'x' }, T0)
    ).id;
    integration = (await new IntegrationStore(store.database).create({ name: 'Pipeline' }, T0)).integration
      .id;
  });
  afterAll(async () => {
    await store.cleanup();
  });

  async function configure(routing: Partial<RoutingRules>, rules: BusinessRuleInput[] = []) {
    const current = await settings.get('v2', MODEL);
    const saved = await settings.put(
      'v2',
      MODEL,
      current.version,
      {
        routing: RoutingRules.parse({ autoConfirm: true, minConfidence: 'High', ...routing }),
        rules: BusinessRules.parse(rules),
        feedbackEnabled: false,
      },
      admin,
      (clock += 1000),
    );
    if (!saved.ok) throw new Error('not saved');
  }

  async function arrive(
    invoice: GeneratedInvoice,
    from: 'integration' | 'app' = 'integration',
    random = 0.5,
  ) {
    clock += 1000;
    const added = await queue.addDocument(
      {
        apiVersion: 'v2',
        modelKey: MODEL,
        fileName: 'invoice.pdf',
        upstreamJobId: `job-${String(clock)}`,
        integrationId: from === 'integration' ? integration : null,
      },
      clock,
    );
    const json = JSON.stringify(generatedInvoice(invoice));
    const row = await setRoutedResult(
      { database: store.database, queue },
      added.id,
      { json, resultId: 'inf', fieldsTotal: 14, fieldsToReview: 0 },
      (clock += 1000),
      { random: () => random },
    );
    if (row === undefined) throw new Error('not processing');
    const events = await documentTimeline(store.database.db, added.id);
    return { row, events: events.map((e) => ({ kind: e.kind, data: e.data })) };
  }

  it('sends every document to review until an admin turns automatic confirmation on', async () => {
    const { row, events } = await arrive({});
    expect(row.state).toBe('to_review');
    expect(events.at(-1)).toEqual({
      kind: 'routed_to_review',
      data: { reasons: ['Automatic confirmation is off for this model'] },
    });
  });

  it('confirms a document that passes its rules on its own, by nobody, and says so', async () => {
    await configure({}, [SUM]);
    const { row, events } = await arrive({});
    expect(row).toMatchObject({ state: 'confirmed', decided_by: null, decided_at: clock, holder_id: null });
    expect(events.map((e) => e.kind)).toEqual(['received', 'extracted', 'auto_confirmed']);
    expect(events.at(-1)?.data).toEqual({
      reasons: ['Every value at High confidence or above', 'The business rule passes'],
    });
    expect(confirmed.at(-1)).toEqual({ id: row.id, state: 'confirmed', inTransaction: true });
  });

  it('queues a document that fails a business rule, with the rule and why', async () => {
    const before = confirmed.length;
    const { row, events } = await arrive({ lines: [50, 54], net: 100, tax: 20, total: 120 });
    expect(row.state).toBe('to_review');
    expect(row.decided_at).toBeNull();
    expect(events.at(-1)).toEqual({
      kind: 'routed_to_review',
      data: {
        reasons: [
          'Rule lines fails: line_items[*].total_price add up to 104.00, not total_net 100.00 (tolerance 0.01)',
        ],
        failing: [
          {
            ruleId: 'lines',
            kind: 'sum',
            message: 'line_items[*].total_price add up to 104.00, not total_net 100.00 (tolerance 0.01)',
            fields: ['line_items[0].total_price', 'line_items[1].total_price', 'total_net'],
          },
        ],
      },
    });
    expect(confirmed).toHaveLength(before);
  });

  it('queues a value below the confidence level, a missing required field, and the sample', async () => {
    await configure({ requiredFields: ['invoice_number'], samplePercent: 10 }, [SUM]);
    expect((await arrive({ confidenceOf: { total_amount: 'Medium' } })).row.state).toBe('to_review');
    expect((await arrive({ invoiceNumber: null })).row.state).toBe('to_review');
    const drawn = await arrive({}, 'integration', 0.05);
    expect(drawn.row.state).toBe('to_review');
    expect(drawn.events.at(-1)?.data).toEqual({ reasons: ['Drawn for the 10 % random sample'] });
    expect((await arrive({}, 'integration', 0.5)).row.state).toBe('confirmed');
  });

  it('always queues the app’s own uploads, without a routing event', async () => {
    const { row, events } = await arrive({}, 'app');
    expect(row.state).toBe('to_review');
    expect(events.map((e) => e.kind)).toEqual(['received', 'extracted']);
  });

  it('queues a result the review cannot read', async () => {
    clock += 1000;
    const added = await queue.addDocument(
      {
        apiVersion: 'v2',
        modelKey: MODEL,
        fileName: 'x.pdf',
        upstreamJobId: 'odd',
        integrationId: integration,
      },
      clock,
    );
    const row = await setRoutedResult(
      { database: store.database, queue },
      added.id,
      { json: '{"inference":{}}', resultId: null, fieldsTotal: 0, fieldsToReview: 0 },
      clock,
    );
    expect(row?.state).toBe('to_review');
    const events = await documentTimeline(store.database.db, added.id);
    expect(events.at(-1)?.data).toEqual({
      reasons: [
        'The result cannot be read: The stored result is not a v2 extraction result this app can read',
      ],
    });
  });

  it('rolls the automatic confirmation back when the confirmation hook fails', async () => {
    failHook = true;
    try {
      await expect(arrive({})).rejects.toThrow('the way back cannot be written');
    } finally {
      failHook = false;
    }
    const stuck = await store.database.db
      .selectFrom('documents')
      .selectAll()
      .where('upstream_job_id', '=', `job-${String(clock - 1000)}`)
      .executeTakeFirstOrThrow();
    expect(stuck.state).toBe('processing');
    expect((await documentTimeline(store.database.db, stuck.id)).map((e) => e.kind)).toEqual(['received']);
  });

  it('changes nothing for a result delivered twice', async () => {
    const { row } = await arrive({});
    const again = await setRoutedResult(
      { database: store.database, queue },
      row.id,
      { json: '{}', resultId: null, fieldsTotal: 0, fieldsToReview: 0 },
      clock,
    );
    expect(again).toBeUndefined();
  });

  it('finds the failing rules of a queued document with its corrections', async () => {
    const { row } = await arrive({ lines: [50, 54], net: 100, tax: 20, total: 120 });
    expect((await failingRules({ database: store.database, queue }, row)).map((f) => f.ruleId)).toEqual([
      'lines',
    ]);
    const taken = await queue.take(row.id, admin, clock);
    if (!taken.ok) throw new Error('not taken');
    const saved = await queue.saveCorrections(
      row.id,
      admin,
      taken.document.version,
      [{ path: 'line_items[1].total_price', value: '50.00' }],
      clock,
    );
    if (!saved.ok) throw new Error('not saved');
    expect(await failingRules({ database: store.database, queue }, saved.document)).toEqual([]);
  });
});

describe.each(ENGINES)('model settings on %s', (engine) => {
  let store: TestStore;
  let settings: ModelSettingsStore;
  let admin: string;

  beforeAll(async () => {
    store = await openTestStore(engine);
    settings = new ModelSettingsStore(store.database);
    admin = (
      await new OperatorStore(store.database).create({ name: 'Ada', role: 'admin', passwordHash: 'x' }, T0)
    ).id;
  });
  afterAll(async () => {
    await store.cleanup();
  });

  const input = (autoConfirm: boolean) => ({
    routing: RoutingRules.parse({ autoConfirm }),
    rules: BusinessRules.parse([SUM]),
    feedbackEnabled: true,
  });

  it('has the defaults at version 0, then saves on the version read, once per version', async () => {
    expect(await settings.get('v1', 'acme/invoices/v4')).toMatchObject({
      version: 0,
      routing: { autoConfirm: false },
      rules: [],
      feedbackEnabled: false,
      updatedBy: null,
    });
    const first = await settings.put('v1', 'acme/invoices/v4', 0, input(true), admin, T0);
    expect(first).toMatchObject({
      ok: true,
      settings: {
        version: 1,
        routing: { autoConfirm: true },
        feedbackEnabled: true,
        updatedBy: { name: 'Ada' },
      },
    });
    // A second first save, and a save on version 0 or 2, find version 1 there.
    for (const version of [0, 2]) {
      const stale = await settings.put('v1', 'acme/invoices/v4', version, input(false), admin, T0 + 1);
      expect(stale).toMatchObject({ ok: false, current: { version: 1, routing: { autoConfirm: true } } });
    }
    expect(await settings.put('v1', 'acme/invoices/v4', 1, input(false), admin, T0 + 2)).toMatchObject({
      ok: true,
      settings: { version: 2, updatedAt: T0 + 2 },
    });
    const audit = await store.database.db
      .selectFrom('audit_events')
      .selectAll()
      .where('kind', '=', 'settings_changed')
      .execute();
    expect(audit.map((e) => [e.document_id, e.actor_id, JSON.parse(e.data_json ?? '{}').version])).toEqual([
      [null, admin, 1],
      [null, admin, 2],
    ]);
  });

  it('lists the models with documents or settings', async () => {
    const queue = new QueueStore(store.database, 60_000);
    await queue.addDocument({ apiVersion: 'v2', modelKey: 'm-2', fileName: 'a.pdf' }, T0);
    await queue.addDocument({ apiVersion: 'v2', modelKey: 'm-2', fileName: 'b.pdf' }, T0);
    expect((await settings.list()).map((m) => [m.apiVersion, m.modelKey, m.version, m.documents])).toEqual([
      ['v1', 'acme/invoices/v4', 2, 0],
      ['v2', 'm-2', 0, 2],
    ]);
  });

  it('falls back to the defaults for settings that no longer fit their schema', async () => {
    await store.database.db
      .insertInto('model_settings')
      .values({
        api_version: 'v2',
        model_key: 'odd',
        routing_json: '{"autoConfirm":true}',
        rules_json: '[{"kind":"unknown"}]',
        feedback_enabled: 0,
        version: 3,
        updated_at: T0,
        updated_by: null,
      })
      .execute();
    const read = await settings.get('v2', 'odd');
    expect(read).toMatchObject({ version: 3, routing: { autoConfirm: false }, rules: [] });
  });
});
