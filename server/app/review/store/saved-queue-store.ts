/**
 * Saved queues (the `saved_queues` table, migration 0011-saved-filters; the contract:
 * packages/contract/src/review/saved-queues.ts): a name, unique whatever its case, and the queue's
 * filters as JSON. Each write is one statement: a rename or change on the version read
 * (`WHERE id = ? AND version = ?`), the name's uniqueness left to the table's unique index, so two
 * admins saving at once cannot both win.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { SavedQueueFilters } from '@extraction-review/contract/review/saved-queues';
import { MAX_SAVED_QUEUES } from '@extraction-review/contract/review/saved-queues';
import type { ReviewDatabase } from '../db/open-database';
import type { SavedQueueRow } from '../db/schema';
import { isUniqueViolation, nameKey } from './operator-store';

export interface StoredSavedQueue {
  id: string;
  name: string;
  filters: SavedQueueFilters;
  version: number;
  updatedAt: number;
}

export type SavedQueueWrite =
  | { ok: true; queue: StoredSavedQueue }
  | { ok: false; reason: 'not_found' | 'name_taken' | 'too_many' }
  | { ok: false; reason: 'changed'; current: StoredSavedQueue };

export class SavedQueueStore {
  constructor(private readonly store: ReviewDatabase) {}

  /** Every saved queue, by name (whatever its case). */
  async list(): Promise<StoredSavedQueue[]> {
    const rows = await this.store.db.selectFrom('saved_queues').selectAll().orderBy('name_key').execute();
    return rows.map(stored);
  }

  async find(id: string): Promise<StoredSavedQueue | undefined> {
    const row = await this.store.db
      .selectFrom('saved_queues')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row && stored(row);
  }

  /**
   * A new saved queue; refused when the name is taken or the team has MAX_SAVED_QUEUES already (a
   * limit two admins saving at the same moment may pass by one).
   */
  async create(
    input: { name: string; filters: SavedQueueFilters },
    actorId: string,
    now: number,
  ): Promise<SavedQueueWrite> {
    const counted = await this.store.db
      .selectFrom('saved_queues')
      .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
      .executeTakeFirstOrThrow();
    if (Number(counted.n) >= MAX_SAVED_QUEUES) return { ok: false, reason: 'too_many' };
    try {
      const row = await this.store.db
        .insertInto('saved_queues')
        .values({
          id: randomUUID(),
          name: input.name,
          name_key: nameKey(input.name),
          filters_json: JSON.stringify(input.filters),
          version: 1,
          created_at: now,
          created_by: actorId,
          updated_at: now,
          updated_by: actorId,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return { ok: true, queue: stored(row) };
    } catch (error) {
      if (isUniqueViolation(error)) return { ok: false, reason: 'name_taken' };
      throw error;
    }
  }

  /** A rename, new filters or both, on the version read. */
  async update(
    id: string,
    version: number,
    change: { name?: string | undefined; filters?: SavedQueueFilters | undefined },
    actorId: string,
    now: number,
  ): Promise<SavedQueueWrite> {
    let row: SavedQueueRow | undefined;
    try {
      row = await this.store.db
        .updateTable('saved_queues')
        .set({
          ...(change.name === undefined ? {} : { name: change.name, name_key: nameKey(change.name) }),
          ...(change.filters === undefined ? {} : { filters_json: JSON.stringify(change.filters) }),
          version: sql<number>`version + 1`,
          updated_at: now,
          updated_by: actorId,
        })
        .where('id', '=', id)
        .where('version', '=', version)
        .returningAll()
        .executeTakeFirst();
    } catch (error) {
      if (isUniqueViolation(error)) return { ok: false, reason: 'name_taken' };
      throw error;
    }
    if (row !== undefined) return { ok: true, queue: stored(row) };
    const current = await this.find(id);
    return current === undefined
      ? { ok: false, reason: 'not_found' }
      : { ok: false, reason: 'changed', current };
  }

  /** Whether there was such a queue to delete. */
  async delete(id: string): Promise<boolean> {
    const result = await this.store.db.deleteFrom('saved_queues').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}

function stored(row: SavedQueueRow): StoredSavedQueue {
  return {
    id: row.id,
    name: row.name,
    filters: JSON.parse(row.filters_json) as SavedQueueFilters,
    version: Number(row.version),
    updatedAt: Number(row.updated_at),
  };
}
