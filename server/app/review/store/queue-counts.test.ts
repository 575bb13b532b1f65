/**
 * The counts the store keeps per model and state (migration 0018) and the name search's index
 * (migration 0019), on both engines: whatever writes the documents (the queue's own actions, several
 * rows in one statement, a delete, code that knows nothing of the counts), the kept counts are what a
 * count of the table says; on PostgreSQL, with writers racing on their own connections and folds
 * between them; and a store kept before the migrations gets both for the documents it had.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { createTestDatabase } from '@extraction-review/test-kit/review/test-database';
import { storeKeptBefore } from '@extraction-review/test-kit/review/store-kept-before';
import { captureLogs } from '@extraction-review/test-kit/log-capture';
import type { Engine } from '../db/migrations';
import { openReviewDatabase } from '../db/open-database';
import type { ReviewDatabaseSchema } from '../db/schema';
import { DocumentState } from '@extraction-review/contract/review/schemas';
import { QueueStore } from './queue-store';
import { OperatorStore } from './operator-store';
import { noCounts, QueueCounts } from './queue-counts';

const LEASE = 60_000;
const T0 = Date.UTC(2026, 11, 7, 9, 0, 0);

/** What a count of the table says, per model and stored state. */
async function counted(db: Kysely<ReviewDatabaseSchema>) {
  const rows = await db
    .selectFrom('documents')
    .select(['model_key', 'state', (eb) => eb.fn.countAll<number | string>().as('n')])
    .groupBy(['model_key', 'state'])
    .execute();
  return rows
    .map((row) => ({ model: row.model_key, state: row.state, count: Number(row.n) }))
    .sort((a, b) => `${a.model}/${a.state}`.localeCompare(`${b.model}/${b.state}`));
}

async function kept(counts: QueueCounts, now: number) {
  return (await counts.byModel(now)).sort((a, b) =>
    `${a.model}/${a.state}`.localeCompare(`${b.model}/${b.state}`),
  );
}

function rows(n: number, prefix: string, model: string, state: DocumentState, now: number) {
  return Array.from({ length: n }, (_, i) => ({
    id: `${prefix}-${String(i).padStart(4, '0')}`,
    api_version: 'v2' as const,
    model_key: model,
    file_name: `${prefix}-${i}.pdf`,
    state,
    priority: 0,
    version: 1,
    fields_total: 3,
    fields_to_review: 1,
    created_at: now + i,
    updated_at: now + i,
    ready_at: now + i,
  }));
}

