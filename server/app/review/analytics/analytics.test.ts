/**
 * "Where time goes" on both engines, from a week of documents made through the queue store with a
 * moving clock: automatic and operators' confirmations per day, the fields corrected most (the latest
 * correction kept, a reverted one not, list items grouped, list edits apart) with before → after
 * examples, time per document and per operator (sessions released and taken again, a lease left to
 * expire, a reassignment), and the queue's age now. Every expected number is worked out by hand in
 * the comments.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnalyticsResponse } from '@extraction-review/contract/review/analytics';
import { generatedInvoice } from '@extraction-review/test-kit/invoices/generated-invoice';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { OperatorStore } from '../store/operator-store';
import { QueueStore, type CorrectionInput } from '../store/queue-store';
import { analyticsCsv } from './analytics-csv';
import { analyticsFigures } from './figures';
import { percentile } from './ranges';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const LEASE = 10 * MIN;
/** The period: the seven days from T0. */
const T0 = Date.UTC(2026, 10, 23, 0, 0, 0);
const NOW = T0 + 6 * DAY + 12 * HOUR;
const RESULT = JSON.stringify(generatedInvoice({ lines: [25, 20, 2.5], total: 57, tax: 9.5 }));

describe.each(ENGINES)('where time goes on %s', (engine) => {
  let store: TestStore;
  let queue: QueueStore;
  let alice = '';
  let bob = '';
  let ada = '';
  let figures: AnalyticsResponse;
  let everyModel: AnalyticsResponse;

  /** A document whose result arrived at `readyAt` (confirmed at once when `automatic`). */
  async function ready(fileName: string, readyAt: number, model = 'model-a', automatic = false) {
    const added = await queue.addDocument({ apiVersion: 'v2', modelKey: model, fileName }, readyAt - MIN);
    const document = await queue.setResult(
      added.id,
      { json: RESULT, resultId: `inf-${fileName}`, fieldsTotal: 12, fieldsToReview: 2 },
      readyAt,
      automatic ? { review: false, reasons: ['Every value at High confidence or above'] } : undefined,
    );
    if (!document) throw new Error('not ready');
    return document.id;
  }

  async function take(id: string, operator: string, at: number): Promise<number> {
    const taken = await queue.take(id, operator, at);
    if (!taken.ok) throw new Error(`not taken: ${taken.reason}`);
    return taken.document.version;
  }

  async function correct(id: string, operator: string, version: number, at: number, c: CorrectionInput[]) {
    const saved = await queue.saveCorrections(id, operator, version, c, at);
    if (!saved.ok) throw new Error(`not saved: ${saved.reason}`);
    return saved.document.version;
  }

  async function decide(
    id: string,
    operator: string,
    version: number,
    at: number,
    decision: 'confirmed' | 'rejected' | 'postponed' = 'confirmed',
  ) {
    const decided = await queue.decide(
      id,
      operator,
      version,
      decision,
      decision === 'rejected' ? 'Unreadable' : null,
      at,
    );
    if (!decided.ok) throw new Error(`not decided: ${decided.reason}`);
  }

  beforeAll(async () => {
    store = await openTestStore(engine);
    queue = new QueueStore(store.database, LEASE);
    const operators = new OperatorStore(store.database);
    alice = (await operators.create({ name: 'Alice', role: 'operator', passwordHash: 'x' }, T0 - 2 * DAY)).id;
    bob = (await operators.create({ name: 'Bob', role: 'operator', passwordHash: 'x' }, T0 - 2 * DAY)).id;
    ada = (await operators.create({ name: 'Ada', role: 'admin', passwordHash: 'x' }, T0 - 2 * DAY)).id;

    // H, before the period: counts nowhere.
    const h = await ready('h.pdf', T0 - 2 * DAY);
    let v = await take(h, alice, T0 - DAY);
    v = await correct(h, alice, v, T0 - DAY + MIN, [{ path: 'total_amount', value: '1' }]);
    await decide(h, alice, v, T0 - DAY + 2 * MIN);

    // A, day 0: Alice, 5 min; total_amount 57 → 58, line_items[1].total_price 20 → 21.
    const a = await ready('a.pdf', T0 + HOUR);
    v = await take(a, alice, T0 + 2 * HOUR);
    v = await correct(a, alice, v, T0 + 2 * HOUR + MIN, [{ path: 'total_amount', value: '58' }]);
    v = await correct(a, alice, v, T0 + 2 * HOUR + 2 * MIN, [
      { path: 'line_items[1].total_price', value: '21' },
    ]);
    await decide(a, alice, v, T0 + 2 * HOUR + 5 * MIN);

    // B, day 1: Bob 3 min then releases; Alice 4 min. total_amount 57 → 61 (Bob's 60 overwritten),
    // line_items[0] 25 → 26 and [2] 2.5 → 3, one line item added.
    const b = await ready('b.pdf', T0 + HOUR);
    v = await take(b, bob, T0 + DAY);
    await correct(b, bob, v, T0 + DAY + MIN, [{ path: 'total_amount', value: '60' }]);
    const released = await queue.release(b, bob, T0 + DAY + 3 * MIN);
    if (!released.ok) throw new Error('not released');
    v = await take(b, alice, T0 + DAY + 10 * MIN);
    v = await correct(b, alice, v, T0 + DAY + 11 * MIN, [
      { path: 'total_amount', value: '61' },
      { path: 'line_items[0].total_price', value: '26' },
      { path: 'line_items[2].total_price', value: '3' },
      { path: '#added', value: { line_items: 1 } },
    ]);
    await decide(b, alice, v, T0 + DAY + 14 * MIN);

    // C, day 2: Bob, 2 min; the date corrected then reverted (not counted), total_tax 9.5 → 9.6,
    // line item 2 removed.
    const c = await ready('c.pdf', T0 + HOUR);
    v = await take(c, bob, T0 + 2 * DAY);
    v = await correct(c, bob, v, T0 + 2 * DAY + 30_000, [{ path: 'date', value: '2024-03-15' }]);
    v = await correct(c, bob, v, T0 + 2 * DAY + MIN, [
      { path: 'date', value: { $reverted: true } },
      { path: 'total_tax', value: '9.6' },
      { path: '#removed', value: ['line_items[2]'] },
    ]);
    await decide(c, bob, v, T0 + 2 * DAY + 2 * MIN);

    // Q3, waiting since day 2 + 12 h (4 days at NOW), postponed by Alice.
    const q3 = await ready('q3.pdf', T0 + 2 * DAY + 12 * HOUR);
    v = await take(q3, alice, T0 + 2 * DAY + 13 * HOUR);
    await decide(q3, alice, v, T0 + 2 * DAY + 13 * HOUR + MIN, 'postponed');

    // D, day 3: Alice corrects the currency after 1 min and leaves it; Bob takes it over 30 min later
    // and rejects it 2 min after: Alice 1 min (to her last correction), Bob 2 min. Rejected: its
    // correction is not counted.
    const d = await ready('d.pdf', T0 + 3 * DAY - HOUR);
    v = await take(d, alice, T0 + 3 * DAY);
    await correct(d, alice, v, T0 + 3 * DAY + MIN, [{ path: 'currency', value: 'USD' }]);
    v = await take(d, bob, T0 + 3 * DAY + 30 * MIN);
    await decide(d, bob, v, T0 + 3 * DAY + 32 * MIN, 'rejected');

    // E and F, day 4: confirmed at intake by the routing rules.
    await ready('e.pdf', T0 + 4 * DAY, 'model-a', true);
    await ready('f.pdf', T0 + 4 * DAY + HOUR, 'model-a', true);

    // G, day 5, another model: Alice, 6 min; total_amount 57 → 70.
    const g = await ready('g.pdf', T0 + 5 * DAY - HOUR, 'model-b');
    v = await take(g, alice, T0 + 5 * DAY);
    v = await correct(g, alice, v, T0 + 5 * DAY + MIN, [{ path: 'total_amount', value: '70' }]);
    await decide(g, alice, v, T0 + 5 * DAY + 6 * MIN);

    // R, day 6: Ada hands it to Bob, who confirms it 4 min later.
    const r = await ready('r.pdf', T0 + 6 * DAY);
    const reassigned = await queue.reassign(r, ada, bob, T0 + 6 * DAY + HOUR);
    if (!reassigned.ok) throw new Error('not reassigned');
    await decide(r, bob, reassigned.document.version, T0 + 6 * DAY + HOUR + 4 * MIN);

    // The queue at NOW: Q1 waiting 30 min, Q2 held by Bob (12 h), Q3 postponed (4 days); Q4 of
    // model-b waiting 2 h.
    await ready('q1.pdf', NOW - 30 * MIN);
    const q2 = await ready('q2.pdf', NOW - 12 * HOUR);
    await take(q2, bob, NOW - MIN);
    await ready('q4.pdf', NOW - 2 * HOUR, 'model-b');

    const week = { from: T0, to: T0 + 7 * DAY, bucket: 'day' as const };
    figures = AnalyticsResponse.parse(
      await analyticsFigures(store.database, { ...week, model: 'model-a' }, NOW),
    );
    everyModel = AnalyticsResponse.parse(await analyticsFigures(store.database, week, NOW));
  });
  afterAll(async () => {
    await store.cleanup();
  });

  it('counts confirmations per day: automatic, by an operator, rejected', () => {
    expect(figures.model).toBe('model-a');
    expect(figures.from).toBe(new Date(T0).toISOString());
    expect(figures.confirmations.periods.map((p) => [p.automatic, p.byOperator, p.rejected])).toEqual([
      [0, 1, 0], // A
      [0, 1, 0], // B
      [0, 1, 0], // C
      [0, 0, 1], // D
      [2, 0, 0], // E, F
      [0, 0, 0], // (G is model-b)
      [0, 1, 0], // R
    ]);
    expect(figures.confirmations.periods[4]?.automaticShare).toBe(1);
    expect(figures.confirmations.periods[3]?.automaticShare).toBeNull();
    expect(figures.confirmations.periods[6]).toMatchObject({
      from: new Date(T0 + 6 * DAY).toISOString(),
      to: new Date(T0 + 7 * DAY).toISOString(),
    });
    expect(figures.confirmations).toMatchObject({ automatic: 2, byOperator: 4, rejected: 1 });
    expect(figures.confirmations.automaticShare).toBeCloseTo(2 / 6, 10);
    expect(everyModel.confirmations).toMatchObject({ automatic: 2, byOperator: 5, rejected: 1 });
    expect(everyModel.models).toEqual([
      { apiVersion: 'v2', model: 'model-a' },
      { apiVersion: 'v2', model: 'model-b' },
    ]);
  });

  it('cuts a longer period in weeks, the last one short', async () => {
    const weeks = await analyticsFigures(
      store.database,
      { from: T0 - 7 * DAY, to: T0 + 10 * DAY, bucket: 'week', model: 'model-a' },
      NOW,
    );
    expect(
      weeks.confirmations.periods.map((p) => [p.from, p.to, p.automatic, p.byOperator, p.rejected]),
    ).toEqual([
      [new Date(T0 - 7 * DAY).toISOString(), new Date(T0).toISOString(), 0, 1, 0], // H
      [new Date(T0).toISOString(), new Date(T0 + 7 * DAY).toISOString(), 2, 4, 1],
      [new Date(T0 + 7 * DAY).toISOString(), new Date(T0 + 10 * DAY).toISOString(), 0, 0, 0],
    ]);
  });

  it('lists the fields corrected most, list items grouped, with before → after examples', () => {
    const { corrections } = figures;
    expect(corrections.documentsConfirmed).toBe(4); // A, B, C, R
    expect(corrections.documentsCorrected).toBe(3); // A, B, C
    expect(corrections.fields.map((f) => [f.field, f.documents, f.values, f.share])).toEqual([
      ['line_items[].total_price', 2, 3, 0.5],
      ['total_amount', 2, 2, 0.5],
      ['total_tax', 1, 1, 0.25],
    ]);
    const [lines, total, tax] = corrections.fields;
    expect(total?.examples.map((e) => [e.fileName, e.path, e.before, e.after])).toEqual([
      ['b.pdf', 'total_amount', '57', '61'],
      ['a.pdf', 'total_amount', '57', '58'],
    ]);
    expect(total?.examples[0]?.confirmedAt).toBe(new Date(T0 + DAY + 14 * MIN).toISOString());
    expect(lines?.examples.map((e) => [e.fileName, e.path, e.before, e.after])).toEqual([
      ['b.pdf', 'line_items[2].total_price', '2.5', '3'],
      ['b.pdf', 'line_items[0].total_price', '25', '26'],
      ['a.pdf', 'line_items[1].total_price', '20', '21'],
    ]);
    expect(tax?.examples.map((e) => [e.before, e.after])).toEqual([['9.5', '9.6']]);
    expect(corrections.listEdits).toEqual([{ list: 'line_items', documents: 2, added: 1, removed: 1 }]);

    expect(everyModel.corrections.fields.map((f) => [f.field, f.documents, f.values, f.share])).toEqual([
      ['total_amount', 3, 3, 0.6],
      ['line_items[].total_price', 2, 3, 0.4],
      ['total_tax', 1, 1, 0.2],
    ]);
  });

  it('counts the time spent per document and per operator, session by session', () => {
    // Per document: A 5, B 3 + 4, C 2, D 1 + 2, R 4 minutes (E and F: nobody).
    expect(figures.time).toMatchObject({
      documents: 5,
      totalMs: 21 * MIN,
      medianMs: 4 * MIN,
      p90Ms: 7 * MIN,
    });
    expect(figures.time.ranges.map((r) => r.count)).toEqual([0, 0, 3, 2, 0, 0]);
    expect(figures.time.operators).toEqual([
      { operatorId: bob, name: 'Bob', documents: 4, totalMs: 11 * MIN, medianMs: 2 * MIN }, // 3, 2, 2, 4
      { operatorId: alice, name: 'Alice', documents: 3, totalMs: 10 * MIN, medianMs: 4 * MIN }, // 5, 4, 1
    ]);
    // With G (Alice, 6 min): 2, 3, 4, 5, 6, 7.
    expect(everyModel.time).toMatchObject({
      documents: 6,
      totalMs: 27 * MIN,
      medianMs: 4 * MIN,
      p90Ms: 7 * MIN,
    });
    expect(everyModel.time.operators.map((o) => [o.name, o.documents, o.totalMs, o.medianMs])).toEqual([
      ['Alice', 4, 16 * MIN, 4 * MIN],
      ['Bob', 4, 11 * MIN, 2 * MIN],
    ]);
  });

  it('ages the queue now: waiting, held and postponed documents, whatever the period', () => {
    expect(figures.queue).toEqual({
      total: 3,
      waiting: 1,
      inReview: 1,
      postponed: 1,
      medianMs: 12 * HOUR,
      p90Ms: 4 * DAY,
      maxMs: 4 * DAY,
      ages: [
        { label: 'under 1 hour', fromMs: 0, toMs: HOUR, count: 1 },
        { label: '1–4 hours', fromMs: HOUR, toMs: 4 * HOUR, count: 0 },
        { label: '4–24 hours', fromMs: 4 * HOUR, toMs: DAY, count: 1 },
        { label: '1–3 days', fromMs: DAY, toMs: 3 * DAY, count: 0 },
        { label: '3–7 days', fromMs: 3 * DAY, toMs: 7 * DAY, count: 1 },
        { label: '7 days or more', fromMs: 7 * DAY, toMs: null, count: 0 },
      ],
    });
    expect(everyModel.queue).toMatchObject({ total: 4, waiting: 2, medianMs: 2 * HOUR, p90Ms: 4 * DAY });
  });

  it('writes each table as CSV', () => {
    expect(analyticsCsv(figures, 'fields')).toBe(
      '\uFEFFfield,documents,values,share_of_documents,documents_confirmed_by_operator\r\n' +
        'line_items[].total_price,2,3,0.5,4\r\ntotal_amount,2,2,0.5,4\r\ntotal_tax,1,1,0.25,4\r\n',
    );
    expect(analyticsCsv(figures, 'operators').split('\r\n').slice(0, 3)).toEqual([
      '\uFEFFoperator,operator_id,documents,total_seconds,median_seconds_per_document',
      `Bob,${bob},4,660,120`,
      `Alice,${alice},3,600,240`,
    ]);
  });

  it('answers zeros, not errors, for a model with nothing', async () => {
    const empty = AnalyticsResponse.parse(
      await analyticsFigures(
        store.database,
        { from: T0, to: T0 + DAY, bucket: 'day', model: 'nothing' },
        NOW,
      ),
    );
    expect(empty.confirmations).toMatchObject({ automatic: 0, byOperator: 0, automaticShare: null });
    expect(empty.corrections.fields).toEqual([]);
    expect(empty.time).toMatchObject({ documents: 0, totalMs: 0, medianMs: null });
    expect(empty.queue).toMatchObject({ total: 0, medianMs: null, maxMs: null });
  });
});

describe('percentiles by nearest rank', () => {
  it('takes one of the values: the lower middle of an even count', () => {
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2);
    expect(percentile([1, 2, 3], 0.5)).toBe(2);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.9)).toBe(9);
    expect(percentile([], 0.5)).toBeNull();
  });
});
