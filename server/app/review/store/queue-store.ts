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
import { sql, type ExpressionBuilder, type Kysely, type Transaction } from 'kysely';
import type { ReviewDatabase } from '../db/open-database';
import type { DocumentRow, NewDocumentRow, ReviewDatabaseSchema } from '../db/schema';
import { effectiveState, explainHolderRefusal, type Refusal } from '../queue-state';
import type { ApiVersion, Decision, DocumentState } from '../review-types';
import { recordEvent } from './audit-store';

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

export interface PageCursor {
  createdAt: number;
  id: string;
}

export interface QueueFilters {
  state?: DocumentState | undefined;
  model?: string | undefined;
  /** Documents this operator holds or decided. */
  operator?: string | undefined;
  from?: number | undefined;
  to?: number | undefined;
  /** In file names and aliases, whatever the case. */
  search?: string | undefined;
  after?: PageCursor | undefined;
  limit: number;
}

export type ListedDocument = DocumentRow & { holder_name: string | null; decider_name: string | null };

export interface CorrectionInput {
  /** The field's path in the review (`total_amount`, `line_items/2/quantity`). */
  path: string;
  /** The corrected value (any JSON). */
  value: unknown;
}

/** A document waiting for an operator: `to_review`, or `in_review` with its lease run out. */
const waiting = (now: number) => (eb: Eb) =>
  eb.or([
    eb('state', '=', 'to_review'),
    eb.and([eb('state', '=', 'in_review'), eb('lease_expires_at', '<=', now)]),
  ]);

/** Held by this operator, its lease still running. */
const heldBy = (operatorId: string, now: number) => (eb: Eb) =>
  eb.and([eb('state', '=', 'in_review'), eb('holder_id', '=', operatorId), eb('lease_expires_at', '>', now)]);

/** Who held it before, when the statement takes it over from an expired lease (else null). */
const takenOverFrom = sql<string | null>`case when state = 'in_review' then holder_id else null end`;

