/**
 * Migration 0007-uploads (issue 21): the team's Uploads list and duplicates. The list is filtered by
 * who uploaded ("Mine"), newest first; a document is a duplicate of the earliest document whose kept
 * file has the same SHA-256 (stored at intake since 0001): both are looked up by an index here.
 * Expand-only: new indexes, which older code never needs to know.
 */
import type { Kysely, Migration } from 'kysely';

export function uploads(): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema as it was then
    async up(db: Kysely<any>) {
      await db.schema
        .createIndex('documents_uploaded_by')
        .on('documents')
        .columns(['uploaded_by', 'created_at'])
        .execute();
      await db.schema
        .createIndex('documents_file_sha256')
        .on('documents')
        .columns(['file_sha256', 'created_at'])
        .execute();
    },
  };
}
