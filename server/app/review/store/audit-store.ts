/**
 * Each document's timeline: received, extracted, taken, each correction (field, before, after),
 * released, decided, reopened, feedback sent, by whom and when. Written in the same transaction as
 * the change it tells of, so the timeline never says what did not happen, nor misses what did.
 */
import type { Kysely, Transaction } from 'kysely';
import type { AuditEventRow, ReviewDatabaseSchema } from '../db/schema';

type Db = Kysely<ReviewDatabaseSchema> | Transaction<ReviewDatabaseSchema>;

export interface NewAuditEvent {
  documentId: string | null;
  kind: string;
  actorId: string | null;
  at: number;
  /** What else the event says, kept as JSON. */
  data?: Record<string, unknown> | undefined;
}

export async function recordEvent(db: Db, event: NewAuditEvent): Promise<void> {
  await db
    .insertInto('audit_events')
    .values({
      document_id: event.documentId,
      kind: event.kind,
      actor_id: event.actorId,
      at: event.at,
      data_json: event.data === undefined ? null : JSON.stringify(event.data),
    })
    .execute();
}

export interface TimelineEntry {
  id: number;
  kind: string;
  at: number;
  actor: { id: string; name: string | null } | null;
  data: Record<string, unknown> | null;
}

/** A document's events, oldest first, with their actors' names (null for one since removed). */
export async function documentTimeline(db: Db, documentId: string): Promise<TimelineEntry[]> {
  const rows = await db
    .selectFrom('audit_events')
    .leftJoin('operators', 'operators.id', 'audit_events.actor_id')
    .select([
      'audit_events.id',
      'audit_events.kind',
      'audit_events.at',
      'audit_events.actor_id',
      'audit_events.data_json',
      'operators.name as actor_name',
    ])
    .where('audit_events.document_id', '=', documentId)
    .orderBy('audit_events.id')
    .execute();
  return rows.map((row) => ({
    id: Number(row.id),
    kind: row.kind,
    at: row.at,
    actor: row.actor_id === null ? null : { id: row.actor_id, name: row.actor_name },
    data: row.data_json === null ? null : (JSON.parse(row.data_json) as Record<string, unknown>),
  }));
}

export type { AuditEventRow };

/** The data of the latest `confirmed` event of a document at this decision time (null when it has none). */
export async function findConfirmedEventData(
  db: Db,
  documentId: string,
  decidedAt: number,
): Promise<{ data_json: string | null } | undefined> {
  return db
    .selectFrom('audit_events')
    .select('data_json')
    .where('document_id', '=', documentId)
    .where('kind', '=', 'confirmed')
    .where('at', '=', decidedAt)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}