export class QueueStore {
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
  ) {}

  /** The columns of a document taken by `operatorId` under a fresh lease (from whoever held it). */
  private takenBy(operatorId: string, now: number) {
    return {
      previous_holder_id: takenOverFrom,
      state: 'in_review' as const,
      holder_id: operatorId,
      lease_expires_at: now + this.leaseMs,
      version: sql<number>`version + 1`,
      updated_at: now,
    };
  }

  /** Tells of a change once its transaction has committed, and passes the result on. */
  private tell<T extends DocumentRow | WriteResult | undefined>(result: T): T {
    const document = changedDocument(result);
    if (document !== undefined) {
      try {
        this.onChange?.(document);
      } catch (error) {
        console.error('[review store] a change listener failed:', error);
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
          .executeTakeFirst();
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
   * operator, under a fresh lease. Undefined when none is waiting.
   */
  async takeNext(operatorId: string, now: number): Promise<DocumentRow | undefined> {
    const postgres = this.store.engine === 'postgres';
    return this.tell(
      await this.db.transaction().execute(async (trx) => {
        const document = await trx
          .updateTable('documents')
          .set(this.takenBy(operatorId, now))
          .where('id', '=', (eb) => {
            const next = eb
              .selectFrom('documents')
              .select('id')
              .where(waiting(now))
              .orderBy('priority', 'desc')
              .orderBy('ready_at')
              .orderBy('id')
              .limit(1);
            return postgres ? next.forUpdate().skipLocked() : next;
          })
          // Checked again on the row itself: on PostgreSQL a row changed since the subquery read it is
          // re-evaluated here.
          .where(waiting(now))
          .returningAll()
          .executeTakeFirst();
        if (document) await this.recordTaken(trx, document, operatorId, now, 'next');
        return document;
      }),
    );
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
  ): Promise<WriteResult> {
    return this.tell(
      await this.db.transaction().execute(async (trx) => {
        const document = await trx
          .updateTable('documents')
          .set({
            state: decision,
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
        if (!document) {
          const refusal = explainHolderRefusal(await this.find(id, trx), operatorId, baseVersion, now);
          return { ok: false, ...refusal };
        }
        await recordEvent(trx, {
          documentId: id,
          kind: decision,
          actorId: operatorId,
          at: now,
          data:
            reason === null && eventData === undefined
              ? undefined
              : { ...(reason === null ? {} : { reason }), ...eventData },
        });
        if (decision === 'confirmed') await this.onConfirmed?.(trx, document, now);
        return { ok: true, document };
      }),
    );
  }

  /** An admin hands a waiting or held document to an operator, under a fresh lease. */
  async reassign(id: string, adminId: string, toOperatorId: string, now: number): Promise<WriteResult> {
    return this.tell(
      await this.db.transaction().execute(async (trx) => {
        const document = await trx
          .updateTable('documents')
          .set(this.takenBy(toOperatorId, now))
          .where('id', '=', id)
          .where('state', 'in', ['to_review', 'in_review', 'postponed'])
          .returningAll()
          .executeTakeFirst();
        if (!document) return wrongState(await this.find(id, trx));
        await recordEvent(trx, {
          documentId: id,
          kind: 'reassigned',
          actorId: adminId,
          at: now,
          data: { from: document.previous_holder_id, to: toOperatorId },
        });
        return { ok: true, document };
      }),
    );
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

  /** The latest corrected value (JSON text) of each corrected field. */
  async currentCorrections(id: string, db: Db = this.db): Promise<Map<string, string>> {
    const rows = await db
      .selectFrom('corrections')
      .select(['field_path', 'value_json'])
      .where('document_id', '=', id)
      .orderBy('id')
      .execute();
    return new Map(rows.map((row) => [row.field_path, row.value_json]));
  }

  /**
   * One page of the queue view, newest first, with the names of who holds and who decided each
   * document. Keyset paging on (created_at, id), so a page deep in 100,000 documents costs what the
   * first does.
   */
  async listDocuments(
    filters: QueueFilters,
    now: number,
  ): Promise<{ rows: ListedDocument[]; next: PageCursor | null }> {
    let query = this.db
      .selectFrom('documents')
      .leftJoin('operators as holder', 'holder.id', 'documents.holder_id')
      .leftJoin('operators as decider', 'decider.id', 'documents.decided_by')
      .selectAll('documents')
      .select(['holder.name as holder_name', 'decider.name as decider_name']);
    if (filters.state !== undefined) {
      const state = filters.state;
      query =
        state === 'to_review'
          ? query.where((eb) =>
              eb.or([
                eb('documents.state', '=', 'to_review'),
                eb.and([
                  eb('documents.state', '=', 'in_review'),
                  eb('documents.lease_expires_at', '<=', now),
                ]),
              ]),
            )
          : state === 'in_review'
            ? query.where('documents.state', '=', 'in_review').where('documents.lease_expires_at', '>', now)
            : query.where('documents.state', '=', state);
    }
    if (filters.model !== undefined) query = query.where('documents.model_key', '=', filters.model);
    if (filters.operator !== undefined) {
      const operator = filters.operator;
      query = query.where((eb) =>
        eb.or([eb('documents.holder_id', '=', operator), eb('documents.decided_by', '=', operator)]),
      );
    }
    if (filters.from !== undefined) query = query.where('documents.created_at', '>=', filters.from);
    if (filters.to !== undefined) query = query.where('documents.created_at', '<', filters.to);
    if (filters.search !== undefined) {
      const pattern = `%${filters.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      query = query.where((eb) =>
        eb.or([
          eb(eb.fn('lower', ['documents.file_name']), 'like', sql<string>`${pattern} escape '\\'`),
          eb(eb.fn('lower', ['documents.alias']), 'like', sql<string>`${pattern} escape '\\'`),
        ]),
      );
    }
    if (filters.after !== undefined) {
      const { createdAt, id } = filters.after;
      query = query.where((eb) =>
        eb.or([
          eb('documents.created_at', '<', createdAt),
          eb.and([eb('documents.created_at', '=', createdAt), eb('documents.id', '<', id)]),
        ]),
      );
    }
    const rows = await query
      .orderBy('documents.created_at', 'desc')
      .orderBy('documents.id', 'desc')
      .limit(filters.limit + 1)
      .execute();
    const page = rows.slice(0, filters.limit);
    const last = page.at(-1);
    return {
      rows: page,
      next:
        rows.length > filters.limit && last !== undefined
          ? { createdAt: last.created_at, id: last.id }
          : null,
    };
  }

  /** How many documents are in each state, as readers see them (expired leases count as waiting). */
  async countByState(now: number): Promise<Record<DocumentState, number>> {
    const rows = await this.db
      .selectFrom('documents')
      .select((eb) => [
        eb
          .case()
          .when(eb.and([eb('state', '=', 'in_review'), eb('lease_expires_at', '<=', now)]))
          .then(sql.lit('to_review'))
          .else(eb.ref('state'))
          .end()
          .as('effective'),
        eb.fn.countAll<number>().as('n'),
      ])
      .groupBy('effective')
      .execute();
    const counts: Record<DocumentState, number> = {
      processing: 0,
      failed: 0,
      to_review: 0,
      in_review: 0,
      confirmed: 0,
      rejected: 0,
      postponed: 0,
    };
    for (const row of rows) counts[row.effective as DocumentState] += Number(row.n);
    return counts;
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
  };
}
