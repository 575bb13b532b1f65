/**
 * Deletion and retention on both engines (SQLite, and a real PostgreSQL server): the one deletion
 * path removes everything a document had and leaves a tombstone without personal data; the retention
 * sweep takes only decided documents old enough, at a time given (no waiting), and two sweepers at
 * once (two stores on one PostgreSQL) never do one document twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transaction } from 'kysely';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { openReviewDatabase, type ReviewDatabase } from '../db/open-database';
import type { KeptFilesSchema } from '../db/kept-files-schema';
import type { DocumentRow } from '../db/schema';
import { documentTimeline } from './audit-store';
import { ModelSettingsStore } from './model-settings-store';
import { OperatorStore } from './operator-store';
import { QueueStore } from './queue-store';
import { DAY_MS } from './retention-sweep';
import { DEFAULT_ROUTING } from '@extraction-review/contract/review/model-settings';

const LEASE = 60_000;
const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);

describe.each(ENGINES)('deletion and retention on %s', (engine) => {
  let store: TestStore;
  let queue: QueueStore;
  let admin: string;
  let alice: string;
  let bob: string;
  let n = 0;

  beforeAll(async () => {
    store = await openTestStore(engine);
    queue = new QueueStore(store.database, LEASE);
    const operators = new OperatorStore(store.database);
    admin = (await operators.create({ name: 'Ada', role: 'admin', passwordHash: 'x' }, T0)).id;
    alice = (await operators.create({ name: 'Alice', role: 'operator', passwordHash: 'x' }, T0)).id;
    bob = (await operators.create({ name: 'Bob', role: 'operator', passwordHash: 'x' }, T0)).id;
  });
  afterAll(async () => {
    await store.cleanup();
  });

  async function ready(model: string, at: number): Promise<DocumentRow> {
    n++;
    const fileName = `Invoice Jane Doe ${n}.pdf`;
    const added = await queue.addDocument(
      {
        apiVersion: 'v2',
        modelKey: model,
        fileName,
        upstreamJobId: `job-${model}-${n}`,
        fileKey: `key-${model}-${n}`,
      },
      at,
    );
    const row = await queue.setResult(
      added.id,
      { json: '{"name":"Jane Doe"}', resultId: `inf-${model}-${n}`, fieldsTotal: 1, fieldsToReview: 1 },
      at,
    );
    if (row === undefined) throw new Error('not ready');
    return row;
  }

  async function decided(model: string, at: number, decision: 'confirmed' | 'rejected' = 'confirmed') {
    const row = await ready(model, at);
    const taken = await queue.take(row.id, alice, at);
    if (!taken.ok) throw new Error('not taken');
    const corrected = await queue.saveCorrections(
      row.id,
      alice,
      taken.document.version,
      [{ path: 'name', value: 'Jane Q. Doe' }],
      at,
    );
    if (!corrected.ok) throw new Error('not corrected');
    const done = await queue.decide(
      row.id,
      alice,
      corrected.document.version,
      decision,
      decision === 'rejected' ? 'Duplicate' : null,
      at,
    );
    if (!done.ok) throw new Error('not decided');
    return done.document;
  }

  async function words(id: string) {
    await (store.database.db as unknown as { insertInto: Transaction<KeptFilesSchema>['insertInto'] })
      .insertInto('page_words')
      .values({ document_id: id, page: 0, version: 1, words_json: '["Jane"]', created_at: T0 })
      .execute();
  }

  const count = async (table: 'corrections' | 'deliveries' | 'audit_events', id: string) =>
    Number(
      (
        await store.database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('document_id', '=', id)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const wordsOf = async (id: string) =>
    (
      await (store.database.db as unknown as { selectFrom: Transaction<KeptFilesSchema>['selectFrom'] })
        .selectFrom('page_words')
        .select('page')
        .where('document_id', '=', id)
        .execute()
    ).length;
  const tombstones = async (id: string) =>
    (
      await store.database.db
        .selectFrom('audit_events')
        .select(['actor_id', 'data_json', 'at'])
        .where('kind', '=', 'deleted')
        .execute()
    )
      .map((row) => ({ ...row, data: JSON.parse(row.data_json ?? '{}') as Record<string, unknown> }))
      .filter((row) => row.data.document === id);

  it('deletes a document with its words, corrections, history and deliveries, keeping a tombstone', async () => {
    const doc = await decided('model-delete', T0);
    await words(doc.id);
    await store.database.db
      .insertInto('deliveries')
      .values({
        document_id: doc.id,
        integration_id: null,
        kind: 'webhook',
        decided_at: T0,
        state: 'pending',
        attempts: 0,
        next_attempt_at: T0,
        lease_until: null,
        last_status: null,
        last_error: null,
        payload_json: '{"name":"Jane Doe"}',
        created_at: T0,
        updated_at: T0,
        delivered_at: null,
      })
      .execute();
    expect(await count('corrections', doc.id)).toBe(1);

    const result = await queue.deleteDocument(doc.id, admin, T0 + 5);
    expect(result).toMatchObject({ ok: true, fileKey: doc.file_key });
    expect(await queue.find(doc.id)).toBeUndefined();
    expect(await count('corrections', doc.id)).toBe(0);
    expect(await count('deliveries', doc.id)).toBe(0);
    expect(await count('audit_events', doc.id)).toBe(0);
    expect(await wordsOf(doc.id)).toBe(0);
    const [tombstone, ...more] = await tombstones(doc.id);
    expect(more).toEqual([]);
    expect(tombstone).toMatchObject({
      actor_id: admin,
      at: T0 + 5,
      data: { document: doc.id, model: 'model-delete', state: 'confirmed', cause: 'by_hand' },
    });
    // No personal data: neither the file's name nor a value.
    expect(tombstone?.data_json).not.toMatch(/Jane|Invoice/);
    expect(await queue.deleteDocument(doc.id, admin, T0 + 6)).toEqual({ ok: false, reason: 'not_found' });
  });

  it('refuses a document another operator holds under a live lease, unless forced', async () => {
    const doc = await ready('model-delete', T0);
    const taken = await queue.take(doc.id, bob, T0 + 1);
    expect(taken.ok).toBe(true);
    const refused = await queue.deleteDocument(doc.id, admin, T0 + 2);
    expect(refused).toMatchObject({ ok: false, reason: 'not_holder', current: { holder_id: bob } });
    expect(await queue.find(doc.id)).toBeDefined();
    // The lease ran out: free to delete.
    expect((await queue.deleteDocument(doc.id, admin, T0 + 1 + LEASE)).ok).toBe(true);

    const held = await ready('model-delete', T0);
    expect((await queue.take(held.id, bob, T0 + 1)).ok).toBe(true);
    expect((await queue.deleteDocument(held.id, admin, T0 + 2, { force: true })).ok).toBe(true);
  });

  it('purges only decided documents old enough: files after N days, documents after M days', async () => {
    const settings = new ModelSettingsStore(store.database);
    const saved = await settings.put(
      'v2',
      'model-kept',
      0,
      {
        routing: DEFAULT_ROUTING,
        rules: [],
        feedbackEnabled: false,
        retention: { filesAfterDays: 30, documentsAfterDays: 365 },
      },
      admin,
      T0,
    );
    expect(saved.ok && saved.settings.retention).toEqual({ filesAfterDays: 30, documentsAfterDays: 365 });

    const old = await decided('model-kept', T0);
    const oldRejected = await decided('model-kept', T0, 'rejected');
    const recent = await decided('model-kept', T0 + 20 * DAY_MS);
    const waiting = await ready('model-kept', T0);
    const otherModel = await decided('model-forever', T0);
    await words(old.id);

    // 31 days on: the old decisions' files go; the recent one, the waiting one, the other model stay.
    const day31 = T0 + 31 * DAY_MS;
    const dry = await queue.sweepRetention(day31, { dryRun: true });
    expect(dry.items.map((item) => item.documentId).sort()).toEqual([old.id, oldRejected.id].sort());
    expect((await queue.find(old.id))?.file_key).not.toBeNull();

    const first = await queue.sweepRetention(day31);
    expect(first.items.map((item) => [item.action, item.documentId]).sort()).toEqual(
      [
        ['remove_file', old.id],
        ['remove_file', oldRejected.id],
      ].sort(),
    );
    expect(first.removedFileKeys.sort()).toEqual([old.file_key, oldRejected.file_key].sort());
    expect(await queue.find(old.id)).toMatchObject({
      file_key: null,
      file_removed_at: day31,
      state: 'confirmed',
    });
    expect(await wordsOf(old.id)).toBe(0);
    expect((await documentTimeline(store.database.db, old.id)).at(-1)).toMatchObject({
      kind: 'file_removed',
      actor: null,
      data: { cause: 'retention', days: 30 },
    });
    for (const kept of [recent, waiting, otherModel]) {
      expect((await queue.find(kept.id))?.file_key).toBe(kept.file_key);
    }
    // Again at the same time: nothing left to do.
    expect((await queue.sweepRetention(day31)).items).toEqual([]);

    // 400 days on: the decisions go whole, as tombstones; the waiting one never.
    const year = T0 + 400 * DAY_MS;
    const second = await queue.sweepRetention(year);
    expect(
      second.items
        .filter((item) => item.action === 'delete_document')
        .map((item) => item.documentId)
        .sort(),
    ).toEqual([old.id, oldRejected.id, recent.id].sort());
    expect(await queue.find(old.id)).toBeUndefined();
    expect(await queue.find(waiting.id)).toBeDefined();
    expect(await queue.find(otherModel.id)).toBeDefined();
    expect(await tombstones(old.id)).toEqual([
      expect.objectContaining({ actor_id: null, data: expect.objectContaining({ cause: 'retention' }) }),
    ]);
  });

  it('takes at most a batch per pass, and two sweepers at once never do a document twice', async () => {
    const settings = new ModelSettingsStore(store.database);
    await settings.put(
      'v2',
      'model-race',
      0,
      {
        routing: DEFAULT_ROUTING,
        rules: [],
        feedbackEnabled: false,
        retention: { filesAfterDays: null, documentsAfterDays: 10 },
      },
      admin,
      T0,
    );
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await decided('model-race', T0 + i)).id);
    const later = T0 + 11 * DAY_MS;

    const one = await queue.sweepRetention(later, { batch: 5, dryRun: true });
    expect(one.items).toHaveLength(5);
    expect(one.more).toBe(true);

    // A second store over the same PostgreSQL: another copy of the app, racing. (SQLite is one
    // process's file: there the second sweeper runs after the first.)
    const other: ReviewDatabase =
      engine === 'postgres' ? await openReviewDatabase(store.settings) : store.database;
    try {
      const otherQueue = new QueueStore(other, LEASE);
      const passes =
        engine === 'postgres'
          ? await Promise.all([
              queue.sweepRetention(later, { batch: 200 }),
              otherQueue.sweepRetention(later, { batch: 200 }),
            ])
          : [
              await queue.sweepRetention(later, { batch: 200 }),
              await otherQueue.sweepRetention(later, { batch: 200 }),
            ];
      const done = passes.flatMap((pass) => pass.items.map((item) => item.documentId));
      expect(done.sort()).toEqual([...ids].sort());
      expect(new Set(done).size).toBe(done.length);
      for (const id of ids) expect(await tombstones(id)).toHaveLength(1);
    } finally {
      if (other !== store.database) await other.close();
    }
  });
});
