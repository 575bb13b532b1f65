/**
 * Assignments (migration 0013) on both engines (SQLite, and a real PostgreSQL server): "next" gives an
 * operator the documents assigned to them first and never one assigned to someone else, a decision
 * ends the assignment (its event keeps whose it was), the "Assigned" filter lists, counts and takes
 * alike, "Hand to" assigns and hands the lease over, and an operator who leaves (deactivated, or
 * removed) gives their assignments back to the team.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { storeKeptBefore } from '@extraction-review/test-kit/review/store-kept-before';
import type { DocumentRow } from '../db/schema';
import { documentTimeline } from './audit-store';
import { OperatorStore } from './operator-store';
import { QueueStore } from './queue-store';

const LEASE = 60_000;
const T0 = Date.UTC(2026, 11, 7, 9, 0, 0);

describe.each(ENGINES)('assignments on %s', (engine) => {
  let store: TestStore;
  let queue: QueueStore;
  let operators: OperatorStore;
  const told: DocumentRow[] = [];
  let alice: string;
  let bob: string;
  let admin: string;
  let clock = T0;
  /** Each test's own model: its documents only. */
  let model = '';

  beforeAll(async () => {
    store = await openTestStore(engine);
    queue = new QueueStore(store.database, LEASE, (row) => told.push(row));
    operators = new OperatorStore(store.database);
    alice = (await operators.create({ name: 'Alice', role: 'operator', passwordHash: 'x' }, T0)).id;
    bob = (await operators.create({ name: 'Bob', role: 'operator', passwordHash: 'x' }, T0)).id;
    admin = (await operators.create({ name: 'Ada', role: 'admin', passwordHash: 'x' }, T0)).id;
  });
  afterAll(async () => {
    await store.cleanup();
  });
  let n = 0;
  beforeEach(() => {
    n += 1;
    model = `model-${String(n)}`;
    clock += 1_000_000;
  });

  async function ready(fileName: string, priority = 0) {
    clock += 10;
    const added = await queue.addDocument(
      { apiVersion: 'v2', modelKey: model, fileName, upstreamJobId: `job-${model}-${fileName}`, priority },
      clock,
    );
    const row = await queue.setResult(
      added.id,
      { json: '{}', resultId: `inf-${model}-${fileName}`, fieldsTotal: 2, fieldsToReview: 1 },
      clock + 1,
    );
    if (row === undefined) throw new Error('not ready');
    return row;
  }
  const assign = (ids: string[], to: string) =>
    queue.applyBulk(ids, { action: 'assign', toOperatorId: to }, admin, clock);

  it('gives an operator their assigned documents first, and never one assigned to someone else', async () => {
    // The team's document is older and more urgent: without assignments it would come first.
    const team = await ready('team.pdf', 5);
    const forAlice = await ready('for-alice.pdf');
    const forBob = await ready('for-bob.pdf', 9);
    expect((await assign([forAlice.id], alice)).changed).toEqual([forAlice.id]);
    expect((await assign([forBob.id], bob)).changed).toEqual([forBob.id]);
    const now = clock + 100;
    const mine = { model };

    expect(await queue.peekNext(alice, now, mine)).toBe(forAlice.id);
    expect(await queue.countWaiting(now, mine, alice)).toBe(2);
    expect(await queue.countWaiting(now, mine)).toBe(3);
    expect((await queue.takeNext(alice, now, mine))?.id).toBe(forAlice.id);
    // Then the team's; Bob's is never given to Alice, even asked for by name.
    expect((await queue.takeNext(alice, now, mine))?.id).toBe(team.id);
    expect(await queue.peekNext(alice, now, mine)).toBeUndefined();
    expect(await queue.takeNext(alice, now, { ...mine, assigned: bob })).toBeUndefined();
    expect(await queue.takeNext(admin, now, mine)).toBeUndefined();
    // Bob's own "next" gives it; an admin may still open it directly.
    expect(await queue.peekNext(bob, now, mine)).toBe(forBob.id);
    expect(await queue.take(forBob.id, admin, now)).toMatchObject({ ok: true });
  });

  it('still gives an assigned document to its assignee when their lease ran out', async () => {
    const doc = await ready('lapsed.pdf');
    await assign([doc.id], alice);
    const taken = await queue.takeNext(alice, clock, { model });
    expect(taken?.id).toBe(doc.id);
    // Alice leaves it idle: after the lease, Bob's "next" does not take it; Alice's does.
    const later = clock + LEASE + 1;
    expect(await queue.takeNext(bob, later, { model })).toBeUndefined();
    expect((await queue.takeNext(alice, later, { model }))?.id).toBe(doc.id);
  });

  it('filters the list, the counts and "next" by assignment: to someone, to nobody, to one operator', async () => {
    const a = await ready('a.pdf');
    const b = await ready('b.pdf');
    const free = await ready('free.pdf');
    await assign([a.id], alice);
    await assign([b.id], bob);
    const now = clock + 1;
    const names = async (assigned: string) =>
      (await queue.listDocuments({ model, assigned, limit: 10, sort: 'name' }, now)).rows.map((r) => [
        r.file_name,
        r.assignee_name,
      ]);
    expect(await names('anyone')).toEqual([
      ['a.pdf', 'Alice'],
      ['b.pdf', 'Bob'],
    ]);
    expect(await names('nobody')).toEqual([['free.pdf', null]]);
    expect(await names(alice)).toEqual([['a.pdf', 'Alice']]);
    expect((await queue.countByState(now, { model, assigned: 'anyone' })).to_review).toBe(2);
    expect(await queue.countWaiting(now, { model, assigned: 'nobody' }, alice)).toBe(1);
    expect((await queue.takeNext(alice, now, { model, assigned: 'nobody' }))?.id).toBe(free.id);
  });

  it('ends the assignment with a decision, and keeps whose it was in the decision’s event', async () => {
    const confirmed = await ready('confirmed.pdf');
    const postponed = await ready('postponed.pdf');
    const rejected = await ready('rejected.pdf');
    await assign([confirmed.id, postponed.id, rejected.id], alice);
    for (const [doc, decision] of [
      [confirmed, 'confirmed'],
      [postponed, 'postponed'],
    ] as const) {
      const taken = await queue.take(doc.id, alice, clock);
      if (!taken.ok) throw new Error('not taken');
      await queue.decide(doc.id, alice, taken.document.version, decision, null, clock);
    }
    await queue.applyBulk([rejected.id], { action: 'reject', reason: 'Not ours' }, admin, clock);

    expect(await queue.find(confirmed.id)).toMatchObject({ assigned_to: null, assigned_at: null });
    expect(await queue.find(rejected.id)).toMatchObject({ state: 'rejected', assigned_to: null });
    // A postponed document stays assigned: it comes back to the same operator.
    expect(await queue.find(postponed.id)).toMatchObject({ state: 'postponed', assigned_to: alice });
    expect((await documentTimeline(store.database.db, confirmed.id)).at(-1)).toMatchObject({
      kind: 'confirmed',
      data: { assignedTo: alice, assignedToName: 'Alice' },
    });
    expect((await documentTimeline(store.database.db, rejected.id)).at(-1)).toMatchObject({
      kind: 'rejected',
      data: { reason: 'Not ours', assignedTo: alice },
    });
  });

  it('unassigns in bulk: back to the team, and says so for a document assigned to nobody', async () => {
    const assigned = await ready('assigned.pdf');
    const free = await ready('free.pdf');
    await assign([assigned.id], bob);
    told.length = 0;
    const outcome = await queue.applyBulk([assigned.id, free.id], { action: 'unassign' }, admin, clock);
    expect(outcome.changed).toEqual([assigned.id]);
    expect(outcome.skipped).toEqual([
      { id: free.id, reason: 'wrong_state', detail: 'It is not assigned to anyone.' },
    ]);
    expect(told.map((row) => row.id)).toEqual([assigned.id]);
    expect(await queue.find(assigned.id)).toMatchObject({ assigned_to: null });
    expect((await documentTimeline(store.database.db, assigned.id)).at(-1)).toMatchObject({
      kind: 'unassigned',
      actor: { id: admin },
      data: { from: bob, fromName: 'Bob', bulk: true },
    });
    expect((await queue.takeNext(alice, clock, { model }))?.id).toBe(assigned.id);
  });

  it('hands one document over ("Hand to"): assigned to the operator and held by them, from its holder', async () => {
    const doc = await ready('handed.pdf');
    expect((await queue.take(doc.id, bob, clock)).ok).toBe(true);
    const handed = await queue.reassign(doc.id, admin, alice, clock + 1);
    expect(handed).toMatchObject({
      ok: true,
      document: { state: 'in_review', holder_id: alice, previous_holder_id: bob, assigned_to: alice },
    });
    const kinds = (await documentTimeline(store.database.db, doc.id)).slice(-2);
    expect(kinds).toMatchObject([
      { kind: 'reassigned', data: { from: bob, to: alice } },
      { kind: 'assigned', data: { to: alice, toName: 'Alice', from: null } },
    ]);
  });

  it('gives the assignments of an operator who leaves back to the team; removing one clears them too', async () => {
    const carol = (await operators.create({ name: 'Carol', role: 'operator', passwordHash: 'x' }, clock)).id;
    const dave = (await operators.create({ name: 'Dave', role: 'operator', passwordHash: 'x' }, clock)).id;
    const left = await ready('left.pdf');
    const removed = await ready('removed.pdf');
    await assign([left.id], carol);
    await assign([removed.id], dave);
    told.length = 0;
    expect(await queue.unassignAllFrom(carol, admin, clock)).toEqual([left.id]);
    expect(told.map((row) => row.id)).toEqual([left.id]);
    expect((await documentTimeline(store.database.db, left.id)).at(-1)).toMatchObject({
      kind: 'unassigned',
      data: { from: carol, fromName: 'Carol', why: 'operator_left' },
    });
    // Removed without a word (the CLI, say): the foreign key gives the document back to the team.
    expect(await operators.remove('Dave')).toBe(true);
    expect(await queue.find(removed.id)).toMatchObject({ assigned_to: null });
    expect((await queue.takeNext(bob, clock, { model }))?.id).toBeDefined();
  });

  it('adds the assignment columns and their index to a store kept before migration 0013', async () => {
    const kept = await storeKeptBefore(engine, '0013-assignments', store.settings.dataDir);
    try {
      const { db } = kept;
      await db
        .insertInto('documents')
        .values({
          id: 'kept',
          api_version: 'v2',
          model_key: 'm',
          file_name: 'kept.pdf',
          state: 'to_review',
          created_at: T0,
          updated_at: T0,
        })
        .execute();
      await kept.upgrade();
      expect(await db.selectFrom('documents').select(['id', 'assigned_to', 'assigned_at']).execute()).toEqual(
        [{ id: 'kept', assigned_to: null, assigned_at: null }],
      );
      const indexes = await indexNames(db, engine);
      expect(indexes).toContain('documents_assigned_next');
    } finally {
      await kept.cleanup();
    }
  });
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a raw look at the catalogue
async function indexNames(db: any, engine: string): Promise<string[]> {
  const rows = (
    engine === 'postgres'
      ? await db
          .selectFrom('pg_indexes')
          .select('indexname as name')
          .where('tablename', '=', 'documents')
          .execute()
      : await db
          .selectFrom('sqlite_master')
          .select('name')
          .where('type', '=', 'index')
          .where('tbl_name', '=', 'documents')
          .execute()
  ) as { name: string }[];
  return rows.map((row) => row.name);
}
