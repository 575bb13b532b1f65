/**
 * Sign-in sessions and the one-time set-up link. A session is an opaque random token in the
 * operator's cookie; the store keeps only its SHA-256, so a copy of the database signs nobody in.
 * It ends after `idleMs` without use or `maxMs` in all, at sign-out, or with its operator.
 * (The Copenhagen Book, sessions: a 256-bit token, hashed at rest, with expiry.)
 *
 * A set-up link makes the first admin, and only that (issue 18: a first-start link still made an
 * admin a day after admins had been made with the command): it is refused once any admin exists,
 * lasts `SETUP_LINK_TTL_MS`, and its use spends every link in the transaction that makes the admin.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { ReviewDatabase } from '../db/open-database';
import type { OperatorRow, ReviewDatabaseSchema } from '../db/schema';
import { DuplicateOperatorError, OperatorStore } from './operator-store';

type Db = Kysely<ReviewDatabaseSchema> | Transaction<ReviewDatabaseSchema>;

/** How long a set-up link stays valid: time to open the one printed at start, and not a day more. */
export const SETUP_LINK_TTL_MS = 60 * 60 * 1000;

/** Why a set-up link made no admin: spent (used, expired, unknown, or an admin exists), or the name. */
export type FirstAdminResult =
  { ok: true; operatorId: string } | { ok: false; reason: 'spent' } | { ok: false; reason: 'name-taken' };

class SetupRefused extends Error {
  constructor(readonly reason: 'spent' | 'name-taken') {
    super(reason);
  }
}

export const DEFAULT_SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
export const DEFAULT_SESSION_MAX_MS = 7 * 24 * 60 * 60 * 1000;
/** Writing `last_seen_at` at every request would make each read a write: once a minute is enough. */
const TOUCH_EVERY_MS = 60_000;
/**
 * Live sessions one operator may hold: a new one past it ends the least recently used (issue 18: a
 * client without cookies behind single sign-on made a session per request). Twenty browsers and
 * devices is more than a person uses; a script signing in again and again stays within it.
 */
export const MAX_SESSIONS_PER_OPERATOR = 20;

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');
const newToken = (): string => randomBytes(32).toString('base64url');

export interface SessionStoreOptions {
  idleMs?: number;
  maxMs?: number;
}

export interface ActiveSession {
  operator: OperatorRow;
  csrfToken: string;
  expiresAt: number;
}

export class SessionStore {
  private readonly idleMs: number;
  private readonly maxMs: number;

  constructor(
    private readonly store: ReviewDatabase,
    options: SessionStoreOptions = {},
  ) {
    this.idleMs = options.idleMs ?? DEFAULT_SESSION_IDLE_MS;
    this.maxMs = options.maxMs ?? DEFAULT_SESSION_MAX_MS;
  }

  /** A new session: the token for the cookie (shown once, never stored) and its CSRF token. */
  async create(
    operatorId: string,
    now: number,
  ): Promise<{ token: string; csrfToken: string; expiresAt: number }> {
    const token = newToken();
    const csrfToken = newToken();
    const expiresAt = now + this.maxMs;
    await this.store.db
      .insertInto('sessions')
      .values({
        token_hash: hashToken(token),
        operator_id: operatorId,
        csrf_token: csrfToken,
        created_at: now,
        expires_at: expiresAt,
        last_seen_at: now,
      })
      .execute();
    // The new one and the most recently used others, up to the cap: the rest end now.
    const tokenHash = hashToken(token);
    await this.store.db
      .deleteFrom('sessions')
      .where('operator_id', '=', operatorId)
      .where('token_hash', '<>', tokenHash)
      .where('token_hash', 'not in', (eb) =>
        eb
          .selectFrom('sessions')
          .select('token_hash')
          .where('operator_id', '=', operatorId)
          .where('token_hash', '<>', tokenHash)
          .orderBy('last_seen_at', 'desc')
          .orderBy('created_at', 'desc')
          .limit(MAX_SESSIONS_PER_OPERATOR - 1),
      )
      .execute();
    return { token, csrfToken, expiresAt };
  }

  /** The session of this cookie token, if it is still valid; its last use is noted. */
  async find(token: string, now: number): Promise<ActiveSession | undefined> {
    const tokenHash = hashToken(token);
    const row = await this.store.db
      .selectFrom('sessions')
      .innerJoin('operators', 'operators.id', 'sessions.operator_id')
      .selectAll('operators')
      .select(['sessions.csrf_token', 'sessions.expires_at', 'sessions.last_seen_at'])
      .where('sessions.token_hash', '=', tokenHash)
      .executeTakeFirst();
    if (row === undefined) return undefined;
    if (row.expires_at <= now || row.last_seen_at + this.idleMs <= now) {
      await this.store.db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
      return undefined;
    }
    if (now - row.last_seen_at >= TOUCH_EVERY_MS) {
      await this.store.db
        .updateTable('sessions')
        .set({ last_seen_at: now })
        .where('token_hash', '=', tokenHash)
        .execute();
    }
    const { csrf_token: csrfToken, expires_at: expiresAt, last_seen_at: _seen, ...operator } = row;
    return { operator, csrfToken, expiresAt };
  }

