/**
 * v1 jobs, their documents and feedback, in the service's SQLite database beside the v2 jobs (own
 * tables, versioned as the `v1` component with `applyMigrations`), so they survive a restart.
 */
import type Database from 'better-sqlite3';
import { applyMigrations } from '../store/migrations';

export type V1JobStatus = 'waiting' | 'processing' | 'completed' | 'failed';

export interface V1JobError {
  code: string;
  details: string;
  message: string;
}

export interface V1JobRecord {
  id: string;
  /** `account/name/version` as the models file writes them. */
  account: string;
  name: string;
  version: string;
  documentId: string;
  filename: string;
  mimeType: string;
  /** ISO 8601 with `Z`; the routes write the hosted format. */
  issuedAt: string;
  startedAt: string | null;
  availableAt: string | null;
  status: V1JobStatus;
  error: V1JobError | null;
  /** The v1 document body, once completed. */
  document: unknown;
  /** Starts of processing (a crash in between counts); see V1JobService. */
  attempts: number;
  /** Whether its end goes to the product's webhooks: `predict_async` jobs only (v1-webhooks.ts). */
  announce: boolean;
}

const MIGRATIONS: readonly string[] = [
  `CREATE TABLE v1_jobs (
     id           TEXT PRIMARY KEY,
     account      TEXT NOT NULL,
     name         TEXT NOT NULL,
     version      TEXT NOT NULL,
     document_id  TEXT NOT NULL UNIQUE,
     filename     TEXT NOT NULL,
     mime_type    TEXT NOT NULL,
     issued_at    TEXT NOT NULL,
     started_at   TEXT,
     available_at TEXT,
     status       TEXT NOT NULL CHECK (status IN ('waiting', 'processing', 'completed', 'failed')),
     error        TEXT,
     document     TEXT,
     attempts     INTEGER NOT NULL DEFAULT 0
   );
   CREATE INDEX v1_jobs_by_status ON v1_jobs (status);
   CREATE TABLE v1_feedback (
     document_id TEXT PRIMARY KEY REFERENCES v1_jobs (document_id),
     feedback    TEXT NOT NULL,
     updated_at  TEXT NOT NULL
   );`,
  // Jobs stored before v1 webhooks existed are final or synchronous-era: not announced.
  `ALTER TABLE v1_jobs ADD COLUMN announce INTEGER NOT NULL DEFAULT 0;`,
];

interface Row {
  id: string;
  account: string;
  name: string;
  version: string;
  document_id: string;
  filename: string;
  mime_type: string;
  issued_at: string;
  started_at: string | null;
  available_at: string | null;
  status: V1JobStatus;
  error: string | null;
  document: string | null;
  attempts: number;
  announce: 0 | 1;
}

const toRow = (job: V1JobRecord): Row => ({
  id: job.id,
  account: job.account,
  name: job.name,
  version: job.version,
  document_id: job.documentId,
  filename: job.filename,
  mime_type: job.mimeType,
  issued_at: job.issuedAt,
  started_at: job.startedAt,
  available_at: job.availableAt,
  status: job.status,
  error: job.error ? JSON.stringify(job.error) : null,
  document: job.document === null || job.document === undefined ? null : JSON.stringify(job.document),
  attempts: job.attempts,
  announce: job.announce ? 1 : 0,
});

const fromRow = (row: Row): V1JobRecord => ({
  id: row.id,
  account: row.account,
  name: row.name,
  version: row.version,
  documentId: row.document_id,
  filename: row.filename,
  mimeType: row.mime_type,
  issuedAt: row.issued_at,
  startedAt: row.started_at,
  availableAt: row.available_at,
  status: row.status,
  error: row.error ? (JSON.parse(row.error) as V1JobError) : null,
  document: row.document ? (JSON.parse(row.document) as unknown) : null,
  attempts: row.attempts,
  announce: row.announce === 1,
});

export class V1Store {
  private readonly statements;

  constructor(private readonly db: Database.Database) {
    applyMigrations(db, 'v1', MIGRATIONS);
    this.statements = {
      insert: db.prepare<Row>(
        `INSERT INTO v1_jobs (id, account, name, version, document_id, filename, mime_type, issued_at,
                              started_at, available_at, status, error, document, attempts, announce)
         VALUES (@id, @account, @name, @version, @document_id, @filename, @mime_type, @issued_at,
                 @started_at, @available_at, @status, @error, @document, @attempts, @announce)`,
      ),
      start: db.prepare<[string, string], Row>(
        `UPDATE v1_jobs SET status = 'processing', started_at = ?, attempts = attempts + 1
         WHERE id = ? AND status IN ('waiting', 'processing') RETURNING *`,
      ),
      // A final state is written once: a late second writer changes nothing.
      finish: db.prepare<Row>(
        `UPDATE v1_jobs SET status = @status, available_at = @available_at, error = @error, document = @document
         WHERE id = @id AND status IN ('waiting', 'processing')`,
      ),
      release: db.prepare<[string]>(
        `UPDATE v1_jobs SET status = 'waiting', attempts = MAX(attempts - 1, 0) WHERE id = ? AND status = 'processing'`,
      ),
      find: db.prepare<[string], Row>('SELECT * FROM v1_jobs WHERE id = ?'),
      findByDocument: db.prepare<[string], Row>('SELECT * FROM v1_jobs WHERE document_id = ?'),
      unfinished: db.prepare<[], Row>(
        `SELECT * FROM v1_jobs WHERE status IN ('waiting', 'processing') ORDER BY issued_at`,
      ),
      findFeedback: db.prepare<[string], { feedback: string }>(
        'SELECT feedback FROM v1_feedback WHERE document_id = ?',
      ),
      saveFeedback: db.prepare<{ document_id: string; feedback: string; updated_at: string }>(
        `INSERT INTO v1_feedback (document_id, feedback, updated_at) VALUES (@document_id, @feedback, @updated_at)
         ON CONFLICT (document_id) DO UPDATE SET feedback = excluded.feedback, updated_at = excluded.updated_at`,
      ),
    };
  }

  insert(job: V1JobRecord): void {
    this.statements.insert.run(toRow(job));
  }

  find(id: string): V1JobRecord | undefined {
    const row = this.statements.find.get(id);
    return row && fromRow(row);
  }

  findByDocument(documentId: string): V1JobRecord | undefined {
    const row = this.statements.findByDocument.get(documentId);
    return row && fromRow(row);
  }

  /** Marks the job `processing` and counts one more start; undefined when it is already final. */
  start(id: string, at: Date): V1JobRecord | undefined {
    const row = this.statements.start.get(at.toISOString(), id);
    return row && fromRow(row);
  }

  /** Takes back a start that ended without a final state (a clean stop): waiting again. */
  release(id: string): void {
    this.statements.release.run(id);
  }

  /** Stores a final state; false when the job was already final. */
  finish(job: V1JobRecord): boolean {
    return this.statements.finish.run(toRow(job)).changes > 0;
  }

  unfinished(): V1JobRecord[] {
    return this.statements.unfinished.all().map(fromRow);
  }

  findFeedback(documentId: string): Record<string, unknown> | undefined {
    const row = this.statements.findFeedback.get(documentId);
    return row && (JSON.parse(row.feedback) as Record<string, unknown>);
  }

  saveFeedback(documentId: string, feedback: Record<string, unknown>, at: Date): void {
    this.statements.saveFeedback.run({
      document_id: documentId,
      feedback: JSON.stringify(feedback),
      updated_at: at.toISOString(),
    });
  }
}