describe.each(ENGINES)('the kept queue counts on %s', (engine) => {
  let store: TestStore;
  let queue: QueueStore;
  let alice: string;
  let admin: string;

  beforeAll(async () => {
    store = await openTestStore(engine);
    queue = new QueueStore(store.database, LEASE);
    const operators = new OperatorStore(store.database);
    alice = (await operators.create({ name: 'Alice', role: 'operator', passwordHash: 'x' }, T0)).id;
    admin = (await operators.create({ name: 'Ada', role: 'admin', passwordHash: 'x' }, T0)).id;
  });
  afterAll(async () => {
    await store.cleanup();
  });

  it('stay what a count of the table says through every kind of write, and agree with the filtered count', async () => {
    const { db } = store.database;
    // Several rows in one statement, as an import or the bench does.
    await db
      .insertInto('documents')
      .values(rows(30, 'inv', 'model-invoices', 'to_review', T0))
      .execute();
    await db
      .insertInto('documents')
      .values(rows(12, 'rec', 'model-receipts', 'confirmed', T0))
      .execute();
    // The queue's own actions.
    for (let i = 0; i < 4; i++) {
      const taken = await queue.takeNext(alice, T0 + i);
      if (taken === undefined) throw new Error('nothing to take');
      if (i === 0) await queue.decide(taken.id, alice, taken.version, 'confirmed', null, T0 + i);
      if (i === 1) await queue.decide(taken.id, alice, taken.version, 'rejected', 'unreadable', T0 + i);
      if (i === 2) await queue.release(taken.id, alice, T0 + i);
      // i === 3: kept in review, its lease runs out at T0 + 3 + LEASE.
    }
    const confirmed = await db
      .selectFrom('documents')
      .select('id')
      .where('state', '=', 'confirmed')
      .executeTakeFirstOrThrow();
    await queue.reopen(confirmed.id, admin, T0 + 10);
    // Several rows changed in one statement, a model moved, a postponement that ends, a delete.
    await db
      .updateTable('documents')
      .set({ state: 'failed' })
      .where('id', 'in', ['inv-0020', 'inv-0021', 'inv-0022'])
      .execute();
    await db
      .updateTable('documents')
      .set({ model_key: 'model-other' })
      .where('id', '=', 'rec-0000')
      .execute();
    await db
      .updateTable('documents')
      .set({ state: 'postponed', postponed_until: T0 + 1000 })
      .where('id', 'in', ['inv-0025', 'inv-0026'])
      .execute();
    await db
      .updateTable('documents')
      .set({ state: 'postponed', postponed_until: null })
      .where('id', '=', 'inv-0027')
      .execute();
    await db.deleteFrom('documents').where('id', 'in', ['rec-0001', 'rec-0002', 'inv-0029']).execute();
    // A write that changes no state moves nothing.
    await db
      .updateTable('documents')
      .set({ priority: 5 })
      .where('model_key', '=', 'model-invoices')
      .execute();

    expect(await kept(queue.counts, T0)).toEqual(await counted(db));
    await queue.counts.fold();
    expect(await kept(queue.counts, T0)).toEqual(await counted(db));

    // As readers see them: the kept path (no filter, or a model) agrees with the filtered count
    // (`from: 0` selects every document and counts them), before and after the lease and the
    // postponement run out.
    for (const now of [T0 + 20, T0 + 2_000, T0 + 10 + LEASE]) {
      for (const model of [undefined, 'model-invoices', 'model-receipts', 'model-other', 'model-none']) {
        const fast = await queue.countByState(now, { model });
        const scanned = await queue.countByState(now, { model, from: 0 });
        expect(fast, `${model ?? 'all'} at +${now - T0}`).toEqual(scanned);
      }
    }
    const later = await queue.countByState(T0 + 10 + LEASE);
    expect(later.in_review).toBe(0);
    expect(later.postponed).toBe(1);
    expect(Object.keys(later).sort()).toEqual([...DocumentState.options].sort());
  });

  it('are given to a store kept before migration 0018, and its names are searched', async () => {
    const kept = await storeKeptBefore(engine, '0018-queue-counts', store.settings.dataDir);
    try {
      await kept.db
        .insertInto('documents')
        .values(rows(7, 'Kept-Müller', 'm', 'to_review', T0))
        .execute();
      await kept.db
        .insertInto('documents')
        .values(rows(3, 'done', 'm', 'confirmed', T0))
        .execute();
      await kept.upgrade();

      const counts = new QueueCounts(kept.database);
      expect(await counts.byState(T0, 'm')).toEqual({ ...noCounts(), to_review: 7, confirmed: 3 });
      const found = await new QueueStore(kept.database, LEASE).listDocuments(
        { search: 'kept-mü', limit: 50 },
        T0,
      );
      expect(found.rows).toHaveLength(7);
    } finally {
      await kept.cleanup();
    }
  });
});