  async delete(token: string): Promise<void> {
    await this.store.db.deleteFrom('sessions').where('token_hash', '=', hashToken(token)).execute();
  }

  /** Every session of an operator (a new password, a removed operator), but `keep`'s. */
  async deleteAllOf(operatorId: string, keep?: string): Promise<void> {
    let query = this.store.db.deleteFrom('sessions').where('operator_id', '=', operatorId);
    if (keep !== undefined) query = query.where('token_hash', '<>', hashToken(keep));
    await query.execute();
  }

  /**
   * Sessions past their time (refused anyway), set-up links used or expired, and password links used
   * or expired, at most `batch` rows of each per call: the housekeeping loop (background/housekeeping.ts)
   * calls it again while a batch comes back full. Several copies may run it at once: a row deleted by
   * one is simply not there for the other.
   */
  async deleteExpired(now: number, batch = 200): Promise<{ sessions: number; links: number }> {
    const db = this.store.db;
    const sessions = await db
      .deleteFrom('sessions')
      .where('token_hash', 'in', (eb) =>
        eb
          .selectFrom('sessions')
          .select('token_hash')
          .where((w) => w.or([w('expires_at', '<=', now), w('last_seen_at', '<=', now - this.idleMs)]))
          .limit(batch),
      )
      .executeTakeFirst();
    const setup = await db
      .deleteFrom('setup_tokens')
      .where('token_hash', 'in', (eb) =>
        eb
          .selectFrom('setup_tokens')
          .select('token_hash')
          .where((w) => w.or([w('used_at', 'is not', null), w('expires_at', '<=', now)]))
          .limit(batch),
      )
      .executeTakeFirst();
    const password = await db
      .deleteFrom('password_links')
      .where('token_hash', 'in', (eb) =>
        eb
          .selectFrom('password_links')
          .select('token_hash')
          .where((w) => w.or([w('used_at', 'is not', null), w('expires_at', '<=', now)]))
          .limit(batch),
      )
      .executeTakeFirst();
    return {
      sessions: Number(sessions.numDeletedRows),
      links: Number(setup.numDeletedRows) + Number(password.numDeletedRows),
    };
  }

  /** A one-time set-up link's token (the first admin), valid `ttlMs`. */
  async createSetupToken(now: number, ttlMs: number = SETUP_LINK_TTL_MS): Promise<string> {
    const token = newToken();
    await this.store.db
      .insertInto('setup_tokens')
      .values({ token_hash: hashToken(token), created_at: now, expires_at: now + ttlMs, used_at: null })
      .execute();
    return token;
  }

  /** Uses the token up: true once, for a valid unused token; false ever after (one statement). */
  async consumeSetupToken(token: string, now: number): Promise<boolean> {
    const row = await this.store.db
      .updateTable('setup_tokens')
      .set({ used_at: now })
      .where('token_hash', '=', hashToken(token))
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('token_hash')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Whether a set-up link still makes an admin (the set-up page asks before showing its form). */
  async setupTokenValid(token: string, now: number): Promise<boolean> {
    const row = await this.store.db
      .selectFrom('setup_tokens')
      .select('token_hash')
      .where('token_hash', '=', hashToken(token))
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row !== undefined && !(await adminExists(this.store.db));
  }

  /**
   * The first admin, made with a set-up link, or why not. One transaction: its first statement
   * spends every live link, so of two uses at once (the same link twice, or two links, on one copy or
   * two copies on one PostgreSQL) the second waits for the first's row locks, then finds nothing
   * left to spend; SQLite runs one writer at a time. A name taken undoes it all: the link still works.
   */
  async createFirstAdmin(
    token: string,
    now: number,
    admin: { name: string; passwordHash: string },
  ): Promise<FirstAdminResult> {
    const tokenHash = hashToken(token);
    try {
      const operatorId = await this.store.db.transaction().execute(async (trx) => {
        const spent = await trx
          .updateTable('setup_tokens')
          .set({ used_at: now })
          .where('used_at', 'is', null)
          .where('expires_at', '>', now)
          .returning('token_hash')
          .execute();
        if (!spent.some((row) => row.token_hash === tokenHash) || (await adminExists(trx)))
          throw new SetupRefused('spent');
        try {
          const operator = await new OperatorStore(this.store).create(
            { name: admin.name, role: 'admin', passwordHash: admin.passwordHash },
            now,
            trx,
          );
          return operator.id;
        } catch (error) {
          if (error instanceof DuplicateOperatorError) throw new SetupRefused('name-taken');
          throw error;
        }
      });
      return { ok: true, operatorId };
    } catch (error) {
      if (error instanceof SetupRefused) return { ok: false, reason: error.reason };
      throw error;
    }
  }

  /** Whether any admin exists: then no set-up link is printed at start, and none is accepted. */
  async adminExists(): Promise<boolean> {
    return adminExists(this.store.db);
  }
}

async function adminExists(db: Db): Promise<boolean> {
  const row = await db
    .selectFrom('operators')
    .select('id')
    .where('role', '=', 'admin')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
