/**
 * A document imported into the queue with its result already in hand: the jobs a browser kept in its
 * IndexedDB before the team queue existed (`POST /api/review/import`, server/app/review/http/import-routes.ts).
 *
 * Once per upstream job: the same (API version, upstream job) already in the store — imported before,
 * or entered by the upload recorder — is answered as it is, never doubled. The look-up and the insert
 * are one transaction under a lock on that pair (a transaction-scoped advisory lock on PostgreSQL,
 * which every app-server copy shares; SQLite's single connection runs one transaction at a time), so
 * two imports of the same job at once make one document. The `imported` event, by the caller, is
 * written in the same transaction; then `QueueStore.setResult` puts the document in the queue
 * (`to_review`, the `extracted` event, and the live queue event for the browsers).
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { ReviewDatabase } from '../db/open-database';
import type { DocumentRow } from '../db/schema';
import type { ApiVersion } from '../model/review-types';
import { recordEvent } from './audit-store';
import { newDocumentRow, type QueueStore } from './queue-store';

export interface ImportInput {
  /** Chosen by the caller when its file was stored under it first; else a new UUID. */
  id?: string;
  apiVersion: ApiVersion;
  modelKey: string;
  fileName: string;
  alias: string | null;
  upstreamJobId: string;
  upstreamResultId: string | null;
  /** The kept file, stored under the document's id; null when none was sent. */
  file: { mimeType: string | null; bytes: number; sha256: string } | null;
  /** The upstream's answer, as JSON text, and its counts (count-fields.ts). */
  resultJson: string;
  fieldsTotal: number;
  fieldsToReview: number;
  /** Who imports it: the `imported` event's actor, and the document's uploader. */
  importedBy: string;
}

export interface ImportOutcome {
  /** False when the job was in the store already: `document` is that one, unchanged. */
  imported: boolean;
  document: DocumentRow;
}

export async function importDocument(
  review: { database: ReviewDatabase; queue: QueueStore },
  input: ImportInput,
  now: number,
): Promise<ImportOutcome> {
  const { db, engine } = review.database;
  const id = input.id ?? randomUUID();
  const entered = await db.transaction().execute(async (trx) => {
    if (engine === 'postgres') {
      // Released at commit or rollback. A 32-bit hash: two different jobs may share a lock, which only
      // makes one of them wait a moment.
      const key = `review-import:${input.apiVersion}:${input.upstreamJobId}`;
      await sql`select pg_advisory_xact_lock(hashtext(${key}))`.execute(trx);
    }
    const existing = await trx
      .selectFrom('documents')
      .selectAll()
      .where('api_version', '=', input.apiVersion)
      .where('upstream_job_id', '=', input.upstreamJobId)
      .orderBy('created_at')
      .orderBy('id')
      .executeTakeFirst();
    if (existing !== undefined) return { imported: false as const, document: existing };

    const document = await trx
      .insertInto('documents')
      .values(
        // `processing` for the moment until setResult below: the queue's one way in.
        newDocumentRow(
          id,
          {
            apiVersion: input.apiVersion,
            modelKey: input.modelKey,
            fileName: input.fileName,
            alias: input.alias,
            mimeType: input.file?.mimeType ?? null,
            fileKey: input.file === null ? null : id,
            fileBytes: input.file?.bytes ?? null,
            fileSha256: input.file?.sha256 ?? null,
            upstreamJobId: input.upstreamJobId,
            uploadedBy: input.importedBy,
          },
          now,
        ),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordEvent(trx, {
      documentId: id,
      kind: 'imported',
      actorId: input.importedBy,
      at: now,
      data: {
        apiVersion: input.apiVersion,
        upstreamJobId: input.upstreamJobId,
        file: input.file !== null,
      },
    });
    return { imported: true as const, document };
  });
  if (!entered.imported) return entered;

  const ready = await review.queue.setResult(
    id,
    {
      json: input.resultJson,
      resultId: input.upstreamResultId,
      fieldsTotal: input.fieldsTotal,
      fieldsToReview: input.fieldsToReview,
    },
    now,
  );
  // Undefined only if something else moved it out of `processing` in between (the job follower
  // checks a new document after 1.5 s at the earliest): the document as it is then.
  return { imported: true, document: ready ?? (await review.queue.find(id)) ?? entered.document };
}
