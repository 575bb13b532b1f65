/**
 * The review queue on both engines (SQLite, and a real PostgreSQL server): documents enter it, are
 * taken one operator at a time under a lease, corrected on the version read, decided; an expired
 * lease gives the document back; every refusal says why; the timeline tells all of it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { documentTimeline } from './audit-store';
import { QueueStore } from './queue-store';
import { OperatorStore } from './operator-store';

const LEASE = 60_000;
const T0 = Date.UTC(2026, 10, 24, 9, 0, 0);

describe.each(ENGINES)('the queue on %s', (engine) => {
  let store: TestStore;
  let queue: QueueStore;
  let alice: string;
  let bob: string;
  let admin: string;

  beforeAll(async () => {
    store = await openTestStore(engine);
    queue = new QueueStore(store.database, LEASE);
    const operators = new OperatorStore(store.database);
    alice = (await operators.create({ name: 'Alice', role: 'operator', passwordHash: 'x' }, T0)).id;
    bob = (await operators.create({ name: 'Bob', role: 'operator', passwordHash: 'x' }, T0)).id;
    admin = (await operators.create({ name: 'Ada', role: 'admin', passwordHash: 'x' }, T0)).id;
  });
  afterAll(async () => {
    await store.cleanup();
  });

  /** A document whose result has arrived at `readyAt`. */
  async function ready(fileName: string, readyAt: number, priority = 0) {
    const added = await queue.addDocument(
      { apiVersion: 'v2', modelKey: 'model-a', fileName, upstreamJobId: `job-${fileName}`, priority },
      readyAt - 1000,
    );
    const document = await queue.setResult(
      added.id,
      { json: '{"inference":{}}', resultId: `inf-${fileName}`, fieldsTotal: 10, fieldsToReview: 3 },
      readyAt,
    );
    if (!document) throw new Error('not ready');
    return document;
  }

  /** Takes every waiting document out of the way (confirmed by the admin's reopen-free path). */
  async function drain(now: number) {
    for (;;) {
      const taken = await queue.takeNext(admin, now);
      if (!taken) return;
      await queue.decide(taken.id, admin, taken.version, 'confirmed', null, now);
    }
  }

  it('runs its migrations once: opening the store again changes nothing', async () => {
    const again = await openTestStore(engine);
    await again.cleanup();
    const { openReviewDatabase } = await import('../db/open-database');
    const reopened = await openReviewDatabase(store.settings);
    expect(await reopened.db.selectFrom('operators').select('name').orderBy('name').execute()).toEqual([
      { name: 'Ada' },
      { name: 'Alice' },
      { name: 'Bob' },
    ]);
    await reopened.close();
  });

  it('keeps a document processing until its result, then queues it once', async () => {
    const added = await queue.addDocument(
      { apiVersion: 'v1', modelKey: 'mindee/invoices/v4', fileName: 'a.pdf' },
      T0,
    );
    expect(added).toMatchObject({ state: 'processing', version: 1, ready_at: null });
    expect(await queue.takeNext(alice, T0)).toBeUndefined();
    const queued = await queue.setResult(
      added.id,
      { json: '{}', resultId: 'doc-1', fieldsTotal: 4, fieldsToReview: 1 },
      T0 + 5,
    );
    expect(queued).toMatchObject({ state: 'to_review', version: 2, ready_at: T0 + 5, fields_to_review: 1 });
    // A second delivery of the same result changes nothing.
    expect(
      await queue.setResult(
        added.id,
        { json: '{}', resultId: 'x', fieldsTotal: 0, fieldsToReview: 0 },
        T0 + 9,
      ),
    ).toBeUndefined();
    await drain(T0 + 10);
  });

  it('takes the highest priority first, then the oldest result, each document by one operator', async () => {
    const old = await ready('old.pdf', T0 + 100);
    const young = await ready('young.pdf', T0 + 200);
    const urgent = await ready('urgent.pdf', T0 + 300, 5);
    const now = T0 + 1000;
    expect((await queue.takeNext(alice, now))?.id).toBe(urgent.id);
    const second = await queue.takeNext(bob, now);
    expect(second).toMatchObject({
      id: old.id,
      state: 'in_review',
      holder_id: bob,
      lease_expires_at: now + LEASE,
    });
    expect((await queue.takeNext(alice, now))?.id).toBe(young.id);
    expect(await queue.takeNext(bob, now)).toBeUndefined();
    await drain(now + LEASE + 1);
  });

  it('takes the next document of the filters only, and counts what the filters list (issue 21)', async () => {
    const invoice = await ready('next-of-filter-bill.pdf', T0 + 400, 9);
    const added = await queue.addDocument(
      {
        apiVersion: 'v2',
        modelKey: 'model-receipts',
        fileName: 'next-of-filter-receipt.jpg',
        upstreamJobId: 'job-r',
      },
      T0 + 450,
    );
    const receipt = await queue.setResult(
      added.id,
      { json: '{"inference":{}}', resultId: 'inf-r', fieldsTotal: 3, fieldsToReview: 1 },
      T0 + 500,
    );
    const now = T0 + 1000;
    const receipts = { model: 'model-receipts', state: 'to_review' as const };
    expect(await queue.countByState(now, receipts)).toMatchObject({ to_review: 1, in_review: 0 });
    // The invoice comes first by priority, but the filters list only the receipt.
    expect((await queue.takeNext(alice, now, receipts))?.id).toBe(receipt?.id);
    expect(await queue.takeNext(alice, now, receipts)).toBeUndefined();
    // Counts of every state of the filters' documents (the state filter is the counts' own).
    expect(await queue.countByState(now, receipts)).toMatchObject({ to_review: 0, in_review: 1 });
    // A state that lists no waiting document takes nothing; a name search narrows as the list does.
    expect(await queue.takeNext(bob, now, { state: 'confirmed' })).toBeUndefined();
    expect(await queue.takeNext(bob, now, { search: 'no-such-name' })).toBeUndefined();
    expect((await queue.takeNext(bob, now, { search: 'OF-FILTER-bill' }))?.id).toBe(invoice.id);
    await drain(now + LEASE + 1);
  });

  it('hides a document postponed until a date, and queues it again from then on (issue 21)', async () => {
    const doc = await ready('postponed-until.pdf', T0 + 600);
    const now = T0 + 1000;
    const taken = await queue.takeNext(alice, now);
    expect(taken?.id).toBe(doc.id);
    const until = now + 3 * LEASE;
    const decided = await queue.decide(
      doc.id,
      alice,
      taken?.version ?? 0,
      'postponed',
      null,
      now,
      undefined,
      until,
    );
    expect(decided).toMatchObject({ ok: true, document: { state: 'postponed', postponed_until: until } });
    // Until then: postponed, listed as such, and "next" does not take it.
    expect(await queue.takeNext(bob, until - 1)).toBeUndefined();
    const before = await queue.listDocuments(
      { state: 'postponed', search: 'postponed-until', limit: 5 },
      until - 1,
    );
    expect(before.rows.map((r) => r.id)).toEqual([doc.id]);
    expect((await queue.countByState(until - 1, { search: 'postponed-until' })).postponed).toBe(1);
    // From then on: waiting, counted and listed as such, and taken by "next", its date cleared.
    expect(await queue.countByState(until, { search: 'postponed-until' })).toMatchObject({
      postponed: 0,
      to_review: 1,
    });
    const after = await queue.listDocuments(
      { state: 'to_review', search: 'postponed-until', limit: 5 },
      until,
    );
    expect(after.rows.map((r) => r.id)).toEqual([doc.id]);
    expect(await queue.takeNext(bob, until)).toMatchObject({
      id: doc.id,
      holder_id: bob,
      postponed_until: null,
    });
    await drain(until + LEASE + 1);
  });

  it('gives a document back when its lease runs out, without any sweeper', async () => {
    const doc = await ready('lease.pdf', T0 + 2000);
    const taken = await queue.takeNext(alice, T0 + 3000);
    expect(taken?.id).toBe(doc.id);
    const counts = await queue.countByState(T0 + 3000);
    expect(counts.in_review).toBe(1);
    // Renewed by the open review: still Alice's after the first lease would have ended.
    expect((await queue.renewLease(doc.id, alice, T0 + 3000 + LEASE - 1)).ok).toBe(true);
    expect(await queue.takeNext(bob, T0 + 3000 + LEASE + 1)).toBeUndefined();

    const expiry = T0 + 3000 + 2 * LEASE;
    expect((await queue.countByState(expiry)).to_review).toBe(1);
    const takenOver = await queue.takeNext(bob, expiry);
    expect(takenOver).toMatchObject({ id: doc.id, holder_id: bob, previous_holder_id: alice });
    // Alice's late corrections are refused: she no longer holds it.
    const late = await queue.saveCorrections(
      doc.id,
      alice,
      takenOver?.version ?? 0,
      [{ path: 'total', value: 1 }],
      expiry,
    );
    expect(late).toMatchObject({ ok: false, reason: 'not_holder' });
    const timeline = await documentTimeline(store.database.db, doc.id);
    expect(timeline.map((e) => [e.kind, e.actor?.name ?? null])).toEqual([
      ['received', null],
      ['extracted', null],
      ['taken', 'Alice'],
      ['lease_expired', 'Alice'],
      ['taken', 'Bob'],
    ]);
    await queue.release(doc.id, bob, expiry);
    await drain(expiry);
  });

  it('records a lease running out only when one did: not again for whoever opens it after a release', async () => {
    const doc = await ready('takeover-then-release.pdf', T0 + 2000);
    const start = T0 + 10 * LEASE;
    await queue.take(doc.id, alice, start);
    // Alice's lease runs out; Bob opens it (a take-over), then gives it back.
    const takenOver = await queue.take(doc.id, bob, start + LEASE + 1);
    expect(takenOver).toMatchObject({ ok: true, document: { previous_holder_id: alice } });
    await queue.release(doc.id, bob, start + LEASE + 2);
    // The admin opens it from the queue: nobody's lease ran out this time.
    const opened = await queue.take(doc.id, admin, start + LEASE + 3);
    expect(opened).toMatchObject({ ok: true, document: { previous_holder_id: null } });
    const timeline = await documentTimeline(store.database.db, doc.id);
    expect(timeline.map((e) => [e.kind, e.actor?.name ?? null])).toEqual([
      ['received', null],
      ['extracted', null],
      ['taken', 'Alice'],
      ['lease_expired', 'Alice'],
      ['taken', 'Bob'],
      ['released', 'Bob'],
      ['taken', 'Ada'],
    ]);
    await queue.release(doc.id, admin, start + LEASE + 4);
    await drain(start + LEASE + 4);
  });

  it('keeps corrections with author, time and the value before; refuses a stale version', async () => {
    const doc = await ready('fix.pdf', T0 + 4000);
    const now = T0 + 5000;
    const taken = await queue.takeNext(alice, now);
    if (!taken) throw new Error('nothing taken');
    const first = await queue.saveCorrections(
      doc.id,
      alice,
      taken.version,
      [
        { path: 'total_amount', value: 120.5 },
        { path: 'line_items/0/quantity', value: 2 },
      ],
      now + 10,
    );
    expect(first).toMatchObject({ ok: true, document: { version: taken.version + 1 } });
    const version = first.ok ? first.document.version : 0;

    // A write based on the version before is refused, and says what the version is now.
    const stale = await queue.saveCorrections(
      doc.id,
      alice,
      taken.version,
      [{ path: 'total_amount', value: 99 }],
      now + 20,
    );
    expect(stale).toMatchObject({ ok: false, reason: 'stale', current: { version } });
    // Bob does not hold it.
    const foreign = await queue.saveCorrections(
      doc.id,
      bob,
      version,
      [{ path: 'total_amount', value: 1 }],
      now + 20,
    );
    expect(foreign).toMatchObject({ ok: false, reason: 'not_holder' });

    const second = await queue.saveCorrections(
      doc.id,
      alice,
      version,
      [{ path: 'total_amount', value: 121 }],
      now + 30,
    );
    expect(second.ok).toBe(true);
    expect(Object.fromEntries(await queue.currentCorrections(doc.id))).toEqual({
      total_amount: '121',
      'line_items/0/quantity': '2',
    });
    const corrected = (await documentTimeline(store.database.db, doc.id)).filter(
      (e) => e.kind === 'corrected',
    );
    expect(corrected.map((e) => [e.actor?.name, e.at, e.data])).toEqual([
      ['Alice', now + 10, { field: 'total_amount', before: null, after: 120.5 }],
      ['Alice', now + 10, { field: 'line_items/0/quantity', before: null, after: 2 }],
      ['Alice', now + 30, { field: 'total_amount', before: 120.5, after: 121 }],
    ]);

    // Deciding on a stale version fails too; on the current one it is recorded with who and when.
    expect(await queue.decide(doc.id, alice, version, 'confirmed', null, now + 40)).toMatchObject({
      ok: false,
      reason: 'stale',
    });
    const current = second.ok ? second.document.version : 0;
    const confirmed = await queue.decide(doc.id, alice, current, 'confirmed', null, now + 40);
    expect(confirmed).toMatchObject({
      ok: true,
      document: { state: 'confirmed', decided_by: alice, decided_at: now + 40, holder_id: null },
    });
    // Decided: nobody can write to it any more, its former holder included.
    expect(
      await queue.saveCorrections(doc.id, alice, current + 1, [{ path: 'x', value: 1 }], now + 50),
    ).toMatchObject({
      ok: false,
      reason: 'wrong_state',
    });
  });

  it('rejects with a reason, postpones, and lets an admin reopen and reassign', async () => {
    const doc = await ready('admin.pdf', T0 + 6000);
    const now = T0 + 7000;
    const taken = await queue.takeNext(bob, now);
    if (!taken) throw new Error('nothing taken');
    const rejected = await queue.decide(doc.id, bob, taken.version, 'rejected', 'Not an invoice', now);
    expect(rejected).toMatchObject({ ok: true, document: { state: 'rejected', reason: 'Not an invoice' } });
    const reopened = await queue.reopen(doc.id, admin, now + 1);
    expect(reopened).toMatchObject({
      ok: true,
      document: { state: 'to_review', decided_by: null, reason: null },
    });
    const reassigned = await queue.reassign(doc.id, admin, alice, now + 2);
    expect(reassigned).toMatchObject({
      ok: true,
      document: { state: 'in_review', holder_id: alice, assigned_to: alice },
    });
    const postponed = await queue.decide(
      doc.id,
      alice,
      reassigned.ok ? reassigned.document.version : 0,
      'postponed',
      'Waiting for the supplier',
      now + 3,
    );
    expect(postponed).toMatchObject({ ok: true, document: { state: 'postponed' } });
    // "Next" leaves postponed documents alone; opening one takes it.
    expect(await queue.takeNext(bob, now + 4)).toBeUndefined();
    expect(await queue.take(doc.id, bob, now + 4)).toMatchObject({ ok: true, document: { holder_id: bob } });
    // Held by Bob: Alice cannot open it.
    expect(await queue.take(doc.id, alice, now + 5)).toMatchObject({ ok: false, reason: 'not_holder' });
    expect(await queue.take('00000000-0000-4000-8000-000000000000', alice, now)).toEqual({
      ok: false,
      reason: 'not_found',
    });
    const kinds = (await documentTimeline(store.database.db, doc.id)).map((e) => e.kind);
    expect(kinds).toEqual([
      'received',
      'extracted',
      'taken',
      'rejected',
      'reopened',
      'reassigned',
      'assigned',
      'postponed',
      'taken',
    ]);
    await queue.release(doc.id, bob, now + 6);
    // Still assigned to Alice (postponing keeps it): back to the team, so the next tests' "next" see it.
    expect(await queue.unassignAllFrom(alice, admin, now + 6)).toEqual([doc.id]);
    await drain(now + 7);
  });

  it('counts documents per state as readers see them', async () => {
    const now = T0 + 10_000;
    await ready('count-1.pdf', now);
    await ready('count-2.pdf', now);
    await queue.takeNext(alice, now);
    const counts = await queue.countByState(now + 1);
    expect(counts.to_review).toBe(1);
    expect(counts.in_review).toBe(1);
    expect(counts.confirmed).toBeGreaterThan(0);
    expect((await queue.countByState(now + LEASE)).to_review).toBe(2);
    await drain(now + LEASE);
  });

  it('lists the queue newest first in pages, filtered by state, model, operator, date and name', async () => {
    const base = T0 + 20_000;
    const names = ['facture-été.pdf', 'Invoice_100%.PDF', 'receipt.jpg', 'scan_1.tif', 'scanx1.tif'];
    const ids: string[] = [];
    for (const [i, name] of names.entries()) {
      const added = await queue.addDocument(
        {
          apiVersion: 'v2',
          modelKey: i < 2 ? 'model-list-a' : 'model-list-b',
          fileName: name,
          alias: i === 2 ? 'Lunch 42' : null,
        },
        base + i,
      );
      ids.push(added.id);
    }
    const now = base + 100;
    const all = await queue.listDocuments({ model: undefined, limit: 500 }, now);
    expect(all.rows.slice(0, 5).map((r) => r.file_name)).toEqual([...names].reverse());

    // Pages of two, following the cursor, over these five.
    const seen: string[] = [];
    let after: Parameters<QueueStore['listDocuments']>[0]['after'];
    for (;;) {
      const page = await queue.listDocuments({ from: base, limit: 2, after }, now);
      seen.push(...page.rows.map((r) => r.file_name));
      if (page.next === null) break;
      after = page.next;
    }
    expect(seen).toEqual([...names].reverse());

    expect(
      (await queue.listDocuments({ model: 'model-list-a', limit: 10 }, now)).rows.map((r) => r.file_name),
    ).toEqual(['Invoice_100%.PDF', 'facture-été.pdf']);
    const search = async (q: string) =>
      (await queue.listDocuments({ search: q, limit: 10 }, now)).rows.map((r) => r.file_name);
    expect(await search('INVOICE')).toEqual(['Invoice_100%.PDF']);
    expect(await search('100%')).toEqual(['Invoice_100%.PDF']);
    // `_` is a character, not a wildcard.
    expect(await search('scan_1')).toEqual(['scan_1.tif']);
    expect(await search('été')).toEqual(['facture-été.pdf']);
    expect(await search('lunch')).toEqual(['receipt.jpg']);
    expect(
      (await queue.listDocuments({ from: base + 1, to: base + 3, limit: 10 }, now)).rows.map(
        (r) => r.file_name,
      ),
    ).toEqual(['receipt.jpg', 'Invoice_100%.PDF']);

    // By state as readers see it, and by the operator who holds or decided.
    for (const id of ids)
      await queue.setResult(id, { json: '{}', resultId: null, fieldsTotal: 1, fieldsToReview: 0 }, now);
    const held = await queue.take(ids[0] ?? '', alice, now);
    expect(held.ok).toBe(true);
    const byAlice = await queue.listDocuments({ operator: alice, state: 'in_review', limit: 10 }, now + 1);
    expect(byAlice.rows.map((r) => [r.file_name, r.holder_name])).toEqual([['facture-été.pdf', 'Alice']]);
    expect(
      (await queue.listDocuments({ state: 'in_review', operator: alice, limit: 10 }, now + LEASE)).rows,
    ).toEqual([]);
    await queue.release(ids[0] ?? '', alice, now + 2);
    await drain(now + 3);
  });
});
