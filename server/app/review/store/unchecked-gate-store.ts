/**
 * Each model's unchecked-values gate (the `unchecked_gates` table, migration 0009-unchecked-gate;
 * packages/contract/src/review/unchecked-gate.ts): strict or asked. A model without a row is asked.
 * Each change is an audit event (`settings_changed`, no document), as the model's settings' are.
 */
import type { Kysely, Transaction } from 'kysely';
import type { ReviewDatabase } from '../db/open-database';
import type { ReviewDatabaseSchema } from '../db/schema';
import type { ApiVersion } from '../model/review-types';
import { recordEvent } from './audit-store';

type Db = Kysely<ReviewDatabaseSchema> | Transaction<ReviewDatabaseSchema>;

export interface StoredUncheckedGate {
  apiVersion: ApiVersion;
  modelKey: string;
  strict: boolean;
  updatedAt: number | null;
  updatedBy: { id: string; name: string | null } | null;
}

export class UncheckedGateStore {
  constructor(private readonly store: ReviewDatabase) {}

  async get(apiVersion: ApiVersion, modelKey: string, db: Db = this.store.db): Promise<StoredUncheckedGate> {
    const row = await db
      .selectFrom('unchecked_gates')
      .leftJoin('operators', 'operators.id', 'unchecked_gates.updated_by')
      .selectAll('unchecked_gates')
      .select('operators.name as updated_by_name')
      .where('unchecked_gates.api_version', '=', apiVersion)
      .where('unchecked_gates.model_key', '=', modelKey)
      .executeTakeFirst();
    if (row === undefined) return { apiVersion, modelKey, strict: false, updatedAt: null, updatedBy: null };
    return {
      apiVersion,
      modelKey,
      strict: row.strict === 1,
      updatedAt: row.updated_at,
      updatedBy: row.updated_by === null ? null : { id: row.updated_by, name: row.updated_by_name },
    };
  }

  /** Sets the gate (last write wins: one switch, nothing to merge), and records who did. */
  async put(
    apiVersion: ApiVersion,
    modelKey: string,
    strict: boolean,
    actorId: string,
    now: number,
  ): Promise<StoredUncheckedGate> {
    return this.store.db.transaction().execute(async (trx) => {
      const values = { strict: strict ? 1 : 0, updated_at: now, updated_by: actorId };
      await trx
        .insertInto('unchecked_gates')
        .values({ api_version: apiVersion, model_key: modelKey, ...values })
        .onConflict((oc) => oc.columns(['api_version', 'model_key']).doUpdateSet(values))
        .execute();
      await recordEvent(trx, {
        documentId: null,
        kind: 'settings_changed',
        actorId,
        at: now,
        data: { apiVersion, model: modelKey, uncheckedGate: strict ? 'strict' : 'ask' },
      });
      return this.get(apiVersion, modelKey, trx);
    });
  }
}
