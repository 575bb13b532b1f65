/**
 * The OpenID Connect identities linked to operators (migration 0017-oidc-identities): the provider's
 * issuer and its stable subject id of a person. An operator is found by it at every sign-in after the
 * first; the e-mail or user name is read only to find (or name) the operator the first time.
 */
import type { ReviewDatabase } from '../db/open-database';
import type { OperatorRow } from '../db/schema';
import { isUniqueViolation } from './operator-store';

export class OidcIdentityStore {
  constructor(private readonly store: ReviewDatabase) {}

  /** The operator linked to this identity, if any. */
  async operatorOf(issuer: string, subject: string): Promise<OperatorRow | undefined> {
    return this.store.db
      .selectFrom('oidc_identities')
      .innerJoin('operators', 'operators.id', 'oidc_identities.operator_id')
      .selectAll('operators')
      .where('oidc_identities.issuer', '=', issuer)
      .where('oidc_identities.subject', '=', subject)
      .executeTakeFirst();
  }

  /** The subject this operator is linked to at this issuer, if any. */
  async subjectOf(operatorId: string, issuer: string): Promise<string | undefined> {
    const row = await this.store.db
      .selectFrom('oidc_identities')
      .select('subject')
      .where('operator_id', '=', operatorId)
      .where('issuer', '=', issuer)
      .executeTakeFirst();
    return row?.subject;
  }

  /** Links them; false if this identity was linked meanwhile (two first sign-ins at once). */
  async link(issuer: string, subject: string, operatorId: string, now: number): Promise<boolean> {
    try {
      await this.store.db
        .insertInto('oidc_identities')
        .values({ issuer, subject, operator_id: operatorId, created_at: now, last_sign_in_at: now })
        .execute();
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async signedIn(issuer: string, subject: string, now: number): Promise<void> {
    await this.store.db
      .updateTable('oidc_identities')
      .set({ last_sign_in_at: now })
      .where('issuer', '=', issuer)
      .where('subject', '=', subject)
      .execute();
  }
}
