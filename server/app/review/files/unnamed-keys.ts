/**
 * Which of some kept files no document names (its `file_key`), asked of the store in batches, so that
 * memory and statements stay small whatever the number of files: the sweeps of every backend use it.
 */
import type { ReviewDatabase } from '../db/open-database';
import { listNamedFileKeys } from '../store/queue-store';

/** Keys asked of the store at once: well under SQLite's and PostgreSQL's parameter limits. */
export const KEY_BATCH = 500;

export async function* unnamedKeys<T>(
  database: ReviewDatabase,
  items: readonly T[],
  keyOf: (item: T) => string,
): AsyncGenerator<T[]> {
  for (let i = 0; i < items.length; i += KEY_BATCH) {
    const batch = items.slice(i, i + KEY_BATCH);
    const named = await listNamedFileKeys(database.db, batch.map(keyOf));
    const kept = new Set(named.map((row) => row.file_key));
    yield batch.filter((item) => !kept.has(keyOf(item)));
  }
}
