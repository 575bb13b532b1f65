/**
 * The ids the upstream handed each integration through the gateway (`gateway_ids`): written before
 * the gateway's answer leaves, read to tell whose an id is (gateway/ownership.ts decides from them and
 * from the documents). Ids come here already normalised (lower-cased UUIDs).
 */
import type { ReviewDatabase } from '../db/open-database';
import type { GatewayIdKind } from '../db/schema';
import type { ApiVersion } from '../model/review-types';

export interface NewGatewayId {
  api_version: ApiVersion;
  kind: GatewayIdKind;
  upstream_id: string;
  integration_id: string;
}

export class GatewayIdsStore {
  constructor(private readonly database: Pick<ReviewDatabase, 'db'>) {}

  /** Records these ids; an id already recorded keeps its first owner. */
  async record(rows: readonly NewGatewayId[], at: number): Promise<void> {
    await this.database.db
      .insertInto('gateway_ids')
      .values(rows.map((row) => ({ ...row, created_at: at })))
      .onConflict((conflict) => conflict.columns(['api_version', 'kind', 'upstream_id']).doNothing())
      .execute();
  }

  /** The integration that was handed this id, if any was. */
  async findOwner(
    apiVersion: ApiVersion,
    kind: GatewayIdKind,
    upstreamId: string,
  ): Promise<{ integration_id: string } | undefined> {
    return this.database.db
      .selectFrom('gateway_ids')
      .select('integration_id')
      .where('api_version', '=', apiVersion)
      .where('kind', '=', kind)
      .where('upstream_id', '=', upstreamId)
      .executeTakeFirst();
  }

  /** Of these ids of one version and kind, those recorded, with the integration each was handed to. */
  async listOwners(
    apiVersion: ApiVersion,
    kind: GatewayIdKind,
    upstreamIds: readonly string[],
  ): Promise<{ upstream_id: string; integration_id: string }[]> {
    return this.database.db
      .selectFrom('gateway_ids')
      .select(['upstream_id', 'integration_id'])
      .where('api_version', '=', apiVersion)
      .where('kind', '=', kind)
      .where('upstream_id', 'in', upstreamIds)
      .execute();
  }
}
