/**
 * One-time password links (issue 21: a password could be changed only from a shell). An admin makes
 * one for an operator; the operator opens `/set-password?token=…` and chooses a password. Like a
 * session's token, the link's is 256 random bits kept only as its SHA-256 (a copy of the database
 * opens no link). A link is used once, lasts `PASSWORD_LINK_TTL_MS`, and a newer link for the same
 * operator spends the older ones. Setting the password ends the operator's sessions.
 */
import { randomBytes } from 'node:crypto';
import type { ReviewDatabase } from '../db/open-database';
import { hashToken } from './session-store';

/** A day: time to pass the link on and use it, not a standing way in. */
export const PASSWORD_LINK_TTL_MS = 24 * 60 * 60 * 1000;

export type UsedLink = { ok: true; operatorId: string } | { ok: false };

export class PasswordLinks {
  constructor(private readonly store: ReviewDatabase) {}

  /** A new link's token (shown once, never stored); the operator's earlier links are spent. */
  async create(
    operatorId: string,
    createdBy: string | null,
    now: number,
  ): Promise<{ token: string; expiresAt: number }> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = now + PASSWORD_LINK_TTL_MS;
    await this.store.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('password_links')
        .set({ used_at: now })
        .where('operator_id', '=', operatorId)
        .where('used_at', 'is', null)
        .execute();
      await trx
        .insertInto('password_links')
        .values({
          token_hash: hashToken(token),
          operator_id: operatorId,
          created_by: createdBy,
          created_at: now,
          expires_at: expiresAt,
          used_at: null,
        })
        .execute();
    });
    return { token, expiresAt };
  }

  /** The operator's name if the link can still be used (unused, unexpired, its operator active). */
  async check(token: string, now: number): Promise<{ name: string } | undefined> {
    return this.store.db
      .selectFrom('password_links')
      .innerJoin('operators', 'operators.id', 'password_links.operator_id')
      .select('operators.name')
      .where('password_links.token_hash', '=', hashToken(token))
      .where('password_links.used_at', 'is', null)
      .where('password_links.expires_at', '>', now)
      .where('operators.deactivated_at', 'is', null)
      .executeTakeFirst();
  }

  /**
   * Spends the link and sets the password, in one transaction: of two uses at once, one sets it. The
   * operator's sessions end (whoever held the old password is signed out).
   */
  async use(token: string, passwordHash: string, now: number): Promise<UsedLink> {
    return this.store.db.transaction().execute(async (trx) => {
      const link = await trx
        .updateTable('password_links')
        .set({ used_at: now })
        .where('token_hash', '=', hashToken(token))
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .where('operator_id', 'in', (eb) =>
          eb.selectFrom('operators').select('id').where('deactivated_at', 'is', null),
        )
        .returning('operator_id')
        .executeTakeFirst();
      if (link === undefined) return { ok: false };
      await trx
        .updateTable('operators')
        .set({ password_hash: passwordHash, updated_at: now })
        .where('id', '=', link.operator_id)
        .execute();
      await trx.deleteFrom('sessions').where('operator_id', '=', link.operator_id).execute();
      return { ok: true, operatorId: link.operator_id };
    });
  }

  /** Every unused link of this operator is spent (deactivation). */
  async spendAll(operatorId: string, now: number): Promise<void> {
    await this.store.db
      .updateTable('password_links')
      .set({ used_at: now })
      .where('operator_id', '=', operatorId)
      .where('used_at', 'is', null)
      .execute();
  }
}
