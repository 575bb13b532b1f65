/**
 * Operators: a name (unique whatever its case), a role, and an Argon2id password hash (never the
 * password; passwords.ts makes and checks the hash).
 */
import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { ReviewDatabase } from '../db/open-database';
import type { OperatorRow, ReviewDatabaseSchema } from '../db/schema';
import type { OperatorRole } from '../model/review-types';

export interface NewOperator {
  name: string;
  role: OperatorRole;
  /** Null for an operator who signs in only through the company's single sign-on proxy. */
  passwordHash: string | null;
}

/** What may be shown of an operator: never the hash. */
export interface Operator {
  id: string;
  name: string;
  role: OperatorRole;
  hasPassword: boolean;
  createdAt: number;
  /** When an admin deactivated them; null while active. */
  deactivatedAt: number | null;
}

export class DuplicateOperatorError extends Error {
  constructor(name: string) {
    super(`An operator named ${JSON.stringify(name)} already exists.`);
    this.name = 'DuplicateOperatorError';
  }
}

export const nameKey = (name: string): string => name.trim().normalize('NFC').toLowerCase();

export function toOperator(row: OperatorRow): Operator {
  return {
    id: row.id,
    name: row.name,
    role: row.role,
    hasPassword: row.password_hash !== null,
    createdAt: row.created_at,
    deactivatedAt: row.deactivated_at,
  };
}

export class OperatorStore {
  constructor(private readonly store: ReviewDatabase) {}

  /** `db`: a transaction to make it in (the set-up link's first admin, session-store.ts). */
  async create(
    input: NewOperator,
    now: number,
    db: Kysely<ReviewDatabaseSchema> | Transaction<ReviewDatabaseSchema> = this.store.db,
  ): Promise<Operator> {
    const name = input.name.trim().normalize('NFC');
    const key = nameKey(name);
    try {
      const row = await db
        .insertInto('operators')
        .values({
          id: randomUUID(),
          name,
          name_key: key,
          role: input.role,
          password_hash: input.passwordHash,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toOperator(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw new DuplicateOperatorError(name);
      throw error;
    }
  }

  async list(): Promise<Operator[]> {
    const rows = await this.store.db.selectFrom('operators').selectAll().orderBy('name_key').execute();
    return rows.map(toOperator);
  }

  /** Every operator's row, by name (with its hash: for presenting whether it has one, never for sending). */
  async listRows(): Promise<OperatorRow[]> {
    return this.store.db.selectFrom('operators').selectAll().orderBy('name_key').execute();
  }

  /** The names of these operators, by id (one since removed is not there). */
  async namesById(ids: readonly string[]): Promise<Map<string, string>> {
    return operatorNamesById(this.store.db, ids);
  }

  async count(): Promise<number> {
    const row = await this.store.db
      .selectFrom('operators')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** With its hash: for signing in only. */
  async findByName(name: string): Promise<OperatorRow | undefined> {
    return this.store.db
      .selectFrom('operators')
      .selectAll()
      .where('name_key', '=', nameKey(name))
      .executeTakeFirst();
  }

  async findById(id: string): Promise<OperatorRow | undefined> {
    return this.store.db.selectFrom('operators').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Whether it existed. Its sessions end with it (foreign key, cascade). */
  async remove(name: string): Promise<boolean> {
    const result = await this.store.db
      .deleteFrom('operators')
      .where('name_key', '=', nameKey(name))
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Whether it existed. Its other sessions are ended by the caller (sessions store). */
  async setPasswordHash(name: string, passwordHash: string, now: number): Promise<OperatorRow | undefined> {
    return this.store.db
      .updateTable('operators')
      .set({ password_hash: passwordHash, updated_at: now })
      .where('name_key', '=', nameKey(name))
      .returningAll()
      .executeTakeFirst();
  }

  async setRole(name: string, role: OperatorRole, now: number): Promise<OperatorRow | undefined> {
    return this.store.db
      .updateTable('operators')
      .set({ role, updated_at: now })
      .where('name_key', '=', nameKey(name))
      .returningAll()
      .executeTakeFirst();
  }
}

/** Why an admin's change of an operator's access was refused. */
export type AccessChange =
  | { ok: true; row: OperatorRow }
  | { ok: false; reason: 'not-found' }
  /** It would leave the team without an active admin. */
  | { ok: false; reason: 'last-admin' };

/**
 * Role and deactivation, by admins (operator-routes.ts). Each change is one conditional statement: an
 * admin is demoted or deactivated only while another active admin remains, so two admins demoting
 * each other at once cannot leave the team without one (on SQLite's single writer; PostgreSQL's
 * statements see the other's committed row).
 */
export class OperatorAccess {
  constructor(private readonly store: ReviewDatabase) {}

  async change(
    id: string,
    change: { role?: OperatorRole | undefined; active?: boolean | undefined },
    now: number,
  ): Promise<AccessChange> {
    const db = this.store.db;
    const current = await db.selectFrom('operators').selectAll().where('id', '=', id).executeTakeFirst();
    if (current === undefined) return { ok: false, reason: 'not-found' };
    const role = change.role ?? current.role;
    const deactivatedAt =
      change.active === undefined
        ? current.deactivated_at
        : change.active
          ? null
          : (current.deactivated_at ?? now);
    // No longer an active admin after this: another one must remain.
    const losesAdmin =
      current.role === 'admin' &&
      current.deactivated_at === null &&
      (role !== 'admin' || deactivatedAt !== null);
    let query = db
      .updateTable('operators')
      .set({ role, deactivated_at: deactivatedAt, updated_at: now })
      .where('id', '=', id);
    if (losesAdmin) {
      query = query.where((eb) =>
        eb(
          eb
            .selectFrom('operators as other')
            .select((o) => o.fn.countAll<number | string | bigint>().as('n'))
            .where('other.role', '=', 'admin')
            .where('other.deactivated_at', 'is', null)
            .where('other.id', '<>', id),
          '>',
          0,
        ),
      );
    }
    const row = await query.returningAll().executeTakeFirst();
    if (row === undefined)
      return losesAdmin ? { ok: false, reason: 'last-admin' } : { ok: false, reason: 'not-found' };
    return { ok: true, row };
  }
}

/** SQLite's `SQLITE_CONSTRAINT_UNIQUE`, PostgreSQL's `23505`. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}

/** An operator's name, in `db`'s transaction if any (the outbox's, at confirmation). */
export async function findOperatorName(
  db: Kysely<ReviewDatabaseSchema> | Transaction<ReviewDatabaseSchema>,
  id: string,
): Promise<{ name: string } | undefined> {
  return db.selectFrom('operators').select('name').where('id', '=', id).executeTakeFirst();
}

/** The names of these operators, by id (one since removed is not there); no query for none. */
export async function operatorNamesById(
  db: Kysely<ReviewDatabaseSchema> | Transaction<ReviewDatabaseSchema>,
  ids: readonly string[],
): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('operators').select(['id', 'name']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, row.name]));
}
