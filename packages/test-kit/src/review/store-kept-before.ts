/**
 * For tests of a migration on data kept before it: a fresh review store (SQLite under `dataDir`, or a
 * new database on the test run's PostgreSQL) with every migration named before `migration` and none
 * after, as a copy of that time left it. The test writes what such a copy wrote, then `upgrade()`s.
 */
import path from 'node:path';
import { Migrator, type Kysely, type Migration } from 'kysely';
import { reviewMigrations, type Engine } from '@extraction-review/app-server/review/db/migrations';
import type { ReviewDatabase } from '@extraction-review/app-server/review/db/open-database';
import { openWithoutSchema } from './raw-review-database';
import { createTestDatabase } from './test-database';

export interface StoreKeptBefore {
  /** The store, opened without the schema step (for the code under test, once upgraded). */
  database: ReviewDatabase;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema as it was before the migration
  db: Kysely<any>;
  /** Runs the migration and every one after it. */
  upgrade(): Promise<void>;
  cleanup(): Promise<void>;
}

export async function storeKeptBefore(
  engine: Engine,
  migration: string,
  dataDir: string,
): Promise<StoreKeptBefore> {
  const all = reviewMigrations(engine);
  if (all[migration] === undefined) throw new Error(`no migration ${migration}`);
  const postgres = engine === 'postgres' ? await createTestDatabase() : undefined;
  const database = openWithoutSchema({
    databaseUrl: postgres?.url,
    dataDir: path.join(dataDir, `before-${migration}`),
  });
  const migrate = async (migrations: Record<string, Migration>) => {
    const { error } = await new Migrator({
      db: database.db,
      provider: { getMigrations: () => Promise.resolve(migrations) },
    }).migrateToLatest();
    if (error !== undefined) throw error instanceof Error ? error : new Error(String(error));
  };
  try {
    await migrate(Object.fromEntries(Object.entries(all).filter(([name]) => name < migration)));
  } catch (error) {
    await database.close();
    await postgres?.drop();
    throw error;
  }
  return {
    database,
    db: database.db,
    upgrade: () => migrate(all),
    cleanup: async () => {
      await database.close();
      await postgres?.drop();
    },
  };
}
