/**
 * Rows of the review store as the review API shows them (packages/contract/src/review/schemas.ts): ISO times, the
 * names of who holds and who decided, JSON parsed, never a password hash.
 */
import type {
  OperatorView,
  QueueDocument,
  ReviewDocument,
  TimelineEntry as TimelineEntryView,
} from '@extraction-review/contract/review/schemas';
import type { DocumentRow, OperatorRow } from '../db/schema';
import type { TimelineEntry } from '../store/audit-store';
import type { OperatorStore } from '../store/operator-store';
import type { ListedDocument, QueueRow, QueueStore } from '../store/queue-store';
import { effectiveState } from '../model/queue-state';

const iso = (ms: number): string => new Date(ms).toISOString();
const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));

export function presentOperator(
  row: Pick<OperatorRow, 'id' | 'name' | 'role' | 'password_hash' | 'created_at'> &
    Partial<Pick<OperatorRow, 'deactivated_at'>>,
): OperatorView {
  return {
    id: row.id,
    name: row.name,
    role: row.role,
    hasPassword: row.password_hash !== null,
    createdAt: iso(row.created_at),
    deactivatedAt: isoOrNull(row.deactivated_at ?? null),
  };
}

export function presentQueueDocument(row: QueueRow, now: number): QueueDocument {
  const state = effectiveState(row, now);
  const held = state === 'in_review';
  return {
    id: row.id,
    version: row.version,
    apiVersion: row.api_version,
    model: row.model_key,
    fileName: row.file_name,
    alias: row.alias,
    state,
    holder: held && row.holder_id !== null ? { id: row.holder_id, name: row.holder_name } : null,
    leaseExpiresAt: held ? isoOrNull(row.lease_expires_at) : null,
    decidedBy: row.decided_by === null ? null : { id: row.decided_by, name: row.decider_name },
    decidedAt: isoOrNull(row.decided_at),
    reason: row.reason,
    postponedUntil: state === 'postponed' ? isoOrNull(row.postponed_until) : null,
    priority: row.priority,
    fieldsTotal: row.fields_total,
    fieldsToReview: row.fields_to_review,
    createdAt: iso(row.created_at),
    readyAt: isoOrNull(row.ready_at),
    upstreamJobId: row.upstream_job_id,
    upstreamResultId: row.upstream_result_id,
    uploadedBy: row.uploaded_by === null ? null : { id: row.uploaded_by, name: row.uploader_name },
    assignedTo: row.assigned_to === null ? null : { id: row.assigned_to, name: row.assignee_name },
    assignedAt: isoOrNull(row.assigned_at),
    duplicateOf:
      row.duplicate_of_id === null
        ? null
        : { id: row.duplicate_of_id, fileName: row.duplicate_of_name ?? row.duplicate_of_id },
  };
}

/**
 * The names of the operators a row names (holder, decider, uploader, assignee), and the earlier document its
 * file duplicates.
 */
export async function withNames(
  review: { operators: Pick<OperatorStore, 'namesById'>; queue: Pick<QueueStore, 'duplicateOf'> },
  row: DocumentRow,
): Promise<ListedDocument> {
  const ids = [row.holder_id, row.decided_by, row.uploaded_by, row.assigned_to].filter(
    (id): id is string => id !== null,
  );
  const [names, duplicate] = await Promise.all([
    review.operators.namesById(ids),
    review.queue.duplicateOf(row),
  ]);
  const nameOf = (id: string | null) => (id === null ? null : (names.get(id) ?? null));
  return {
    ...row,
    ...duplicate,
    holder_name: nameOf(row.holder_id),
    decider_name: nameOf(row.decided_by),
    uploader_name: nameOf(row.uploaded_by),
    assignee_name: nameOf(row.assigned_to),
  };
}

export function presentReviewDocument(
  row: ListedDocument,
  corrections: ReadonlyMap<string, string>,
  now: number,
): ReviewDocument {
  return {
    ...presentQueueDocument(row, now),
    result: row.result_json === null ? null : (JSON.parse(row.result_json) as unknown),
    error: row.error_json === null ? null : (JSON.parse(row.error_json) as unknown),
    corrections: Object.fromEntries(
      [...corrections].map(([path, json]) => [path, JSON.parse(json) as unknown]),
    ),
    fileRemovedAt: isoOrNull(row.file_removed_at ?? null),
  };
}

export function presentTimeline(entries: readonly TimelineEntry[]): TimelineEntryView[] {
  return entries.map((entry) => ({
    kind: entry.kind,
    at: iso(entry.at),
    actor: entry.actor,
    data: entry.data,
  }));
}
