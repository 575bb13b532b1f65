/**
 * The retention rule of each model, applied (issue 22): a confirmed or rejected document's kept file
 * is removed `files_after_days` after the decision (the document stays, `file_removed_at` set, its
 * timeline saying so), the whole document `documents_after_days` after it, through the one deletion
 * path (document-deletion.ts: a tombstone stays). Documents waiting, held, postponed, processing or
 * failed are never touched, whatever their age.
 *
 * The purge runs in one copy at a time (its lease: purge-log.ts, background/retention-purge.ts), yet
 * a lease may run out mid-pass, so several sweepers must stay safe at once: every write is one conditional
 * statement that still requires the document to be decided, old enough and (for a file) to name the
 * same file, so of two sweepers one does it and the other's statement touches nothing. A pass does at
 * most `batch` documents, so that a first run on a year of documents does not hold the store for
 * long; the loop's next pass takes the rest.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { KeptFilesSchema } from '../db/kept-files-schema';
import type { DocumentRow, ReviewDatabaseSchema } from '../db/schema';
import { recordEvent } from './audit-store';
import { deleteDocument } from './document-deletion';

export const DAY_MS = 24 * 60 * 60 * 1000;
/** Documents per pass: a statement each, a short transaction each. */
export const RETENTION_BATCH = 200;

export interface RetentionRule {
  apiVersion: 'v2' | 'v1';
  modelKey: string;
  filesAfterDays: number | null;
  documentsAfterDays: number | null;
}

/** One document the rule takes now: its file, or the whole document. */
export interface RetentionItem {
  action: 'remove_file' | 'delete_document';
  documentId: string;
  apiVersion: 'v2' | 'v1';
  model: string;
  decidedAt: number;
}

export interface RetentionPass {
  /** What was done (a dry run: what would be). */
  items: RetentionItem[];
  /** Kept files to remove from the file storage now that their rows are committed. */
  removedFileKeys: string[];
  /** The batch was full: more is due. */
  more: boolean;
}

/** Every model with a retention rule. */
export async function retentionRules(db: Kysely<ReviewDatabaseSchema>): Promise<RetentionRule[]> {
  const rows = await db
    .selectFrom('model_settings')
    .select(['api_version', 'model_key', 'files_after_days', 'documents_after_days'])
    .where((eb) =>
      eb.or([eb('files_after_days', 'is not', null), eb('documents_after_days', 'is not', null)]),
    )
    .orderBy('api_version')
    .orderBy('model_key')
    .execute();
  return rows.map((row) => ({
    apiVersion: row.api_version,
    modelKey: row.model_key,
    filesAfterDays: row.files_after_days === null ? null : Number(row.files_after_days),
    documentsAfterDays: row.documents_after_days === null ? null : Number(row.documents_after_days),
  }));
}

/**
 * One pass: what is due at `now`, at most `batch` documents, done (or, `dryRun`, only listed).
 * Documents due for deletion go first: their files go with them.
 */
export async function sweepRetention(
  db: Kysely<ReviewDatabaseSchema>,
  now: number,
  options: { batch?: number; dryRun?: boolean; tell?: (row: DocumentRow) => void } = {},
): Promise<RetentionPass> {
  const batch = options.batch ?? RETENTION_BATCH;
  const pass: RetentionPass = { items: [], removedFileKeys: [], more: false };
  const rules = await retentionRules(db);
  for (const action of ['delete_document', 'remove_file'] as const) {
    for (const rule of rules) {
      const days = action === 'delete_document' ? rule.documentsAfterDays : rule.filesAfterDays;
      if (days === null) continue;
      const room = batch - pass.items.length;
      if (room <= 0) {
        pass.more = true;
        return pass;
      }
      const cutoff = now - days * DAY_MS;
      let due = db
        .selectFrom('documents')
        .select(['id', 'file_key', 'decided_at'])
        .where('model_key', '=', rule.modelKey)
        .where('state', 'in', ['confirmed', 'rejected'])
        .where('decided_at', '<=', cutoff)
        .where('api_version', '=', rule.apiVersion);
      if (action === 'remove_file') due = due.where('file_key', 'is not', null);
      const rows = await due.orderBy('decided_at').orderBy('id').limit(room).execute();
      if (rows.length === room) pass.more = true;
      for (const row of rows) {
        const item: RetentionItem = {
          action,
          documentId: row.id,
          apiVersion: rule.apiVersion,
          model: rule.modelKey,
          decidedAt: Number(row.decided_at),
        };
        if (options.dryRun === true) {
          pass.items.push(item);
          continue;
        }
        const done = await db
          .transaction()
          .execute((trx) =>
            action === 'delete_document'
              ? deleteDue(trx, row.id, cutoff, now)
              : removeFileDue(trx, row.id, row.file_key, cutoff, now, days),
          );
        // Another sweeper (another copy) did it first, or it was reopened meanwhile.
        if (done === undefined) continue;
        pass.items.push(item);
        if (done.fileKey !== null) pass.removedFileKeys.push(done.fileKey);
        options.tell?.(done.row);
      }
    }
  }
  return pass;
}

type Done = { row: DocumentRow; fileKey: string | null } | undefined;

async function deleteDue(
  trx: Transaction<ReviewDatabaseSchema>,
  id: string,
  cutoff: number,
  now: number,
): Promise<Done> {
  const result = await deleteDocument(trx, id, { by: null, cause: 'retention', now, decidedBy: cutoff });
  if ('refused' in result) return undefined;
  const row = result.deleted;
  // Told as a change of version, so that open lists and reviews refetch (and find it gone).
  return { row: { ...row, version: row.version + 1, updated_at: now }, fileKey: result.fileKey };
}

async function removeFileDue(
  trx: Transaction<ReviewDatabaseSchema>,
  id: string,
  fileKey: string | null,
  cutoff: number,
  now: number,
  days: number,
): Promise<Done> {
  if (fileKey === null) return undefined;
  const row = await trx
    .updateTable('documents')
    .set({ file_key: null, file_removed_at: now, version: sql`version + 1`, updated_at: now })
    .where('id', '=', id)
    .where('file_key', '=', fileKey)
    .where('state', 'in', ['confirmed', 'rejected'])
    .where('decided_at', '<=', cutoff)
    .returningAll()
    .executeTakeFirst();
  if (row === undefined) return undefined;
  // The words were read from the file: they hold what it held.
  await (trx as unknown as Transaction<KeptFilesSchema>)
    .deleteFrom('page_words')
    .where('document_id', '=', id)
    .execute();
  await recordEvent(trx, {
    documentId: id,
    kind: 'file_removed',
    actorId: null,
    at: now,
    data: { cause: 'retention', days },
  });
  return { row, fileKey };
}
