/**
 * Which integration each upstream id belongs to, so that the gateway answers a pipeline only about its
 * own jobs, inferences, v1 documents and RAG documents (docs/gateway.md, "Each integration sees only
 * its own"). Every call is made upstream with the server's one key, so the upstream cannot tell
 * pipelines apart: the gateway must.
 *
 * Two sources, either enough:
 * - `gateway_ids`: the ids the upstream gave in its answers to an integration's calls (an enqueue's job,
 *   a poll's inference or v1 document, a RAG document made or listed), written by the gateway before
 *   the answer leaves, so that the pipeline's very next call finds them;
 * - the review store's documents (`integration_id`, `upstream_job_id`, `upstream_result_id`): what the
 *   intake kept and the job follower completed, including documents sent before `gateway_ids` existed.
 *
 * An id found in neither for this integration is not its own, whoever else it belongs to: an operator's
 * upload (no integration) belongs to no integration.
 */
import type { ReviewDatabase } from '../db/open-database';
import type { GatewayIdKind } from '../db/schema';
import type { ApiVersion } from '../model/review-types';
import type { Clock } from '@extraction-review/server-kit/clock';
import { GatewayIdsStore } from '../store/gateway-ids-store';
import { findIntegrationDocumentByUpstreamId, listIntegrationInferenceIds } from '../store/queue-store';

/** Upstream ids are UUIDs (hosted and reference); anything else is nobody's, and never looked up. */
const ID = /^[A-Za-z0-9_-]{1,128}$/;
/** Ids per `in (…)` list: far below SQLite's and PostgreSQL's limits on bound parameters. */
const CHUNK = 500;

export interface OwnedId {
  version: ApiVersion;
  kind: GatewayIdKind;
  id: string;
}

/** The id as kept and compared: UUIDs are the same whatever their case. */
export function normalId(id: string): string | undefined {
  return ID.test(id) ? id.toLowerCase() : undefined;
}

export class GatewayOwnership {
  private readonly ids: GatewayIdsStore;

  constructor(
    private readonly database: Pick<ReviewDatabase, 'db'>,
    private readonly clock: Clock,
  ) {
    this.ids = new GatewayIdsStore(database);
  }

  /** Records ids the upstream handed this integration; an id already recorded keeps its first owner. */
  async record(integrationId: string, ids: readonly OwnedId[]): Promise<void> {
    const rows = ids.flatMap(({ version, kind, id }) => {
      const upstreamId = normalId(id);
      return upstreamId === undefined
        ? []
        : [{ api_version: version, kind, upstream_id: upstreamId, integration_id: integrationId }];
    });
    if (rows.length === 0) return;
    await this.ids.record(rows, this.clock.now());
  }

  /** Whether this upstream id is this integration's. */
  async owns(integrationId: string, { version, kind, id }: OwnedId): Promise<boolean> {
    const upstreamId = normalId(id) ?? '';
    const column = documentColumn(kind);
    // Both looked up whatever the first says, so that another's id costs what an unknown one does.
    const [recorded, kept] = await Promise.all([
      this.ids.findOwner(version, kind, upstreamId),
      column === undefined
        ? Promise.resolve(undefined)
        : findIntegrationDocumentByUpstreamId(this.database.db, version, column, upstreamId, integrationId),
    ]);
    if (upstreamId === '') return false;
    if (recorded !== undefined) return recorded.integration_id === integrationId;
    return kept !== undefined;
  }

  /** Of these v2 inference ids, those that are this integration's (lower-cased). */
  async ownedInferences(integrationId: string, ids: readonly string[]): Promise<Set<string>> {
    const wanted = [...new Set(ids.flatMap((id) => normalId(id) ?? []))];
    const owned = new Set<string>();
    for (let start = 0; start < wanted.length; start += CHUNK) {
      const chunk = wanted.slice(start, start + CHUNK);
      const recorded = await this.ids.listOwners('v2', 'inference', chunk);
      const others = new Set<string>();
      for (const row of recorded) {
        if (row.integration_id === integrationId) owned.add(row.upstream_id);
        else others.add(row.upstream_id);
      }
      const kept = await listIntegrationInferenceIds(this.database.db, chunk, integrationId);
      for (const row of kept) {
        if (row.upstream_result_id !== null && !others.has(row.upstream_result_id)) {
          owned.add(row.upstream_result_id);
        }
      }
    }
    return owned;
  }
}

/** Where the review store's documents keep an id of this kind; RAG documents are not kept there. */
function documentColumn(kind: GatewayIdKind): 'upstream_job_id' | 'upstream_result_id' | undefined {
  if (kind === 'job') return 'upstream_job_id';
  if (kind === 'inference' || kind === 'document') return 'upstream_result_id';
  return undefined;
}
