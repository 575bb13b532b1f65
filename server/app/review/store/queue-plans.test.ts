/**
 * The queue's listing as SQLite plans it once its statistics describe a million documents with few
 * kept-file hashes (documents from pipelines keep none): each listed row's "same file as" look-up
 * must stay one seek of documents_same_file (migration 0020), never a walk of documents_created for
 * every row (a first page took 100 s at 1,000,000 that way). The statistics are written as ANALYZE
 * would write them for that store; the plan is the one SQLite chooses for the listing's own SQL.
 */
import { CompiledQuery, sql, type KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { QueueStore } from './queue-store';

const T0 = Date.UTC(2026, 11, 7, 9, 0, 0);

describe('the queue listing on SQLite with the statistics of a million documents', () => {
  let store: TestStore;

  beforeAll(async () => {
    store = await openTestStore('sqlite');
  });
  afterAll(async () => {
    await store.cleanup();
  });

  it("finds each row's earlier same file with one seek, not a walk of the documents", async () => {
    const { db } = store.database;
    await db
      .insertInto('documents')
      .values(
        Array.from({ length: 20 }, (_, i) => ({
          id: `doc-${i}`,
          api_version: 'v2' as const,
          model_key: 'm',
          file_name: `doc-${i}.pdf`,
          state: 'confirmed' as const,
          priority: 0,
          version: 1,
          fields_total: 1,
          fields_to_review: 0,
          created_at: T0 + i,
          updated_at: T0 + i,
        })),
      )
      .execute();
    await sql`analyze`.execute(db);
    // What ANALYZE says of 1,000,000 documents without hashes, each received at its own time.
    await sql`update sqlite_stat1 set stat = '1000000' || substr(stat, instr(stat, ' ')) where tbl = 'documents'`.execute(
      db,
    );
    await sql`update sqlite_stat1 set stat = '1000000 1000000 1 1' where idx = 'documents_same_file'`.execute(
      db,
    );
    await sql`update sqlite_stat1 set stat = '1000000 1 1' where idx = 'documents_created'`.execute(db);
    await sql`analyze sqlite_schema`.execute(db);

    const compiled: CompiledQuery[] = [];
    const capture: KyselyPlugin = {
      transformQuery: (args) => {
        compiled.push(db.getExecutor().compileQuery(args.node, args.queryId));
        return args.node;
      },
      transformResult: (args) => Promise.resolve(args.result),
    };
    const queue = new QueueStore({ ...store.database, db: db.withPlugin(capture) }, 60_000);
    expect((await queue.listDocuments({ limit: 50 }, T0)).rows).toHaveLength(20);
    const listing = compiled.find((query) => query.sql.includes('duplicate_of_id'));
    if (listing === undefined) throw new Error('the listing was not captured');
    const plan = await db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${listing.sql}`, [...listing.parameters]),
    );
    const details = plan.rows.map((row) => row.detail);
    expect(details.filter((detail) => detail.includes('earlier'))).toEqual([
      expect.stringContaining('SEARCH earlier USING COVERING INDEX documents_same_file (file_sha256=?)'),
      expect.stringContaining('SEARCH earlier USING INDEX documents_same_file (file_sha256=?)'),
    ]);
  });
});
