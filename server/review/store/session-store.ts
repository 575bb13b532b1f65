/**
 * Sign-in sessions and the one-time set-up link. A session is an opaque random token in the
 * operator's cookie; the store keeps only its SHA-256, so a copy of the database signs nobody in.
 * It ends after `idleMs` without use or `maxMs` in all, at sign-out, or with its operator.
 * (The Copenhagen Book, sessions: a 256-bit token, hashed at rest, with expiry.)
 */
import { createHash, randomBytes } from 'node:crypto';
import type { ReviewDatabase } from '../db/open-database';
import type { OperatorRow } from '../db/schema';

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

  /** Sessions past their time, removed now and then (expired ones are refused anyway). */
  async deleteExpired(now: number): Promise<void> {
    await this.store.db
      .deleteFrom('sessions')
      .where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<=', now - this.idleMs)]))
      .execute();
  }

  /** A one-time set-up link's token (the first admin), valid `ttlMs`. */
  async createSetupToken(now: number, ttlMs: number): Promise<string> {
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

  /** Whether a set-up token is still usable (the set-up page asks before showing its form). */
  async setupTokenValid(token: string, now: number): Promise<boolean> {
    const row = await this.store.db
      .selectFrom('setup_tokens')
      .select('token_hash')
      .where('token_hash', '=', hashToken(token))
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row !== undefined;
  }
}
