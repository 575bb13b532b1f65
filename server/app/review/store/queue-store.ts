/**
 * The shared review queue in the review store: documents enter it, operators take, correct and decide
 * them. Every transition is one conditional statement (the row's state, holder and version in its
 * WHERE), so two operators, or two app-server copies, can never both win: the one whose statement
 * touched no row is told why (queue-state.ts explains the refusal from the row as it is then).
 *
 * Taking the next document is one `UPDATE … WHERE id = (SELECT … LIMIT 1) RETURNING`, with
 * `FOR UPDATE SKIP LOCKED` on PostgreSQL (concurrent takers skip each other's row instead of
 * queueing on it) and SQLite's single writer doing the same there. Times come from the caller's clock
 * (`now`), so tests can move it.
 */
import { randomUUID } from 'node:crypto';
import {
  sql,
  type ExpressionBuilder,
  type Kysely,
  type SelectQueryBuilder,
  type SqlBool,
  type Transaction,
} from 'kysely';
import type { Engine } from '../db/migrations';
import { QueueCounts, noCounts, type StateCounts } from './queue-counts';
import type { ReviewDatabase } from '../db/open-database';
import type { DocumentRow, NewDocumentRow, ReviewDatabaseSchema } from '../db/schema';
import { effectiveState, explainHolderRefusal, type Refusal } from '../model/queue-state';
import type { ApiVersion, Decision, DocumentState } from '../model/review-types';
import type { QueueSort, QueueSortKey } from '@extraction-review/contract/review/schemas';
import { adoptJobs } from '../background/job-table';
import { documentAmount, touchesAmount } from '../model/document-amount';
import { recordEvent } from './audit-store';
import {
  applyBulk,
  operatorName,
  recordAssignment,
  setAssignment,
  type BulkChange,
  type BulkOutcome,
} from './queue-bulk';
import { deleteDocument } from './document-deletion';
import { sweepRetention, type RetentionPass } from './retention-sweep';
import { componentLogger } from '@extraction-review/server-kit/logger';

const logger = componentLogger('review store');

type Db = Kysely<ReviewDatabaseSchema> | Transaction<ReviewDatabaseSchema>;
type Eb = ExpressionBuilder<ReviewDatabaseSchema, 'documents'>;

/** See QueueStore's `onConfirmed`. A throw rolls the confirmation back. */
export type ConfirmationHook = (
  trx: Transaction<ReviewDatabaseSchema>,
  document: DocumentRow,
  now: number,
) => Promise<void>;

/**
 * Where a document sent by an integration goes once its result is in (server/app/review/routing/): to an
 * operator, or confirmed on its own; with the reasons, for its timeline.
 */
export interface RoutingOutcome {
  review: boolean;
  reasons: string[];
  /** The business rules that failed, kept with the event. */
  failures?: unknown[];
}

export type WriteResult = { ok: true; document: DocumentRow } | ({ ok: false } & Refusal<DocumentRow>);

export interface NewDocument {
  /** Chosen by the caller when its file is stored under the same key first; else a new UUID. */
  id?: string;
  apiVersion: ApiVersion;
  modelKey: string;
  fileName: string;
  alias?: string | null;
  mimeType?: string | null;
  fileKey?: string | null;
  fileBytes?: number | null;
  fileSha256?: string | null;
  upstreamJobId?: string | null;
  uploadedBy?: string | null;
  /** The pipeline that sent it through the gateway. */
  integrationId?: string | null;
  /** Which upstream took it: upstreamIdentity(its URL) (intake/upstream-identity.ts). */
  upstreamId?: string | null;
  priority?: number;
}

/** Where a page of the list ends: the last row's value of the sorted column, and its id. */
export interface PageCursor {
  value: string | number;
  id: string;
}

/** What the queue's readers filter on: the list, its counts and the next document. */
export interface DocumentFilters {
  state?: DocumentState | undefined;
  model?: string | undefined;
  /** Documents this operator holds or decided. */
  operator?: string | undefined;
  /** Documents this operator uploaded from the app. */
  uploadedBy?: string | undefined;
  from?: number | undefined;
  to?: number | undefined;
  /** In file names and aliases, whatever the case. */
  search?: string | undefined;
  /** The document's total amount (`total_amount`) at least / at most this; a document without one never matches. */
  minAmount?: number | undefined;
  maxAmount?: number | undefined;
  /**
   * Whose assignment (migration 0013): `anyone` (assigned to some operator), `nobody` (the team's), or
   * an operator's id (the routes turn `me` into the caller's).
   */
  assigned?: string | undefined;
}

export interface QueueFilters extends DocumentFilters {
  /** The list's order (`-received`, newest first, by default); `after` must come from a page of it. */
  sort?: QueueSort | undefined;
  after?: PageCursor | undefined;
  limit: number;
}

/** The earliest document with a byte-identical kept file (see `earlierSameFile`). */
export interface DuplicateColumns {
  duplicate_of_id: string | null;
  duplicate_of_name: string | null;
}

/** Who a row names, by name, and the earlier document its file duplicates. */
export type RowNames = DuplicateColumns & {
  holder_name: string | null;
  decider_name: string | null;
  uploader_name: string | null;
  assignee_name: string | null;
};

export type ListedDocument = DocumentRow & RowNames;

/**
 * The columns a queue row shows: all but the result and the error, which only the review reads. A
 * v2 result with its polygons is tens of kilobytes: a page of 50 would carry megabytes from the
 * database for nothing.
 */
const QUEUE_ROW_COLUMNS = [
  'id',
  'api_version',
  'model_key',
  'file_name',
  'alias',
  'mime_type',
  'file_key',
  'file_bytes',
  'file_sha256',
  'upstream_job_id',
  'upstream_result_id',
  'uploaded_by',
  'state',
  'holder_id',
  'lease_expires_at',
  'previous_holder_id',
  'decided_by',
  'decided_at',
  'reason',
  'priority',
  'version',
  'fields_total',
  'fields_to_review',
  'created_at',
  'updated_at',
  'ready_at',
  'integration_id',
  'upstream_id',
  'follow_holder',
  'follow_until',
  'next_check_at',
  'check_interval_ms',
  'postponed_until',
  'total_amount',
  'assigned_to',
  'assigned_at',
  'file_removed_at',
] as const satisfies readonly Exclude<keyof DocumentRow, 'result_json' | 'error_json'>[];

/** A row of the queue's list (QUEUE_ROW_COLUMNS). */
export type QueueRow = Pick<DocumentRow, (typeof QUEUE_ROW_COLUMNS)[number]> & RowNames;

export interface CorrectionInput {
  /** The field's path in the review (`total_amount`, `line_items/2/quantity`). */
  path: string;
  /** The corrected value (any JSON). */
  value: unknown;
}

/**
 * A document waiting for an operator: `to_review`, `in_review` with its lease run out, or `postponed`
 * until a time that has come.
 */
const waiting = (now: number) => (eb: Eb) =>
  eb.or([
    eb('documents.state', '=', 'to_review'),
    eb.and([eb('documents.state', '=', 'in_review'), eb('documents.lease_expires_at', '<=', now)]),
    eb.and([eb('documents.state', '=', 'postponed'), eb('documents.postponed_until', '<=', now)]),
  ]);