describe.each(ENGINES)('the name search on %s', (engine) => {
  let store: TestStore;
  let queue: QueueStore;

  beforeAll(async () => {
    store = await openTestStore(engine);
    queue = new QueueStore(store.database, LEASE);
    const { db } = store.database;
    await db
      .insertInto('documents')
      .values([
        ...rows(3, 'ACME-Invoice', 'm', 'to_review', T0),
        ...rows(2, 'müller-kranz', 'm', 'confirmed', T0),
        ...rows(1, 'odd', 'm', 'to_review', T0).map((row) => ({
          ...row,
          id: 'quoted',
          file_name: 'say "hi" 100%_done.pdf',
        })),
        ...rows(1, 'aliased', 'm', 'to_review', T0).map((row) => ({
          ...row,
          id: 'aliased',
          alias: 'Batch Nord 7',
        })),
      ])
      .execute();
  });
  afterAll(async () => {
    await store.cleanup();
  });

  async function search(q: string): Promise<string[]> {
    const page = await queue.listDocuments({ search: q, limit: 50 }, T0);
    return page.rows.map((row) => row.id).sort();
  }

  it('finds names and aliases anywhere, whatever the case, through writes, deletes and short needles', async () => {
    const { db } = store.database;
    expect(await search('acme-inv')).toEqual(['ACME-Invoice-0000', 'ACME-Invoice-0001', 'ACME-Invoice-0002']);
    expect(await search('NVOICE-1')).toEqual(['ACME-Invoice-0001']);
    expect(await search('batch nord')).toEqual(['aliased']);
    expect(await search('"hi"')).toEqual(['quoted']);
    expect(await search('100%_')).toEqual(['quoted']);
    expect(await search('0%d')).toEqual([]);
    expect(await search('-1')).toEqual(['ACME-Invoice-0001', 'müller-kranz-0001']);
    expect(await search('ller-kr')).toEqual(['müller-kranz-0000', 'müller-kranz-0001']);
    // Its counts and "next" see the same documents.
    expect((await queue.countByState(T0, { search: 'acme' })).to_review).toBe(3);

    await db.updateTable('documents').set({ alias: 'Batch Süd' }).where('id', '=', 'aliased').execute();
    await db
      .updateTable('documents')
      .set({ file_name: 'renamed.pdf' })
      .where('id', '=', 'ACME-Invoice-0002')
      .execute();
    await db.deleteFrom('documents').where('id', '=', 'ACME-Invoice-0000').execute();
    expect(await search('batch nord')).toEqual([]);
    expect(await search('batch süd')).toEqual(['aliased']);
    expect(await search('acme')).toEqual(['ACME-Invoice-0001']);
    expect(await search('renamed')).toEqual(['ACME-Invoice-0002']);

    // SQLite's VACUUM (and the VACUUM INTO backup) may renumber the rows' rowids: the index is keyed
    // by documents.search_id, which it keeps.
    if (engine === 'sqlite') {
      await db.deleteFrom('documents').where('id', 'like', 'müller%').execute();
      await sql`vacuum`.execute(db);
      await db
        .insertInto('documents')
        .values(rows(2, 'after-vacuum', 'm', 'to_review', T0))
        .execute();
      expect(await search('after-vac')).toEqual(['after-vacuum-0000', 'after-vacuum-0001']);
      expect(await search('müller')).toEqual([]);
    }
    expect(await search('acme')).toEqual(['ACME-Invoice-0001']);
    expect(await search('batch süd')).toEqual(['aliased']);
  });

  it("pages a needle most names have in the list's order (SQLite walks it past 2,000 matches)", async () => {
    const { db } = store.database;
    await db
      .insertInto('documents')
      .values(rows(2_100, 'Common-Word', 'm', 'to_review', T0 + 10_000))
      .execute();
    const first = await queue.listDocuments({ search: 'common-w', limit: 50 }, T0);
    expect(first.rows.map((row) => row.id)).toEqual(
      Array.from({ length: 50 }, (_, i) => `Common-Word-${String(2_099 - i).padStart(4, '0')}`),
    );
    const second = await queue.listDocuments(
      { search: 'common-w', limit: 50, after: first.next ?? undefined },
      T0,
    );
    expect(second.rows[0]?.id).toBe('Common-Word-2049');
    expect((await queue.countByState(T0, { search: 'common-w' })).to_review).toBe(2_100);
    await db.deleteFrom('documents').where('id', 'like', 'Common-Word-%').execute();
  });

  it('reads the index, not every name', async () => {
    const plan = await explainSearch(store.database.db, engine);
    expect(plan).toMatch(engine === 'postgres' ? /documents_file_name_trgm/ : /documents_search/);
  });
});

