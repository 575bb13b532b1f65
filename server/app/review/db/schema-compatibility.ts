/**
 * Expand/contract: for each migration of migrations.ts, the oldest code that keeps working on a
 * database where it ran. Code is named by the last migration it knows (its schema level; migrate.ts
 * calls it the code's version, with package.json's release for people).
 *
 * During a rolling upgrade the old copies keep serving on the new schema, and a rollback starts old
 * code on it again; migrate.ts lets code start on a database with migrations it does not know only
 * when every one of them names, here, a code this old or older. The newer code writes this entry into
 * the database with the migration (table `schema_compatibility`), since the older code cannot know it.
 *
 * - An expand-only migration (new tables, nullable columns or columns with defaults, new indexes)
 *   keeps working with the code before it: name the migration before it. That is the default for a
 *   migration missing here, and schema-compatibility.test.ts fails until it is declared.
 * - A contract migration (drop or rename what older code reads or writes, a new NOT NULL column
 *   without a default, a tightened check) names itself: no older code works on it. Ship it only in a
 *   release after the one that stopped using what it removes (docs/operations.md).
 */
export const OLDEST_CODE_FOR: Readonly<Record<string, string>> = {
  // The first schema: no code before it.
  '0001-review-store': '0001-review-store',
  // Expand-only: new tables and a nullable documents.integration_id.
  '0002-review-gateway': '0001-review-store',
  // Expand-only: a new table.
  '0003-gateway-ownership': '0002-review-gateway',
  // Issue 19's three, released together and expand-only each (new tables, nullable columns older code
  // neither reads nor writes): the release before them, at 0003, keeps working on all three.
  '0004-kept-files': '0003-gateway-ownership',
  '0005-job-follow-leases': '0003-gateway-ownership',
  '0006-intake-intents': '0003-gateway-ownership',
  // Issue 20. Expand-only: a new table older code never reads. Older copies keep following jobs and
  // sending deliveries with the leases of 0005 and 0002, which the newer code takes too before it acts
  // (background/README.md), so copies of 0005 or later upgrade without a double record.
  '0006-background-work': '0003-gateway-ownership',
  // Issue 21. Expand-only: two indexes (who uploaded, the kept file's hash); older code reads and
  // writes the documents as before.
  '0007-uploads': '0006-background-work',
  // Issue 21. Expand-only: a nullable documents.postponed_until that older code never reads (a document
  // postponed until a date stays postponed for it): the code before it keeps working.
  '0008-saved-queues': '0006-background-work',
  // Issue 21. Expand-only: a new table older code never reads (it confirms without the gate).
  '0009-unchecked-gate': '0006-background-work',
  // Issue 21. Expand-only: a nullable column and a new table older code never reads. An older copy
  // does not know deactivation (it would let a deactivated operator sign in again): upgrade every copy
  // before deactivating anyone.
  '0010-operator-access': '0006-background-work',
  // Issue 21. Expand-only: a new table and a nullable documents.total_amount older code neither reads
  // nor writes (a result an older copy stores leaves it null: that document matches no amount filter).
  '0011-saved-filters': '0006-background-work',
  // Issue 21. Expand-only: a nullable model_settings.reasons_json older code neither reads nor writes
  // (its saves keep the column; its first save of a model leaves it null, the defaults).
  '0012-preset-reasons': '0006-background-work',
  // Issue 21. Expand-only: nullable documents.assigned_to / assigned_at and an index. Older code
  // neither reads nor writes them: its "next" gives an assigned document to whoever asks, as before
  // assignments existed (nothing breaks; the assignment is just not honoured by an older copy).
  '0013-assignments': '0006-background-work',
  // Issue 22. Expand-only: nullable columns older code neither reads nor writes (its saves keep the
  // retention; it serves a file retention removed as a document without a kept file).
  '0014-retention': '0006-background-work',
  // Issue 22. Expand-only: two new tables and a nullable integrations.requests_per_minute that older
  // code never reads. An older copy counts sign-ins in its own memory and applies no integration limit.
  '0015-request-limits': '0006-background-work',
  // Issue 22. Expand-only: a new table older code never reads (its sweeps purge without a log entry).
  '0016-purge-log': '0006-background-work',
  // Issue 22. Expand-only: a new table older code never reads (an older copy signs in with passwords
  // and the proxy's header only).
  '0017-oidc-identities': '0006-background-work',
  // Issue 22. Expand-only: new tables older code never reads, and triggers that keep them current
  // whatever code writes the documents (an older copy's writes included).
  '0018-queue-counts': '0006-background-work',
  // Issue 22. Expand-only: indexes (PostgreSQL), and on SQLite a search table, its triggers and a
  // nullable documents.search_id that only the triggers write.
  '0019-name-search': '0006-background-work',
  // Issue 22. Expand-only in effect: an index replaced by a wider one on the same leading columns
  // (older code's look-ups use it as they used the old one).
  '0020-same-file-order': '0006-background-work',
};

/**
 * The oldest code that works on a database where `migration` ran: its entry above, else (a migration
 * not declared yet) the migration before it in `known`, as for an expand-only one.
 */
export function oldestCodeFor(
  migration: string,
  known: readonly string[],
  declared: Readonly<Record<string, string>> = OLDEST_CODE_FOR,
): string {
  const entry = declared[migration];
  if (entry !== undefined) return entry;
  const index = known.indexOf(migration);
  return index > 0 ? (known[index - 1] ?? migration) : migration;
}