/** Held by this operator, its lease still running. */
const heldBy = (operatorId: string, now: number) => (eb: Eb) =>
  eb.and([eb('state', '=', 'in_review'), eb('holder_id', '=', operatorId), eb('lease_expires_at', '>', now)]);

/**
 * In file names and aliases, whatever the case, anywhere in the name (migration 0019-name-search):
 * on PostgreSQL `lower(…) like '%…%'`, which pg_trgm's indexes on the same expressions serve; on
 * SQLite the trigram table's match of the phrase, whose index needs three characters (a shorter
 * needle walks the names with `like`, as both engines did before the index).
 */
function nameMatches(eb: Eb, search: string, engine: Engine, by: SearchPath) {
  if (engine === 'sqlite' && by === 'index' && [...search].length >= 3) {
    return sql<SqlBool>`documents.search_id in (select rowid from documents_search where documents_search match ${ftsPhrase(search)})`;
  }
  const pattern = `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return eb.or([
    eb(eb.fn('lower', ['documents.file_name']), 'like', sql<string>`${pattern} escape '\\'`),
    eb(eb.fn('lower', ['documents.alias']), 'like', sql<string>`${pattern} escape '\\'`),
  ]);
}

/** The needle as an FTS5 phrase: the trigram tokenizer matches it anywhere in a column. */
const ftsPhrase = (search: string) => `"${search.replaceAll('"', '""')}"`;

/**
 * How a page finds a search's documents: through the index, or walking the list's order and
 * testing each name. SQLite's trigram match hands back every matching document before the page
 * is ordered (a word that 100,000 of 1,000,000 names have: 750 ms); when a name matches that
 * often, walking the order finds a page's 50 within a few thousand rows. PostgreSQL's planner
 * makes that choice itself.
 */
type SearchPath = 'index' | 'walk';

/** Past this many matches, a SQLite page walks its order (`SearchPath`). */
const WALK_FROM_MATCHES = 2_000;

/**
 * The documents these filters list, as readers see them (an expired lease is `to_review`): one
 * predicate for the list, its counts and "next", so the three always agree.
 */
const matching =
  (filters: DocumentFilters, now: number, engine: Engine, by: SearchPath = 'index') =>
  (eb: Eb) => {
    const all = [];
    const { state } = filters;
    if (state === 'to_review') all.push(waiting(now)(eb));
    else if (state === 'in_review')
      all.push(eb.and([eb('documents.state', '=', 'in_review'), eb('documents.lease_expires_at', '>', now)]));
    else if (state === 'postponed') {
      all.push(
        eb.and([
          eb('documents.state', '=', 'postponed'),
          eb.or([eb('documents.postponed_until', 'is', null), eb('documents.postponed_until', '>', now)]),
        ]),
      );
    } else if (state !== undefined) all.push(eb('documents.state', '=', state));
    if (filters.model !== undefined) all.push(eb('documents.model_key', '=', filters.model));
    if (filters.operator !== undefined) {
      all.push(
        eb.or([
          eb('documents.holder_id', '=', filters.operator),
          eb('documents.decided_by', '=', filters.operator),
        ]),
      );
    }
    if (filters.uploadedBy !== undefined) all.push(eb('documents.uploaded_by', '=', filters.uploadedBy));
    if (filters.from !== undefined) all.push(eb('documents.created_at', '>=', filters.from));
    if (filters.to !== undefined) all.push(eb('documents.created_at', '<', filters.to));
    if (filters.minAmount !== undefined) all.push(eb('documents.total_amount', '>=', filters.minAmount));
    if (filters.maxAmount !== undefined) all.push(eb('documents.total_amount', '<=', filters.maxAmount));
    if (filters.assigned === 'anyone') all.push(eb('documents.assigned_to', 'is not', null));
    else if (filters.assigned === 'nobody') all.push(eb('documents.assigned_to', 'is', null));
    else if (filters.assigned !== undefined) all.push(eb('documents.assigned_to', '=', filters.assigned));
    if (filters.search !== undefined) all.push(nameMatches(eb, filters.search, engine, by));
    return eb.and(all);
  };

/**
 * Whose waiting documents a look-up of "next" takes from: first those assigned to the taker, then the
 * team's (assigned to nobody). A document assigned to another operator is never in either.
 */
export type NextPool = { assignedTo: string } | 'team';

/** The two pools of "next" for this taker, in the order they are tried. */
const poolsOf = (takerId: string): NextPool[] => [{ assignedTo: takerId }, 'team'];

/**
 * The next waiting document of these filters in this pool (highest priority, then oldest result
 * first): its id. Two look-ups (the taker's own, then the team's) rather than one ordered by "mine
 * first": each is a plain range of an index (documents_assigned_next for the first), and the second
 * runs only when the taker has nothing assigned waiting.
 */
const nextOf = (
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- a query that selects nothing yet
  from: SelectQueryBuilder<ReviewDatabaseSchema, 'documents', {}>,
  filters: DocumentFilters,
  now: number,
  pool: NextPool,
  engine: Engine,
) =>
  from
    .select('documents.id')
    .where(waiting(now))
    .where(matching(filters, now, engine))
    .where((eb) =>
      pool === 'team'
        ? eb('documents.assigned_to', 'is', null)
        : eb('documents.assigned_to', '=', pool.assignedTo),
    )
    .orderBy('documents.priority', 'desc')
    .orderBy('documents.ready_at')
    .orderBy('documents.id')
    .limit(1);

/** Who held it before, when the statement takes it over from an expired lease (else null). */
const takenOverFrom = sql<string | null>`case when state = 'in_review' then holder_id else null end`;

export class QueueStore {
  /** The kept counts per state (store/queue-counts.ts). */
  readonly counts: QueueCounts;

  constructor(
    private readonly store: ReviewDatabase,
    private readonly leaseMs: number,
    /** Told of each committed change (queue events for the browsers, server/app/review/events/). */
    private readonly onChange?: (document: DocumentRow) => void,
    /**
     * Runs inside the transaction that confirms a document (by an operator or automatically): what
     * must follow a confirmation (the way back's deliveries) is then written with it or not at all.
     */
    private readonly onConfirmed?: ConfirmationHook,
  ) {
    this.counts = new QueueCounts(store);
  }

  /** The columns of a document taken by `operatorId` under a fresh lease (from whoever held it). */
  private takenBy(operatorId: string, now: number) {
    return {
      previous_holder_id: takenOverFrom,
      state: 'in_review' as const,
      postponed_until: null,
      holder_id: operatorId,
      lease_expires_at: now + this.leaseMs,
      version: sql<number>`version + 1`,
      updated_at: now,
    };
  }

  /**
   * The document with its total amount (`total_amount`, model/document-amount.ts) read again from its
   * result and corrections, written when it changed: when the result is stored and when a correction
   * touches the amount's field.
   */
  private async withAmount(
    trx: Transaction<ReviewDatabaseSchema>,
    document: DocumentRow,
    corrections?: Map<string, string>,
  ): Promise<DocumentRow> {
    const latest = corrections ?? (await this.currentCorrections(document.id, trx));
    const total = documentAmount({
      apiVersion: document.api_version,
      model: document.model_key,
      upstreamJobId: document.upstream_job_id,
      resultJson: document.result_json,
      corrections: Object.fromEntries([...latest].map(([path, json]) => [path, parseJson(json)])),
    });
    if (total === document.total_amount) return document;
    await trx.updateTable('documents').set({ total_amount: total }).where('id', '=', document.id).execute();
    return { ...document, total_amount: total };
  }

  /** Tells of a change once its transaction has committed, and passes the result on. */
  private tell<T extends DocumentRow | WriteResult | undefined>(result: T): T {
    const document = changedDocument(result);
    if (document !== undefined) {
      try {
        this.onChange?.(document);
      } catch (error) {
        logger.error({ err: error }, 'a change listener failed');
      }
    }
    return result;
  }

  private get db(): Kysely<ReviewDatabaseSchema> {
    return this.store.db;
  }

  /** A document uploaded and sent to the upstream: `processing` until its result arrives. */
  async addDocument(input: NewDocument, now: number): Promise<DocumentRow> {
    const id = input.id ?? randomUUID();
    return this.tell(
      await this.db.transaction().execute(async (trx) => {
        const document = await trx
          .insertInto('documents')
          .values(newDocumentRow(id, input, now))
          .returningAll()
          .executeTakeFirstOrThrow();
        await recordEvent(trx, {
          documentId: id,
          kind: 'received',
          actorId: input.uploadedBy ?? null,
          at: now,
        });
        return document;
      }),
    );
  }

  /**
   * The upstream's result arrived: the document enters the queue (`to_review`). Only from
   * `processing`: a second delivery of the same result changes nothing.
   *
   * With a routing outcome (a document sent by an integration), the timeline says why it goes to
   * review, or, when none is needed, it is confirmed at once by nobody (`auto_confirmed`, with what it
   * passed) and the confirmation hook runs in this transaction, as for an operator's confirmation.
   */
  async setResult(
    id: string,
    result: { json: string; resultId: string | null; fieldsTotal: number; fieldsToReview: number },
    now: number,
    routing?: RoutingOutcome,
  ): Promise<DocumentRow | undefined> {
    const confirm = routing !== undefined && !routing.review;
    return this.tell(
      await this.db.transaction().execute(async (trx) => {
        const document = await trx
          .updateTable('documents')
          .set({
            ...(confirm ? { decided_by: null, decided_at: now } : {}),
            state: confirm ? 'confirmed' : 'to_review',
            result_json: result.json,
            upstream_result_id: result.resultId,
            fields_total: result.fieldsTotal,
            fields_to_review: result.fieldsToReview,
            ready_at: now,
            updated_at: now,
            version: sql`version + 1`,
          })
          .where('id', '=', id)
          .where('state', '=', 'processing')
          .returningAll()
          .executeTakeFirst()
          .then((row) => row && this.withAmount(trx, row));
        if (document) {
          await recordEvent(trx, {
            documentId: id,
            kind: 'extracted',
            actorId: null,
            at: now,
            data: { fieldsTotal: result.fieldsTotal, fieldsToReview: result.fieldsToReview },
          });
          if (routing !== undefined) {
            await recordEvent(trx, {
              documentId: id,
              kind: confirm ? 'auto_confirmed' : 'routed_to_review',
              actorId: null,
              at: now,
              data: {
                reasons: routing.reasons,
                ...(routing.failures?.length ? { failing: routing.failures } : {}),
              },
            });
          }
          if (confirm) await this.onConfirmed?.(trx, document, now);
        }
        return document;
      }),
    );
  }

  /** The upstream's job failed: the document leaves `processing` for `failed`, with the problem. */
  async setFailed(id: string, errorJson: string, now: number): Promise<DocumentRow | undefined> {
    return this.tell(
      await this.db.transaction().execute(async (trx) => {
        const document = await trx
          .updateTable('documents')
          .set({ state: 'failed', error_json: errorJson, updated_at: now, version: sql`version + 1` })
          .where('id', '=', id)
          .where('state', '=', 'processing')
          .returningAll()
          .executeTakeFirst();
        if (document) await recordEvent(trx, { documentId: id, kind: 'failed', actorId: null, at: now });
        return document;
      }),
    );
  }

  /**
   * Takes the next document nobody holds (highest priority, then oldest result first) for this
   * operator, under a fresh lease: of those the filters list, when given (the operator's queue).
   * Undefined when none is waiting.
   */
  async takeNext(
    operatorId: string,
    now: number,
    filters: DocumentFilters = {},
  ): Promise<DocumentRow | undefined> {
    const postgres = this.store.engine === 'postgres';
    return this.tell(
      await this.db.transaction().execute(async (trx) => {
        for (const pool of poolsOf(operatorId)) {
          const document = await trx
            .updateTable('documents')
            .set(this.takenBy(operatorId, now))
            .where('id', '=', (eb) => {
              const next = nextOf(eb.selectFrom('documents'), filters, now, pool, this.store.engine);
              return postgres ? next.forUpdate().skipLocked() : next;
            })
            // Checked again on the row itself: on PostgreSQL a row changed since the subquery read it is
            // re-evaluated here (assigned to someone else meanwhile, say).
            .where(waiting(now))
            .where((eb) => eb.or([eb('assigned_to', 'is', null), eb('assigned_to', '=', operatorId)]))
            .returningAll()
            .executeTakeFirst();
          if (document) {
            await this.recordTaken(trx, document, operatorId, now, 'next');
            return document;
          }
        }
        return undefined;
      }),
    );
  }

  /**
   * The id of the document `takeNext` would take now with these filters, without taking it (no lease,
   * nothing written): the review prefetches it while the current one is reviewed. Another operator
   * may take it first; the take decides.
   */
  async peekNext(takerId: string, now: number, filters: DocumentFilters = {}): Promise<string | undefined> {
    for (const pool of poolsOf(takerId)) {
      const row = await nextOf(
        this.db.selectFrom('documents'),
        filters,
        now,
        pool,
        this.store.engine,
      ).executeTakeFirst();
      if (row) return row.id;
    }
    return undefined;
  }

  /**
   * Takes this document (opened from the queue view): free (`to_review`, `postponed`, an expired
   * lease) or already held by the caller (its lease renewed).
   */
  async take(id: string, operatorId: string, now: number): Promise<WriteResult> {
    return this.tell(
      await this.db.transaction().execute(async (trx) => {
        const document = await trx
          .updateTable('documents')
          .set({
            // Whom this statement takes it from (an expired lease), else nobody: an older take-over's
            // holder kept here would be told again as a lease that ran out.
            previous_holder_id: sql`case when state = 'in_review' and holder_id <> ${operatorId} then holder_id else null end`,
            state: 'in_review',
            postponed_until: null,
            holder_id: operatorId,
            lease_expires_at: now + this.leaseMs,
            version: sql`version + 1`,
            updated_at: now,
          })
          .where('id', '=', id)
          .where((eb) =>
            eb.or([waiting(now)(eb), eb('state', '=', 'postponed'), heldBy(operatorId, now)(eb)]),
          )
          .returningAll()
          .executeTakeFirst();
        if (document) {
          await this.recordTaken(trx, document, operatorId, now, 'opened');
          return { ok: true, document };
        }
        const current = await this.find(id, trx);
        if (current === undefined) return { ok: false, reason: 'not_found' };
        return {
          ok: false,
          reason: effectiveState(current, now) === 'in_review' ? 'not_holder' : 'wrong_state',
          current,
        };
      }),
    );
  }

  private async recordTaken(
    trx: Transaction<ReviewDatabaseSchema>,
    document: DocumentRow,
    operatorId: string,
    now: number,
    how: 'next' | 'opened',
  ): Promise<void> {
    if (document.previous_holder_id !== null && document.previous_holder_id !== operatorId) {
      await recordEvent(trx, {
        documentId: document.id,
        kind: 'lease_expired',
        actorId: document.previous_holder_id,
        at: now,
      });
    }
    await recordEvent(trx, {
      documentId: document.id,
      kind: 'taken',
      actorId: operatorId,
      at: now,
      data: { how },
    });
  }

  /** The open review says it is still there: the lease runs again from now. */
  async renewLease(id: string, operatorId: string, now: number): Promise<WriteResult> {
    const document = await this.db
      .updateTable('documents')
      .set({ lease_expires_at: now + this.leaseMs })
      // A lease that ran out but that nobody took over is still the caller's to renew.
      .where('id', '=', id)
      .where('state', '=', 'in_review')
      .where('holder_id', '=', operatorId)
      .returningAll()
      .executeTakeFirst();
    if (document) return this.tell({ ok: true, document });
    const current = await this.find(id);
    return current === undefined
      ? { ok: false, reason: 'not_found' }
      : {
          ok: false,
          reason: effectiveState(current, now) === 'in_review' ? 'not_holder' : 'wrong_state',
          current,
        };
  }

  /** The operator puts it back without deciding: `to_review` for the next taker. */
  async release(id: string, operatorId: string, now: number): Promise<WriteResult> {
    return this.tell(
      await this.db.transaction().execute(async (trx) => {
        const document = await trx
          .updateTable('documents')
          .set({
            state: 'to_review',
            holder_id: null,
            lease_expires_at: null,
            version: sql`version + 1`,
            updated_at: now,
          })
          .where('id', '=', id)
          .where('state', '=', 'in_review')
          .where('holder_id', '=', operatorId)
          .returningAll()
          .executeTakeFirst();
        if (document) {
          await recordEvent(trx, { documentId: id, kind: 'released', actorId: operatorId, at: now });
          return { ok: true, document };
        }
        const current = await this.find(id, trx);
        if (current === undefined) return { ok: false, reason: 'not_found' };
        return { ok: false, reason: current.state === 'in_review' ? 'not_holder' : 'wrong_state', current };
      }),
    );
  }

  /**
   * Every document this operator holds goes back to `to_review` (signing out, deactivation): the
   * team need not wait for the lease to run out. One release each, so each has its event and its
   * queue message. The ids released.
   */
  async releaseAllHeldBy(operatorId: string, now: number): Promise<string[]> {
    const held = await this.db.selectFrom('documents').select('id').where(heldBy(operatorId, now)).execute();
    const released: string[] = [];
    for (const { id } of held) {
      const result = await this.release(id, operatorId, now);
      if (result.ok) released.push(id);
    }
    return released;
  }

  /**
   * Corrections made by the holder on the version it read: kept with their author and time, one
   * audit event each, the document's version moved on and its lease renewed. A write based on an
   * older version, or by anybody but the holder, touches nothing.
   */
  async saveCorrections(
    id: string,
    operatorId: string,
    baseVersion: number,
    corrections: readonly CorrectionInput[],
    now: number,
  ): Promise<WriteResult> {
    return this.tell(
      await this.db.transaction().execute(async (trx) => {
        const document = await trx
          .updateTable('documents')
          .set({ version: sql`version + 1`, updated_at: now, lease_expires_at: now + this.leaseMs })
          .where('id', '=', id)
          .where('version', '=', baseVersion)
          .where(heldBy(operatorId, now))
          .returningAll()
          .executeTakeFirst();
        if (!document) {
          const refusal = explainHolderRefusal(await this.find(id, trx), operatorId, baseVersion, now);
          return { ok: false, ...refusal };
        }
        const previous = await this.currentCorrections(id, trx);
        for (const correction of corrections) {
          const valueJson = JSON.stringify(correction.value ?? null);
          const before = previous.get(correction.path) ?? null;
          await trx
            .insertInto('corrections')
            .values({
              document_id: id,
              field_path: correction.path,
              value_json: valueJson,
              previous_json: before,
              author_id: operatorId,
              created_at: now,
              document_version: document.version,
            })
            .execute();
          await recordEvent(trx, {
            documentId: id,
            kind: 'corrected',
            actorId: operatorId,
            at: now,
            data: {
              field: correction.path,
              before: before === null ? null : (JSON.parse(before) as unknown),
              after: correction.value ?? null,
            },
          });
          previous.set(correction.path, valueJson);
        }
        if (touchesAmount(corrections.map((c) => c.path)))
          return { ok: true, document: await this.withAmount(trx, document, previous) };
        return { ok: true, document };
      }),
    );
  }

  /** Confirms, rejects (a reason required by the caller) or postpones the document the caller holds. */
  async decide(
    id: string,
    operatorId: string,
    baseVersion: number,
    decision: Decision,
    reason: string | null,
    now: number,
    /** More for the decision's event (a confirmation's override of failing business rules). */
    eventData?: Record<string, unknown>,
    /** A postponement's return to the queue (ms), if any. */
    postponedUntil: number | null = null,
  ): Promise<WriteResult> {
    // A confirmation or a rejection ends the document's assignment (cleared: the queue's "assigned"
    // means work to do); the decision's event keeps whose it was. A postponed one stays assigned, so
    // that it comes back to the same operator.
    const ends = decision !== 'postponed';
    return this.tell(
      await this.db.transaction().execute(async (trx) => {
        const decided = await trx
          .updateTable('documents')
          .set({
            state: decision,
            postponed_until: decision === 'postponed' ? postponedUntil : null,
            holder_id: null,
            lease_expires_at: null,
            decided_by: operatorId,
            decided_at: now,
            reason,
            version: sql`version + 1`,
            updated_at: now,
          })
          .where('id', '=', id)
          .where('version', '=', baseVersion)
          .where(heldBy(operatorId, now))
          .returningAll()
          .executeTakeFirst();
        if (!decided) {
          const refusal = explainHolderRefusal(await this.find(id, trx), operatorId, baseVersion, now);
          return { ok: false, ...refusal };
        }
        // Written after the decision (read from its RETURNING, never before: queue-bulk.ts `setAssignment`).
        const assignedTo = ends ? decided.assigned_to : null;
        const document = assignedTo === null ? decided : await setAssignment(trx, id, null, now);
        await recordEvent(trx, {
          documentId: id,
          kind: decision,
          actorId: operatorId,
          at: now,
          data:
            reason === null && eventData === undefined && assignedTo === null
              ? undefined
              : {
                  ...(reason === null ? {} : { reason }),
                  ...eventData,
                  ...(assignedTo === null
                    ? {}
                    : { assignedTo, assignedToName: await operatorName(trx, assignedTo) }),
                },
        });
        if (decision === 'confirmed') await this.onConfirmed?.(trx, document, now);
        return { ok: true, document };
      }),
    );
  }

  /**
   * An admin hands one waiting or held document to an operator ("Hand to"): it is assigned to them
   * (it stays theirs, see queue-bulk.ts) and taken for them under a fresh lease, from whoever held it.
   * The lease is kept from before assignments because this is the one-document hand-over of a
   * document someone may be reviewing right now: the previous holder's review must stop (their next
   * save is refused), and the new one opens it without a take; the work-time analytics count the hold
   * from its `reassigned` event. When the lease runs out unused, the assignment still keeps the
   * document for them: their "next" gives it first, and nobody else's gives it.
   */
  async reassign(id: string, adminId: string, toOperatorId: string, now: number): Promise<WriteResult> {
    return this.tell(
      await this.db.transaction().execute(async (trx) => {
        const before = await trx
          .updateTable('documents')
          .set(this.takenBy(toOperatorId, now))
          .where('id', '=', id)
          .where('state', 'in', ['to_review', 'in_review', 'postponed'])
          .returningAll()
          .executeTakeFirst();
        if (!before) return wrongState(await this.find(id, trx));
        // Its previous assignment read from the take's RETURNING (queue-bulk.ts `setAssignment`).
        const document =
          before.assigned_to === toOperatorId ? before : await setAssignment(trx, id, toOperatorId, now);
        await recordEvent(trx, {
          documentId: id,
          kind: 'reassigned',
          actorId: adminId,
          at: now,
          data: { from: document.previous_holder_id, to: toOperatorId },
        });
        if (before.assigned_to !== toOperatorId) {
          await recordAssignment(trx, {
            documentId: id,
            adminId,
            from: before.assigned_to,
            to: toOperatorId,
            at: now,
          });
        }
        return { ok: true, document };
      }),
    );
  }

  /**
   * Every document assigned to this operator goes back to the team (deactivated, or about to be
   * removed): one write each, with its `unassigned` event and its queue message. The ids changed.
   */
  async unassignAllFrom(operatorId: string, adminId: string | null, now: number): Promise<string[]> {
    const assigned = await this.db
      .selectFrom('documents')
      .select('id')
      .where('assigned_to', '=', operatorId)
      .execute();
    const changed: string[] = [];
    for (const { id } of assigned) {
      const document = await this.db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable('documents')
          .set({ assigned_to: null, assigned_at: null, version: sql`version + 1`, updated_at: now })
          .where('id', '=', id)
          .where('assigned_to', '=', operatorId)
          .returningAll()
          .executeTakeFirst();
        if (row) {
          await recordAssignment(trx, {
            documentId: id,
            adminId,
            from: operatorId,
            to: null,
            at: now,
            extra: { why: 'operator_left' },
          });
        }
        return row;
      });
      if (this.tell(document)) changed.push(id);
    }
    return changed;
  }

  /**
   * An admin sets how soon a document comes up: "next" takes the highest priority first, then the
   * oldest. Any state: a document still processing enters the queue with it.
   */
  async setPriority(id: string, adminId: string, priority: number, now: number): Promise<WriteResult> {
    return this.tell(
      await this.db.transaction().execute(async (trx) => {
        const before = await this.find(id, trx);
        if (before === undefined) return { ok: false, reason: 'not_found' } as const;
        const document = await trx
          .updateTable('documents')
          .set({ priority, version: sql`version + 1`, updated_at: now })
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirstOrThrow();
        await recordEvent(trx, {
          documentId: id,
          kind: 'prioritised',
          actorId: adminId,
          at: now,
          data: { from: before.priority, to: priority },
        });
        return { ok: true, document } as const;
      }),
    );
  }

  /** An admin puts a decided (or held) document back in the queue. */
  async reopen(id: string, adminId: string, now: number): Promise<WriteResult> {
    return this.tell(
      await this.db.transaction().execute(async (trx) => {
        const document = await trx
          .updateTable('documents')
          .set({
            state: 'to_review',
            postponed_until: null,
            holder_id: null,
            lease_expires_at: null,
            decided_by: null,
            decided_at: null,
            reason: null,
            version: sql`version + 1`,
            updated_at: now,
          })
          .where('id', '=', id)
          .where('state', 'in', ['confirmed', 'rejected', 'postponed', 'in_review'])
          .returningAll()
          .executeTakeFirst();
        if (!document) return wrongState(await this.find(id, trx));
        await recordEvent(trx, { documentId: id, kind: 'reopened', actorId: adminId, at: now });
        return { ok: true, document };
      }),
    );
  }

  /**
   * An admin's change to many documents at once (queue-bulk.ts): one transaction each, a document
   * another operator is reviewing left alone, each change told as the single writes' are.
   */
  async applyBulk(
    ids: readonly string[],
    change: BulkChange,
    adminId: string,
    now: number,
  ): Promise<BulkOutcome> {
    return applyBulk(this.db, ids, change, adminId, now, (row) => this.tell(row));
  }

  /**
   * An admin deletes one document (document-deletion.ts, the one deletion path): refused while another
   * operator reviews it under a live lease unless `force`. Its kept file's key is for the caller to
   * remove once this has committed.
   */
  async deleteDocument(
    id: string,
    adminId: string,
    now: number,
    options: { force?: boolean } = {},
  ): Promise<
    { ok: true; document: DocumentRow; fileKey: string | null } | Extract<WriteResult, { ok: false }>
  > {
    const result = await this.db
      .transaction()
      .execute((trx) =>
        deleteDocument(trx, id, { by: adminId, cause: 'by_hand', now, force: options.force }),
      );
    if ('refused' in result) {
      if (result.current === undefined) return { ok: false, reason: 'not_found' };
      return { ok: false, reason: 'not_holder', current: result.current };
    }
    // Told as a change of version, so that open lists and reviews refetch (and find it gone).
    const document = { ...result.deleted, version: result.deleted.version + 1, updated_at: now };
    this.tell(document);
    return { ok: true, document, fileKey: result.fileKey };
  }

  /** One pass of the models' retention rules (retention-sweep.ts), each change told as the writes' are. */
  async sweepRetention(
    now: number,
    options: { batch?: number; dryRun?: boolean } = {},
  ): Promise<RetentionPass> {
    return sweepRetention(this.db, now, { ...options, tell: (row) => this.tell(row) });
  }

  async find(id: string, db: Db = this.db): Promise<DocumentRow | undefined> {
    return db.selectFrom('documents').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async findByUpstreamJob(apiVersion: ApiVersion, jobId: string): Promise<DocumentRow | undefined> {
    return this.db
      .selectFrom('documents')
      .selectAll()
      .where('api_version', '=', apiVersion)
      .where('upstream_job_id', '=', jobId)
      .executeTakeFirst();
  }

  /**
   * The latest document with a kept file that an upstream job brought: v2 by its job id; v1 by its
   * queued job's id or, for a synchronous prediction (whose page is addressed by it), its document's.
   */
  async findKeptByUpstreamJob(apiVersion: ApiVersion, jobId: string): Promise<DocumentRow | undefined> {
    return this.db
      .selectFrom('documents')
      .selectAll()
      .where('api_version', '=', apiVersion)
      .where((eb) =>
        apiVersion === 'v1'
          ? eb.or([eb('upstream_job_id', '=', jobId), eb('upstream_result_id', '=', jobId)])
          : eb('upstream_job_id', '=', jobId),
      )
      .where('file_key', 'is not', null)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();
  }

  /**
   * The latest document an upstream job brought, kept file or not: v2 by its job id; v1 by its queued
   * job's id or a synchronous prediction's document id.
   */
  async findByUpstreamJobOrResult(apiVersion: ApiVersion, jobId: string): Promise<DocumentRow | undefined> {
    return this.db
      .selectFrom('documents')
      .selectAll()
      .where('api_version', '=', apiVersion)
      .where((eb) =>
        apiVersion === 'v1'
          ? eb.or([eb('upstream_job_id', '=', jobId), eb('upstream_result_id', '=', jobId)])
          : eb('upstream_job_id', '=', jobId),
      )
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();
  }

  /** The latest document this integration sent whose upstream result (inference, v1 document) is this id. */
  async findLatestOfIntegrationByUpstreamResult(
    apiVersion: ApiVersion,
    resultId: string,
    integrationId: string,
  ): Promise<DocumentRow | undefined> {
    return this.db
      .selectFrom('documents')
      .selectAll()
      .where('api_version', '=', apiVersion)
      .where('upstream_result_id', '=', resultId)
      .where('integration_id', '=', integrationId)
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
  }

  /** The id of a document whose upstream result is this id (sent by this integration, when one is named). */
  async findIdByUpstreamResult(
    apiVersion: ApiVersion,
    resultId: string,
    integrationId?: string,
  ): Promise<{ id: string } | undefined> {
    let query = this.db
      .selectFrom('documents')
      .select('id')
      .where('api_version', '=', apiVersion)
      .where('upstream_result_id', '=', resultId);
    if (integrationId !== undefined) query = query.where('integration_id', '=', integrationId);
    return query.executeTakeFirst();
  }

  /** The latest corrected value (JSON text) of each corrected field. */
  async currentCorrections(id: string, db: Db = this.db): Promise<Map<string, string>> {
    return currentCorrectionsOf(db, id);
  }

  /** The earliest document whose kept file is byte-identical to this one's, when this one came later. */
  async duplicateOf(row: Pick<DocumentRow, 'id' | 'file_sha256' | 'created_at'>): Promise<DuplicateColumns> {
    if (row.file_sha256 === null) return { duplicate_of_id: null, duplicate_of_name: null };
    const earliest = await this.db
      .selectFrom('documents')
      .select(['id', 'file_name'])
      .where('file_sha256', '=', row.file_sha256)
      .where((eb) =>
        eb.or([
          eb('created_at', '<', row.created_at),
          eb.and([eb('created_at', '=', row.created_at), eb('id', '<', row.id)]),
        ]),
      )
      .orderBy('created_at')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    return { duplicate_of_id: earliest?.id ?? null, duplicate_of_name: earliest?.file_name ?? null };
  }

  /** Whether a page of this search walks its order (SQLite, a needle most names have) or uses the index. */
  private async searchPath(search: string | undefined): Promise<SearchPath> {
    if (search === undefined || this.store.engine !== 'sqlite' || [...search].length < 3) return 'index';
    const counted = await sql<{ n: number }>`
      select count(*) as n from (
        select 1 from documents_search where documents_search match ${ftsPhrase(search)} limit ${WALK_FROM_MATCHES}
      )`.execute(this.db);
    return (counted.rows[0]?.n ?? 0) >= WALK_FROM_MATCHES ? 'walk' : 'index';
  }

  /**
   * One page of the queue view in the order asked (newest first by default), with the names of who
   * holds and who decided each document. Keyset paging on (the sorted column, id), both in the same
   * direction, so a page deep in 100,000 documents costs what the first does, and a cursor names the
   * last row's value of the sorted column: each engine compares it as it orders the column.
   */
  async listDocuments(
    filters: QueueFilters,
    now: number,
  ): Promise<{ rows: QueueRow[]; next: PageCursor | null }> {
    const { column, direction } = sortOrder(filters.sort);
    let query = this.db
      .selectFrom('documents')
      .leftJoin('operators as holder', 'holder.id', 'documents.holder_id')
      .leftJoin('operators as decider', 'decider.id', 'documents.decided_by')
      .leftJoin('operators as uploader', 'uploader.id', 'documents.uploaded_by')
      .leftJoin('operators as assignee', 'assignee.id', 'documents.assigned_to')
      .select(QUEUE_ROW_COLUMNS.map((column) => `documents.${column}` as const))
      .select([
        'holder.name as holder_name',
        'decider.name as decider_name',
        'uploader.name as uploader_name',
        'assignee.name as assignee_name',
      ])
      .select((eb) => [
        earlierSameFile(eb).select('earlier.id').as('duplicate_of_id'),
        earlierSameFile(eb).select('earlier.file_name').as('duplicate_of_name'),
      ]);
    query = query.where(matching(filters, now, this.store.engine, await this.searchPath(filters.search)));
    if (filters.after !== undefined) {
      const { value, id } = filters.after;
      const beyond = direction === 'desc' ? '<' : '>';
      query = query.where((eb) =>
        eb.or([eb(column, beyond, value), eb.and([eb(column, '=', value), eb('documents.id', beyond, id)])]),
      );
    }
    const rows = await query
      .orderBy(column, direction)
      .orderBy('documents.id', direction)
      .limit(filters.limit + 1)
      .execute();
    const page = rows.slice(0, filters.limit);
    const last = page.at(-1);
    return {
      rows: page,
      next:
        rows.length > filters.limit && last !== undefined
          ? { value: sortValue(last, filters.sort), id: last.id }
          : null,
    };
  }

  /**
   * How many documents the filters list are waiting: with a taker, those `takeNext` with these filters
   * takes from for them (theirs and the team's; not those assigned to someone else).
   */
  async countWaiting(now: number, filters: DocumentFilters = {}, takerId?: string): Promise<number> {
    const row = await this.db
      .selectFrom('documents')
      .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
      .where(waiting(now))
      .where(matching(filters, now, this.store.engine))
      .where((eb) =>
        takerId === undefined
          ? eb.and([])
          : eb.or([eb('documents.assigned_to', 'is', null), eb('documents.assigned_to', '=', takerId)]),
      )
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * How many documents are in each state, as readers see them (expired leases count as waiting), of
   * those the filters list (whatever their state).
   */
  async countByState(now: number, filters: DocumentFilters = {}): Promise<StateCounts> {
    // The queue's own views (all, or one model's) read the kept counts; other filters count what
    // they select, bounded by their own index (an operator's, a search's, a range of dates).
    const { state: _state, model, ...others } = filters;
    if (Object.values(others).every((value) => value === undefined)) return this.counts.byState(now, model);
    const rows = await this.db
      .selectFrom('documents')
      // Every state is counted: the filters but the state.
      .where(matching({ ...filters, state: undefined }, now, this.store.engine))
      .select((eb) => [
        eb
          .case()
          .when(eb.and([eb('state', '=', 'in_review'), eb('lease_expires_at', '<=', now)]))
          .then(sql.lit('to_review'))
          .when(eb.and([eb('state', '=', 'postponed'), eb('postponed_until', '<=', now)]))
          .then(sql.lit('to_review'))
          .else(eb.ref('state'))
          .end()
          .as('effective'),
        eb.fn.countAll<number>().as('n'),
      ])
      .groupBy('effective')
      .execute();
    const counts = noCounts();
    for (const row of rows) counts[row.effective as DocumentState] += Number(row.n);
    return counts;
  }
}

/**
 * The earliest other document whose kept file has the same SHA-256 as the listed one's and came
 * before it (by receipt, then id): a correlated subquery of the queue's listing, on the hash's index.
 */
function earlierSameFile(eb: ExpressionBuilder<ReviewDatabaseSchema, 'documents'>) {
  return eb
    .selectFrom('documents as earlier')
    .whereRef('earlier.file_sha256', '=', 'documents.file_sha256')
    .where((inner) =>
      inner.or([
        inner('earlier.created_at', '<', inner.ref('documents.created_at')),
        inner.and([
          inner('earlier.created_at', '=', inner.ref('documents.created_at')),
          inner('earlier.id', '<', inner.ref('documents.id')),
        ]),
      ]),
    )
    .orderBy('earlier.created_at')
    .orderBy('earlier.id')
    .limit(1);
}

/** The column each sort key orders by. All are NOT NULL, so keyset paging needs no null ordering. */
const SORT_COLUMNS = {
  received: 'documents.created_at',
  name: 'documents.file_name',
  model: 'documents.model_key',
  state: 'documents.state',
  priority: 'documents.priority',
} as const satisfies Record<QueueSortKey, string>;

const SORT_FIELDS = {
  received: 'created_at',
  name: 'file_name',
  model: 'model_key',
  state: 'state',
  priority: 'priority',
} as const satisfies Record<QueueSortKey, keyof DocumentRow>;

export function sortKeyOf(sort: QueueSort | undefined): { key: QueueSortKey; direction: 'asc' | 'desc' } {
  const text = sort ?? '-received';
  return text.startsWith('-')
    ? { key: text.slice(1) as QueueSortKey, direction: 'desc' }
    : { key: text as QueueSortKey, direction: 'asc' };
}

function sortOrder(sort: QueueSort | undefined) {
  const { key, direction } = sortKeyOf(sort);
  return { column: SORT_COLUMNS[key], direction };
}

/** A row's value of the sorted column, for the next page's cursor (a number or a text, by column). */
function sortValue(
  row: Pick<DocumentRow, (typeof SORT_FIELDS)[keyof typeof SORT_FIELDS]>,
  sort: QueueSort | undefined,
): string | number {
  const value = row[SORT_FIELDS[sortKeyOf(sort).key]];
  return typeof value === 'number' || typeof value === 'string' ? value : String(value);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

function changedDocument(result: DocumentRow | WriteResult | undefined): DocumentRow | undefined {
  if (result === undefined) return undefined;
  if ('ok' in result) return result.ok ? result.document : undefined;
  return result;
}

/** A write refused for the document's state (or because it is not there). */
function wrongState(current: DocumentRow | undefined): WriteResult {
  return current === undefined
    ? { ok: false, reason: 'not_found' }
    : { ok: false, reason: 'wrong_state', current };
}

/** A new document's row: `processing`, held by nobody, version 1, until its result arrives. */
export function newDocumentRow(id: string, input: NewDocument, now: number): NewDocumentRow {
  return {
    id,
    api_version: input.apiVersion,
    model_key: input.modelKey,
    file_name: input.fileName,
    alias: input.alias ?? null,
    mime_type: input.mimeType ?? null,
    file_key: input.fileKey ?? null,
    file_bytes: input.fileBytes ?? null,
    file_sha256: input.fileSha256 ?? null,
    upstream_job_id: input.upstreamJobId ?? null,
    upstream_result_id: null,
    uploaded_by: input.uploadedBy ?? null,
    state: 'processing',
    holder_id: null,
    lease_expires_at: null,
    previous_holder_id: null,
    decided_by: null,
    decided_at: null,
    reason: null,
    priority: input.priority ?? 0,
    version: 1,
    fields_total: 0,
    fields_to_review: 0,
    result_json: null,
    error_json: null,
    created_at: now,
    updated_at: now,
    ready_at: null,
    integration_id: input.integrationId ?? null,
    upstream_id: input.upstreamId ?? null,
    // Not named (assigned_to, assigned_at): null by default, and a store not yet migrated to 0013
    // (a rolling upgrade, upgrade-from-0005.test.ts) takes the row as it is.
  };
}

// The job follower's reads and writes of the documents it follows (intake/job-follower.ts): the
// document's own follow lease (`follow_holder`, `follow_until`) and its schedule (`next_check_at`,
// `check_interval_ms`). Functions of the follower's connection, as the background jobs' are.

/** A processing document's first check of its upstream job: 1.5 s after it was received. */
export const FIRST_CHECK_MS = 1_500;

/** When a document's job is due: its row's time, or 1.5 s after it was received. */
const dueAt = sql<number>`coalesce(next_check_at, created_at + ${FIRST_CHECK_MS})`;

/**
 * Which copies follow a document's job: those with an upstream of its API version that took it
 * (`v2 <identity>`), or, kept before upstreams were recorded, any with its API version (`v2`).
 */
const scopeOf = sql<string>`api_version || coalesce(' ' || upstream_id, '')`;

/** A job of this kind for every processing document that has none (kept by an older copy, or before 0006). */
export async function adoptFollowJobs(db: Db, kind: string, now: number): Promise<void> {
  await adoptJobs(
    db,
    kind,
    now,
    db
      .selectFrom('documents')
      .select([sql<string>`id`.as('key'), scopeOf.as('scope'), dueAt.as('run_at')])
      .where('state', '=', 'processing')
      .where('upstream_job_id', 'is not', null),
  );
}

/**
 * Takes the document's own follow lease: processing, due, and held by no copy (an older copy follows
 * with this lease alone) or by this owner. The row, or undefined when it cannot be taken.
 */
export async function takeFollowLease(
  db: Db,
  id: string,
  owner: string,
  leaseUntil: number,
  now: number,
): Promise<DocumentRow | undefined> {
  return db
    .updateTable('documents')
    .set({ follow_holder: owner, follow_until: leaseUntil })
    .where('id', '=', id)
    .where('state', '=', 'processing')
    .where('upstream_job_id', 'is not', null)
    .where(dueAt, '<=', now)
    .where((eb) =>
      eb.or([
        eb('follow_holder', 'is', null),
        eb('follow_until', '<=', now),
        eb('follow_holder', '=', owner),
      ]),
    )
    .returningAll()
    .executeTakeFirst();
}

/** What a document's follow lease and schedule are now (for a lease that could not be taken). */
export async function findFollowState(db: Db, id: string) {
  return db
    .selectFrom('documents')
    .select(['state', 'upstream_job_id', 'follow_holder', 'follow_until', dueAt.as('due_at')])
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * Gives a document's follow lease back, with its next due time. Only while the lease is still this
 * owner's (`followUntil`): a copy that took it over after the lease ran out keeps its own schedule.
 */
export async function giveBackFollowLease(
  db: Db,
  id: string,
  owner: string,
  followUntil: number,
  schedule: { next_check_at?: number; check_interval_ms?: number },
): Promise<void> {
  await db
    .updateTable('documents')
    .set({ ...schedule, follow_holder: null, follow_until: null })
    .where('id', '=', id)
    .where('follow_holder', '=', owner)
    .where('follow_until', '=', followUntil)
    .execute();
}

/** Gives back every document's follow lease this owner holds (a follower that stops). */
export async function releaseFollowLeases(db: Db, owner: string): Promise<void> {
  await db
    .updateTable('documents')
    .set({ follow_holder: null, follow_until: null })
    .where('follow_holder', '=', owner)
    .execute();
}

// The gateway's look-ups of whose a document is (gateway/ownership.ts).

/** A document this integration sent that keeps this upstream id in `column` (job or result id). */
export async function findIntegrationDocumentByUpstreamId(
  db: Db,
  apiVersion: ApiVersion,
  column: 'upstream_job_id' | 'upstream_result_id',
  upstreamId: string,
  integrationId: string,
): Promise<{ id: string } | undefined> {
  return db
    .selectFrom('documents')
    .select('id')
    .where('api_version', '=', apiVersion)
    .where(column, '=', upstreamId)
    .where('integration_id', '=', integrationId)
    .executeTakeFirst();
}

/** Of these v2 inference ids, the documents this integration sent that keep one. */
export async function listIntegrationInferenceIds(
  db: Db,
  inferenceIds: readonly string[],
  integrationId: string,
): Promise<{ upstream_result_id: string | null }[]> {
  return db
    .selectFrom('documents')
    .select('upstream_result_id')
    .where('api_version', '=', 'v2')
    .where('upstream_result_id', 'in', inferenceIds)
    .where('integration_id', '=', integrationId)
    .execute();
}

// The exports' reads (exports/confirmed-documents.ts).

/** A page of the confirmed documents of a model, in order of confirmation (time, id), after `after`. */
/** How many confirmed documents of a model in a range of confirmation times (the export's count). */
export async function countConfirmedDocuments(
  db: Db,
  range: { model: string; from?: number | undefined; to?: number | undefined },
): Promise<number> {
  let query = db
    .selectFrom('documents')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
    .where('state', '=', 'confirmed')
    .where('model_key', '=', range.model);
  if (range.from !== undefined) query = query.where('decided_at', '>=', range.from);
  if (range.to !== undefined) query = query.where('decided_at', '<', range.to);
  const row = await query.executeTakeFirst();
  return Number(row?.count ?? 0);
}

/**
 * Why each of these documents was confirmed with business rules failing (the confirmation event's
 * `override`), from its latest confirmation (a document reopened and confirmed again: the last).
 */
export async function overrideReasonsOf(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  const reasons = new Map<string, string>();
  if (ids.length === 0) return reasons;
  const rows = await db
    .selectFrom('audit_events')
    .select(['document_id', 'data_json'])
    .where('kind', '=', 'confirmed')
    .where('document_id', 'in', ids)
    .orderBy('id')
    .execute();
  for (const row of rows) {
    if (row.document_id === null) continue;
    const data = row.data_json === null ? null : (JSON.parse(row.data_json) as Record<string, unknown>);
    const reason = data?.['override'];
    if (typeof reason === 'string') reasons.set(row.document_id, reason);
    else reasons.delete(row.document_id);
  }
  return reasons;
}

export async function listConfirmedDocumentsPage(
  db: Db,
  range: { model: string; from?: number | undefined; to?: number | undefined },
  after: { at: number; id: string } | undefined,
  limit: number,
) {
  let query = db
    .selectFrom('documents')
    .leftJoin('operators', 'operators.id', 'documents.decided_by')
    .leftJoin('integrations', 'integrations.id', 'documents.integration_id')
    .select([
      'documents.id',
      'documents.api_version',
      'documents.model_key',
      'documents.file_name',
      'documents.alias',
      'documents.upstream_job_id',
      'documents.decided_at',
      'documents.decided_by',
      'documents.result_json',
      'operators.name as operator_name',
      'integrations.name as integration_name',
    ])
    .where('documents.state', '=', 'confirmed')
    .where('documents.model_key', '=', range.model)
    .orderBy('documents.decided_at')
    .orderBy('documents.id')
    .limit(limit);
  if (range.from !== undefined) query = query.where('documents.decided_at', '>=', range.from);
  if (range.to !== undefined) query = query.where('documents.decided_at', '<', range.to);
  if (after !== undefined) {
    const { at, id } = after;
    query = query.where((eb) =>
      eb.or([
        eb('documents.decided_at', '>', at),
        eb.and([eb('documents.decided_at', '=', at), eb('documents.id', '>', id)]),
      ]),
    );
  }
  return query.execute();
}

/** Every correction of these documents (path and value JSON), oldest first. */
export async function listCorrectionsOfDocuments(
  db: Db,
  documentIds: readonly string[],
): Promise<{ document_id: string; field_path: string; value_json: string }[]> {
  return db
    .selectFrom('corrections')
    .select(['document_id', 'field_path', 'value_json'])
    .where('document_id', 'in', documentIds)
    .orderBy('id')
    .execute();
}

/** The latest corrected value (JSON text) of each corrected field, in `db`'s transaction if any. */
export async function currentCorrectionsOf(db: Db, documentId: string): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('corrections')
    .select(['field_path', 'value_json'])
    .where('document_id', '=', documentId)
    .orderBy('id')
    .execute();
  return new Map(rows.map((row) => [row.field_path, row.value_json]));
}

/** What a delivery to the upstream needs of its document (the delivery worker). */
export async function findUpstreamResultOf(
  db: Db,
  documentId: string,
): Promise<Pick<DocumentRow, 'model_key' | 'upstream_result_id'> | undefined> {
  return db
    .selectFrom('documents')
    .select(['model_key', 'upstream_result_id'])
    .where('id', '=', documentId)
    .executeTakeFirst();
}

// The analytics' reads (analytics/).

/** Every model (with its API version) some document was sent to, by model then version. */
export async function listDocumentModels(db: Db): Promise<Pick<DocumentRow, 'api_version' | 'model_key'>[]> {
  return db
    .selectFrom('documents')
    .select(['api_version', 'model_key'])
    .distinct()
    .orderBy('model_key')
    .orderBy('api_version')
    .execute();
}

/** These documents' stored results, with what reading one needs. */
export async function listStoredResultsOf(
  db: Db,
  documentIds: readonly string[],
): Promise<
  Pick<DocumentRow, 'id' | 'file_name' | 'api_version' | 'model_key' | 'upstream_job_id' | 'result_json'>[]
> {
  return db
    .selectFrom('documents')
    .select(['id', 'file_name', 'api_version', 'model_key', 'upstream_job_id', 'result_json'])
    .where('id', 'in', documentIds)
    .execute();
}

// The kept files' sweeps and migration (files/, cli/files-command.ts).

/** Of these file keys, those some document names. */
export async function listNamedFileKeys(
  db: Db,
  fileKeys: readonly string[],
): Promise<{ file_key: string | null }[]> {
  return db.selectFrom('documents').select('file_key').where('file_key', 'in', fileKeys).execute();
}

/** How many documents have a kept file. */
export async function countDocumentsWithFiles(db: Db): Promise<number | string | bigint> {
  const counted = await db
    .selectFrom('documents')
    .select(({ fn }) => fn.countAll<number>().as('n'))
    .where('file_key', 'is not', null)
    .executeTakeFirstOrThrow();
  return counted.n;
}

/** A page of the documents with a kept file, by file key, after the key `after`. */
export async function listKeptFilesPage(
  db: Db,
  after: string,
  limit: number,
): Promise<Pick<DocumentRow, 'id' | 'file_key' | 'file_bytes' | 'file_sha256'>[]> {
  return db
    .selectFrom('documents')
    .select(['id', 'file_key', 'file_bytes', 'file_sha256'])
    .where('file_key', 'is not', null)
    .where('file_key', '>', after)
    .orderBy('file_key')
    .limit(limit)
    .execute();
}