describe('the kept queue counts under racing writers on PostgreSQL', () => {
  let store: TestStore;

  beforeAll(async () => {
    store = await openTestStore('postgres', { maxConnections: 12 });
  });
  afterAll(async () => {
    await store.cleanup();
  });

  it('stay right while operators, several-row changes and folds race on their own connections', async () => {
    const queue = new QueueStore(store.database, LEASE);
    const operators = new OperatorStore(store.database);
    const { db } = store.database;
    await db
      .insertInto('documents')
      .values(rows(150, 'a', 'model-a', 'to_review', T0))
      .execute();
    await db
      .insertInto('documents')
      .values(rows(150, 'b', 'model-b', 'to_review', T0))
      .execute();
    const ids = await Promise.all(
      Array.from(
        { length: 8 },
        async (_, i) =>
          (await operators.create({ name: `op ${i}`, role: 'operator', passwordHash: 'x' }, T0)).id,
      ),
    );
    const folds = new QueueCounts(store.database, 0);
    let decided = 0;
    const work = async (operator: string, turn: number) => {
      for (let round = 0; round < 12; round++) {
        const taken = await queue.takeNext(operator, T0 + round);
        if (taken === undefined) return;
        if ((round + turn) % 3 === 2) await queue.release(taken.id, operator, T0 + round);
        else {
          await queue.decide(
            taken.id,
            operator,
            taken.version,
            round % 2 === 0 ? 'confirmed' : 'rejected',
            null,
            T0 + round,
          );
          decided++;
        }
        if (round % 4 === 0) await folds.fold();
      }
    };
    // Several rows in one statement at the same time: the bulk actions' shape.
    const bulk = async () => {
      for (let round = 0; round < 6; round++) {
        await db
          .updateTable('documents')
          .set({ state: 'postponed', postponed_until: null })
          .where('id', 'in', [
            `b-${String(140 + round).padStart(4, '0')}`,
            `a-${String(140 + round).padStart(4, '0')}`,
          ])
          .where('state', '=', 'to_review')
          .execute();
        await folds.fold();
      }
    };
    await Promise.all([...ids.map((id, turn) => work(id, turn)), bulk()]);
    expect(decided).toBeGreaterThan(40);
    expect(await kept(queue.counts, T0)).toEqual(await counted(db));
    await queue.counts.fold();
    const left = await db
      .selectFrom('queue_count_changes')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(left.n)).toBe(0);
    expect(await kept(queue.counts, T0)).toEqual(await counted(db));
  });
});

describe('the name search on PostgreSQL without pg_trgm', () => {
  it('migrates where the role may not create the extension, says so, and searches by walking the names', async () => {
    const database = await createTestDatabase();
    const role = `review_plain_${database.name.slice(-12)}`;
    const asAdmin = async (url: string, statements: string[]) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        for (const statement of statements) await client.query(statement);
      } finally {
        await client.end();
      }
    };
    // A role that owns nothing and may create tables in the schema, not extensions in the database.
    await asAdmin(database.url, [
      `create role "${role}" login`,
      `grant create on schema public to "${role}"`,
    ]);
    const url = new URL(database.url);
    url.username = role;
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'review-no-trgm-'));
    const logs = captureLogs('warn');
    try {
      const opened = await openReviewDatabase({ databaseUrl: url.href, dataDir });
      try {
        expect(
          logs.messages('warn').some((message) => message.includes('pg_trgm could not be created')),
        ).toBe(true);
        await opened.db
          .insertInto('documents')
          .values(rows(2, 'Walked', 'm', 'to_review', T0))
          .execute();
        const found = await new QueueStore(opened, LEASE).listDocuments(
          { search: 'walked-1', limit: 50 },
          T0,
        );
        expect(found.rows.map((row) => row.id)).toEqual(['Walked-0001']);
      } finally {
        await opened.close();
      }
    } finally {
      logs.restore();
      await database.drop();
      const server = new URL(database.url);
      server.pathname = '/postgres';
      await asAdmin(server.href, [`drop role if exists "${role}"`]);
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

async function explainSearch(db: Kysely<ReviewDatabaseSchema>, engine: Engine): Promise<string> {
  if (engine === 'sqlite') {
    const plan = await sql<{ detail: string }>`explain query plan select id from documents
      where documents.search_id in (select rowid from documents_search where documents_search match ${'"acme"'})`.execute(
      db,
    );
    return plan.rows.map((row) => row.detail).join('\n');
  }
  // A handful of rows: the planner would walk them all; how it finds the names at scale is the point.
  return db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    const plan = await sql<{ 'QUERY PLAN': string }>`explain select id from documents
      where lower(file_name) like ${'%acme%'} escape '\\' or lower(alias) like ${'%acme%'} escape '\\'`.execute(
      trx,
    );
    return plan.rows.map((row) => row['QUERY PLAN']).join('\n');
  });
}
