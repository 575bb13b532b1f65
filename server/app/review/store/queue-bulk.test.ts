/**
 * An admin's changes to many documents at once, and the queue sorted by each column with its pages
 * followed by cursor, on both engines (SQLite, and a real PostgreSQL server).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import type { DocumentRow } from '../db/schema';
import { documentTimeline } from './audit-store';
import { OperatorStore } from './operator-store';
import { QueueStore, type QueueFilters } from './queue-store';
import { QUEUE_SORT_KEYS, type QueueSort } from '@extraction-review/contract/review/schemas';

const LEASE = 60_000;
const T0 = Date.UTC(2026, 11, 7, 9, 0, 0);

describe.each(ENGINES)('bulk changes and sorting on %s', (engine) => {
  let store: TestStore;
  let queue: QueueStore;
  const told: DocumentRow[] = [];
  let alice: string;
  let bob: string;
  let admin: string;

  beforeAll(async () => {
    store = await openTestStore(engine);
    queue = new QueueStore(store.database, LEASE, (row) => told.push(row));
    const operators = new OperatorStore(store.database);
    alice = (await operators.create({ name: 'Alice', role: 'operator', passwordHash: 'x' }, T0)).id;
    bob = (await operators.create({ name: 'Bob', role: 'operator', passwordHash: 'x' }, T0)).id;
    admin = (await operators.create({ name: 'Ada', role: 'admin', passwordHash: 'x' }, T0)).id;
  });
  afterAll(async () => {
    await store.cleanup();
  });

  async function ready(fileName: string, at: number, extra: { model?: string; priority?: number } = {}) {
    const added = await queue.addDocument(
      {
        apiVersion: 'v2',
        modelKey: extra.model ?? 'model-bulk',
        fileName,
        upstreamJobId: `job-${fileName}`,
        priority: extra.priority ?? 0,
        fileKey: `key-${fileName}`,
      },
      at,
    );
    const row = await queue.setResult(
      added.id,
      { json: '{}', resultId: `inf-${fileName}`, fieldsTotal: 2, fieldsToReview: 1 },
      at + 1,
    );
    if (row === undefined) throw new Error('not ready');
    return row;
  }

  it('skips a document another operator reviews, and says why for each one left alone', async () => {
    const now = T0 + 10_000;
    const free = await ready('bulk-free.pdf', T0);
    const heldByBob = await ready('bulk-held.pdf', T0);
    const decided = await ready('bulk-decided.pdf', T0);
    expect((await queue.take(heldByBob.id, bob, now)).ok).toBe(true);
    const mine = await queue.take(decided.id, alice, now);
    if (!mine.ok) throw new Error('not taken');
    await queue.decide(decided.id, alice, mine.document.version, 'confirmed', null, now);
    const missing = '00000000-0000-4000-8000-000000000000';
    told.length = 0;

    const assigned = await queue.applyBulk(
      [free.id, heldByBob.id, decided.id, missing],
      { action: 'assign', toOperatorId: alice },
      admin,
      now + 1,
    );
    expect(assigned.changed).toEqual([free.id]);
    expect(assigned.skipped.map(({ id, reason }) => [id, reason])).toEqual([
      [heldByBob.id, 'held'],
      [decided.id, 'wrong_state'],
      [missing, 'not_found'],
    ]);
    expect(assigned.skipped[0]?.detail).toBe('Another operator is reviewing it.');
    // Assigned, not taken: it stays waiting, Alice's (assignments.test.ts: whose "next" gives it).
    expect(await queue.find(free.id)).toMatchObject({
      state: 'to_review',
      holder_id: null,
      assigned_to: alice,
      assigned_at: now + 1,
    });
    expect(told.map((row) => row.id)).toEqual([free.id]);
    const events = await documentTimeline(store.database.db, free.id);
    expect(events.at(-1)).toMatchObject({
      kind: 'assigned',
      actor: { id: admin },
      data: { to: alice, toName: 'Alice', from: null, bulk: true },
    });

    // Assigning Alice's document to Alice again is harmless; Bob's stays Bob's, whatever the action.
    const again = await queue.applyBulk([free.id], { action: 'assign', toOperatorId: alice }, admin, now + 2);
    expect(again.changed).toEqual([free.id]);
    for (const change of [
      { action: 'unassign' },
      { action: 'priority', priority: 5 },
      { action: 'reject', reason: 'Not ours' },
      { action: 'delete' },
    ] as const) {
      const outcome = await queue.applyBulk([heldByBob.id], change, admin, now + 3);
      expect(outcome).toMatchObject({ changed: [], skipped: [{ id: heldByBob.id, reason: 'held' }] });
    }
    expect(await queue.find(heldByBob.id)).toMatchObject({ holder_id: bob, priority: 0, state: 'in_review' });
    // Once Bob's lease has run out, the document is the team's again: the change goes through.
    const later = await queue.applyBulk(
      [heldByBob.id],
      { action: 'priority', priority: 7 },
      admin,
      now + LEASE,
    );
    expect(later.changed).toEqual([heldByBob.id]);
  });

  it('sets priorities, rejects waiting documents with the reason, and deletes with a trace in the audit log', async () => {
    const now = T0 + 100_000;
    const a = await ready('bulk-a.pdf', T0 + 50_000);
    const b = await ready('bulk-b.pdf', T0 + 50_000);
    const confirmed = await ready('bulk-c.pdf', T0 + 50_000);
    const taken = await queue.take(confirmed.id, alice, now);
    if (!taken.ok) throw new Error('not taken');
    await queue.decide(confirmed.id, alice, taken.document.version, 'confirmed', null, now);

    const prioritised = await queue.applyBulk(
      [a.id, b.id],
      { action: 'priority', priority: 3 },
      admin,
      now + 1,
    );
    expect(prioritised.changed).toEqual([a.id, b.id]);
    expect((await queue.find(a.id))?.priority).toBe(3);
    expect((await documentTimeline(store.database.db, a.id)).at(-1)).toMatchObject({
      kind: 'prioritised',
      data: { from: 0, to: 3 },
    });

    const rejected = await queue.applyBulk(
      [a.id, confirmed.id],
      { action: 'reject', reason: 'Duplicate scans' },
      admin,
      now + 2,
    );
    expect(rejected.changed).toEqual([a.id]);
    expect(rejected.skipped).toMatchObject([{ id: confirmed.id, reason: 'wrong_state' }]);
    expect(await queue.find(a.id)).toMatchObject({
      state: 'rejected',
      reason: 'Duplicate scans',
      decided_by: admin,
    });

    const deleted = await queue.applyBulk([b.id, confirmed.id], { action: 'delete' }, admin, now + 3);
    expect(deleted.changed).toEqual([b.id, confirmed.id]);
    expect(deleted.removedFileKeys).toEqual(['key-bulk-b.pdf', 'key-bulk-c.pdf']);
    expect(await queue.find(b.id)).toBeUndefined();
    expect(await queue.find(confirmed.id)).toBeUndefined();
    const trace = await store.database.db
      .selectFrom('audit_events')
      .select(['kind', 'actor_id', 'data_json'])
      .where('kind', '=', 'deleted')
      .execute();
    expect(trace.map((row) => JSON.parse(row.data_json ?? '{}') as unknown)).toEqual([
      expect.objectContaining({ document: b.id, cause: 'by_hand', bulk: true }),
      expect.objectContaining({ document: confirmed.id, state: 'confirmed', model: 'model-bulk' }),
    ]);
    // A tombstone without personal data: never the file's name.
    expect(trace.some((row) => (row.data_json ?? '').includes('bulk-'))).toBe(false);
    expect(trace.every((row) => row.actor_id === admin)).toBe(true);
  });

  it('sorts by every column both ways, and pages by cursor through the same order', async () => {
    const base = T0 + 1_000_000;
    // Ties on every column but the id, so paging must break them by id.
    const names = [
      'Sort-b.pdf',
      'sort-a.pdf',
      'sort-c.pdf',
      'Sort-b.pdf',
      'sort-d.pdf',
      'sort-a.pdf',
      'sort-e.pdf',
    ];
    for (const [i, name] of names.entries()) {
      await ready(name, base + (i % 3), { model: `model-sort-${String(i % 2)}`, priority: i % 3 });
    }
    const filters = { from: base, to: base + 10 } satisfies Partial<QueueFilters>;
    const sorts: QueueSort[] = QUEUE_SORT_KEYS.flatMap((key) => [key, `-${key}` as const]);
    for (const sort of sorts) {
      const whole = (await queue.listDocuments({ ...filters, sort, limit: 100 }, base + 20)).rows.map(
        (r) => r.id,
      );
      expect(whole).toHaveLength(names.length);
      const paged: string[] = [];
      let after: QueueFilters['after'];
      for (let pages = 0; pages < 10; pages++) {
        const page = await queue.listDocuments({ ...filters, sort, limit: 2, after }, base + 20);
        paged.push(...page.rows.map((r) => r.id));
        if (page.next === null) break;
        after = page.next;
      }
      expect(paged, sort).toEqual(whole);
    }
    const byPriority = (await queue.listDocuments({ ...filters, sort: '-priority', limit: 100 }, base + 20))
      .rows;
    expect(byPriority.map((r) => r.priority)).toEqual([2, 2, 1, 1, 0, 0, 0]);
    const byModel = (await queue.listDocuments({ ...filters, sort: 'model', limit: 100 }, base + 20)).rows;
    expect(byModel.map((r) => r.model_key)).toEqual([...byModel.map((r) => r.model_key)].sort());
  });
});
