/**
 * Brings the review store's schema up to date with this code's migrations (migrations.ts).
 */
import { Migrator, type MigrationResultSet } from 'kysely';
import { reviewMigrations } from './migrations';
import type { ReviewDatabase } from './open-database';

export async function migrateToLatest(opened: ReviewDatabase): Promise<void> {
  const migrations = reviewMigrations(opened.engine);
  const migrator = new Migrator({
    db: opened.db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
  });
  const result: MigrationResultSet = await migrator.migrateToLatest();
  if (result.error !== undefined) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`The review store's migration ${failed} failed: ${describe(result.error)}`, {
      cause: result.error,
    });
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
