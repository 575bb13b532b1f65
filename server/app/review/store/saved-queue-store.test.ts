/**
 * Saved queues and the amount filter on both engines (SQLite, and a real PostgreSQL server): the amount
 * is read from the stored result (and a correction of it), the queue's one predicate filters on it for
 * the list, the counts and the next document, saved queues keep unique names and refuse stale
 * versions, and migration 0011 fills the amount of documents kept before it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturesDir } from '@extraction-review/test-kit/fixtures-dir';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { storeKeptBefore } from '@extraction-review/test-kit/review/store-kept-before';
import { QueueStore } from './queue-store';
import { OperatorStore } from './operator-store';
import { SavedQueueStore } from './saved-queue-store';

const LEASE = 60_000;
const T0 = Date.UTC(2026, 11, 7, 9, 0, 0);
const FINANCIAL = readFileSync(
  path.join(fixturesDir, 'v2', 'products', 'extraction', 'financial_document', 'complete.json'),
  'utf8',
);

/** The financial-document fixture with this total amount (null: none). */
function v2Result(total: number | null): string {
  const result = JSON.parse(FINANCIAL) as { inference: { result: { fields: Record<string, unknown> } } };
  result.inference.result.fields['total_amount'] = { value: total };
  return JSON.stringify(result);
}

describe.each(ENGINES)('saved queues and amounts on %s', (engine) => {
  let store: TestStore;
  let queue: QueueStore;
  let saved: SavedQueueStore;
  let alice: string;

  beforeAll(async () => {
    store = await openTestStore(engine);
    queue = new QueueStore(store.database, LEASE);
    saved = new SavedQueueStore(store.database);
    alice = (
      await new OperatorStore(store.database).create({ name: 'Alice', role: 'admin', passwordHash: 'x' }, T0)
    ).id;
  });
  afterAll(async () => {
    await store.cleanup();
  });

  async function ready(fileName: string, json: string, model = 'invoices') {
    const added = await queue.addDocument(
      { apiVersion: 'v2', modelKey: model, fileName, upstreamJobId: `job-${fileName}` },
      T0,
    );
    const document = await queue.setResult(
      added.id,
      { json, resultId: `inf-${fileName}`, fieldsTotal: 10, fieldsToReview: 3 },
      T0 + 10,
    );
    if (!document) throw new Error('not ready');
    return document;
  }

  it('reads the total amount of a stored result, and follows a correction of it', async () => {
    expect((await ready('fixture.pdf', FINANCIAL)).total_amount).toBe(204.75);
    expect((await ready('no-total.pdf', v2Result(null))).total_amount).toBeNull();
    expect((await ready('unreadable.pdf', '{"inference":{}}')).total_amount).toBeNull();
    const small = await ready('corrected.pdf', v2Result(900), 'corrected');
    const taken = await queue.take(small.id, alice, T0 + 20);
    if (!taken.ok) throw new Error('not taken');
    const corrected = await queue.saveCorrections(
      small.id,
      alice,
      taken.document.version,
      [{ path: 'total_amount', value: 12500 }],
      T0 + 30,
    );
    expect(corrected.ok && corrected.document.total_amount).toBe(12500);
    expect((await queue.find(small.id))?.total_amount).toBe(12500);
    await queue.release(small.id, alice, T0 + 40);
  });

  it('filters the list, the counts and the next document by amount', async () => {
    const big = await ready('big.pdf', v2Result(15000.5), 'amounts');
    await ready('small.pdf', v2Result(9999.99), 'amounts');
    await ready('none.pdf', v2Result(null), 'amounts');
    const now = T0 + 1000;
    const over = { model: 'amounts', minAmount: 10000 };
    const listed = await queue.listDocuments({ ...over, limit: 10 }, now);
    expect(listed.rows.map((d) => d.file_name)).toEqual(['big.pdf']);
    expect((await queue.countByState(now, over)).to_review).toBe(1);
    expect(await queue.countWaiting(now, over)).toBe(1);
    expect(await queue.countWaiting(now, { model: 'amounts', maxAmount: 10000 })).toBe(1);
    expect(await queue.countWaiting(now, { model: 'amounts', minAmount: 9999.99, maxAmount: 15000.5 })).toBe(
      2,
    );
    expect((await queue.takeNext(alice, now, over))?.id).toBe(big.id);
    expect(await queue.takeNext(alice, now, over)).toBeUndefined();
    expect(await queue.countWaiting(now, over)).toBe(0);
  });

  it('saves queues under unique names and refuses a stale version', async () => {
    const filters = { model: 'invoices', minAmount: 10000 };
    const created = await saved.create({ name: 'Invoices over 10,000', filters }, alice, T0);
    if (!created.ok) throw new Error('not created');
    expect(created.queue).toMatchObject({ name: 'Invoices over 10,000', filters, version: 1 });
    expect(await saved.create({ name: ' invoices OVER 10,000 ', filters }, alice, T0)).toEqual({
      ok: false,
      reason: 'name_taken',
    });
    const receipts = await saved.create({ name: 'Receipts', filters: { model: 'receipts' } }, alice, T0);
    if (!receipts.ok) throw new Error('not created');
    expect((await saved.list()).map((q) => q.name)).toEqual(['Invoices over 10,000', 'Receipts']);

    const renamed = await saved.update(created.queue.id, 1, { name: 'Big invoices' }, alice, T0 + 1);
    expect(renamed).toMatchObject({ ok: true, queue: { name: 'Big invoices', filters, version: 2 } });
    const stale = await saved.update(created.queue.id, 1, { filters: { state: 'to_review' } }, alice, T0 + 2);
    expect(stale).toMatchObject({
      ok: false,
      reason: 'changed',
      current: { name: 'Big invoices', version: 2 },
    });
    expect(await saved.update(receipts.queue.id, 1, { name: 'BIG INVOICES' }, alice, T0 + 3)).toEqual({
      ok: false,
      reason: 'name_taken',
    });
    const id = '00000000-0000-4000-8000-000000000000';
    expect(await saved.update(id, 1, { name: 'x' }, alice, T0)).toEqual({ ok: false, reason: 'not_found' });
    expect(await saved.delete(receipts.queue.id)).toBe(true);
    expect(await saved.delete(receipts.queue.id)).toBe(false);
    expect((await saved.list()).map((q) => q.name)).toEqual(['Big invoices']);
  });

  it('fills the amount of documents kept before migration 0011', async () => {
    // The store as a copy before 0011 left it: every migration named before it.
    const kept = await storeKeptBefore(engine, '0011-saved-filters', store.settings.dataDir);
    try {
      const { db } = kept;
      const row = (id: string, result: string | null) => ({
        id,
        api_version: 'v2',
        model_key: 'm',
        file_name: `${id}.pdf`,
        state: result === null ? 'processing' : 'to_review',
        result_json: result,
        created_at: T0,
        updated_at: T0,
      });
      await db
        .insertInto('documents')
        .values([row('a', v2Result(42000)), row('b', v2Result(10)), row('c', null), row('d', 'not json')])
        .execute();
      await db
        .insertInto('corrections')
        .values({
          document_id: 'b',
          field_path: 'total_amount',
          value_json: '20000',
          author_id: 'x',
          created_at: T0,
          document_version: 1,
        })
        .execute();
      await kept.upgrade();
      const amounts = (await db
        .selectFrom('documents')
        .select(['id', 'total_amount'])
        .orderBy('id')
        .execute()) as { id: string; total_amount: number | null }[];
      expect(amounts).toEqual([
        { id: 'a', total_amount: 42000 },
        { id: 'b', total_amount: 20000 },
        { id: 'c', total_amount: null },
        { id: 'd', total_amount: null },
      ]);
    } finally {
      await kept.cleanup();
    }
  });
});
