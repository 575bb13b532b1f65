/**
 * Jobs and inferences in one SQLite file (better-sqlite3, WAL). The schema is versioned with
 * `PRAGMA user_version`: later issues append to MIGRATIONS, never edit a shipped entry.
 *
 * Other parts of the service (webhook deliveries, the RAG store) keep their own tables in the same
 * database: they reach it through `database` and version their tables with `applyMigrations`
 * (migrations.ts), never with `user_version`, which is this store's.
 */
import Database from 'better-sqlite3';
import type { ProblemBody } from '@extraction-review/contract/problem';
import type { ExtractionInference, JobStatus } from '@extraction-review/document-text/api-types';
import type { InferenceRecord, JobOptions, JobRecord, JobStore } from './job-store';

const MIGRATIONS: readonly string[] = [
  `CREATE TABLE jobs (
     id           TEXT PRIMARY KEY,
     model_id     TEXT NOT NULL,
     filename     TEXT NOT NULL,
     alias        TEXT,
     created_at   TEXT NOT NULL,
     completed_at TEXT,
     status       TEXT NOT NULL CHECK (status IN ('Processing', 'Processed', 'Failed')),
     inference_id TEXT,
     error        TEXT,
     mime_type    TEXT NOT NULL,
     file_size    INTEGER NOT NULL
   );
   CREATE INDEX jobs_by_status ON jobs (status);
   CREATE TABLE inferences (
     id         TEXT PRIMARY KEY,
     job_id     TEXT NOT NULL UNIQUE REFERENCES jobs (id),
     created_at TEXT NOT NULL,
     body       TEXT NOT NULL
   );`,
  // Issue 3: per-job options (JSON), the webhooks to call, processing starts, delete-after-fetch.
  `ALTER TABLE jobs ADD COLUMN options TEXT;
   ALTER TABLE jobs ADD COLUMN webhook_ids TEXT NOT NULL DEFAULT '[]';
   ALTER TABLE jobs ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
   CREATE TABLE deleted_inferences (
     id         TEXT PRIMARY KEY,
     job_id     TEXT NOT NULL,
     deleted_at TEXT NOT NULL
   );`,
];

interface JobRow {
  id: string;
  model_id: string;
  filename: string;
  alias: string | null;
  created_at: string;
  completed_at: string | null;
  status: JobStatus;
  inference_id: string | null;
  error: string | null;
  mime_type: string;
  file_size: number;
  options: string | null;
  webhook_ids: string;
  attempts: number;
}

interface InferenceRow {
  id: string;
  job_id: string;
  created_at: string;
  body: string;
}

const toRow = (job: JobRecord): JobRow => ({
  id: job.id,
  model_id: job.modelId,
  filename: job.filename,
  alias: job.alias,
  created_at: job.createdAt,
  completed_at: job.completedAt,
  status: job.status,
  inference_id: job.inferenceId,
  error: job.error ? JSON.stringify(job.error) : null,
  mime_type: job.mimeType,
  file_size: job.fileSize,
  options: job.options ? JSON.stringify(job.options) : null,
  webhook_ids: JSON.stringify(job.webhookIds),
  attempts: job.attempts,
});

const fromRow = (row: JobRow): JobRecord => ({
  id: row.id,
  modelId: row.model_id,
  filename: row.filename,
  alias: row.alias,
  createdAt: row.created_at,
  completedAt: row.completed_at,
  status: row.status,
  inferenceId: row.inference_id,
  error: row.error ? (JSON.parse(row.error) as ProblemBody) : null,
  mimeType: row.mime_type,
  fileSize: row.file_size,
  options: row.options ? (JSON.parse(row.options) as JobOptions) : null,
  webhookIds: JSON.parse(row.webhook_ids) as string[],
  attempts: row.attempts,
});

const fromInferenceRow = (row: InferenceRow): InferenceRecord => ({
  id: row.id,
  jobId: row.job_id,
  createdAt: row.created_at,
  body: JSON.parse(row.body) as ExtractionInference,
});

export class SqliteJobStore implements JobStore {
  private readonly db: Database.Database;
  private readonly statements: ReturnType<typeof prepareStatements>;
  // Wrapped once: `db.transaction()` builds a new function (and looks up its BEGIN/COMMIT) per call.
  private readonly finishTransaction: (job: JobRecord, inference?: InferenceRecord) => boolean;
  private readonly takeTransaction: (id: string, at: Date) => InferenceRecord | undefined;

  constructor(file: string) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    // In WAL mode, NORMAL syncs at checkpoints rather than at every commit: a crash of the process
    // loses nothing; a power cut may lose the last commits (sqlite.org/pragma.html#pragma_synchronous).
    // Worth it: a full sync per commit cost several ms per job on every enqueue and finish.
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('foreign_keys = ON');
    this.db.pragma('busy_timeout = 5000');
    migrate(this.db);
    const statements = prepareStatements(this.db);
    this.statements = statements;
    this.finishTransaction = this.db.transaction((job: JobRecord, inference?: InferenceRecord) => {
      if (statements.updateJob.run(toRow(job)).changes === 0) return false;
      if (inference) {
        statements.insertInference.run({
          id: inference.id,
          job_id: inference.jobId,
          created_at: inference.createdAt,
          body: JSON.stringify(inference.body),
        });
      }
      return true;
    });
    this.takeTransaction = this.db.transaction((id: string, at: Date) => {
      const row = statements.findInference.get(id);
      if (!row) return undefined;
      statements.deleteInference.run(id);
      statements.insertTombstone.run({ id, job_id: row.job_id, deleted_at: at.toISOString() });
      return fromInferenceRow(row);
    });
  }

  /**
   * The open database, for the parts of the service that keep their own tables beside the jobs
   * (webhook deliveries, the RAG store). It is closed by `close()`.
   */
  get database(): Database.Database {
    return this.db;
  }

  insertJob(job: JobRecord): void {
    this.statements.insertJob.run(toRow(job));
  }

  findJob(id: string): JobRecord | undefined {
    const row = this.statements.findJob.get(id);
    return row && fromRow(row);
  }

  finishJob(job: JobRecord, inference?: InferenceRecord): boolean {
    return this.finishTransaction(job, inference);
  }

  startAttempt(jobId: string): number {
    return this.statements.startAttempt.get(jobId)?.attempts ?? 0;
  }

  releaseAttempt(jobId: string): void {
    this.statements.releaseAttempt.run(jobId);
  }

  findInference(id: string): InferenceRecord | undefined {
    const row = this.statements.findInference.get(id);
    return row && fromInferenceRow(row);
  }

  takeInference(id: string, at: Date): InferenceRecord | undefined {
    return this.takeTransaction(id, at);
  }

  deletedInferenceAt(id: string): string | undefined {
    return this.statements.findTombstone.get(id)?.deleted_at;
  }

  jobsWithStatus(status: JobStatus): JobRecord[] {
    return this.statements.jobsWithStatus.all(status).map(fromRow);
  }

  close(): void {
    this.db.close();
  }
}

function migrate(db: Database.Database): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > MIGRATIONS.length) {
    throw new Error(
      `The database schema (version ${version}) is newer than this reference service (${MIGRATIONS.length}).`,
    );
  }
  db.transaction(() => {
    MIGRATIONS.slice(version).forEach((sql) => db.exec(sql));
    db.pragma(`user_version = ${MIGRATIONS.length}`);
  })();
}

function prepareStatements(db: Database.Database) {
  return {
    insertJob: db.prepare<JobRow>(
      `INSERT INTO jobs (id, model_id, filename, alias, created_at, completed_at, status, inference_id, error,
                         mime_type, file_size, options, webhook_ids, attempts)
       VALUES (@id, @model_id, @filename, @alias, @created_at, @completed_at, @status, @inference_id, @error,
               @mime_type, @file_size, @options, @webhook_ids, @attempts)`,
    ),
    // A final state is written once: a second writer (a late event) changes nothing.
    updateJob: db.prepare<JobRow>(
      `UPDATE jobs SET completed_at = @completed_at, status = @status, inference_id = @inference_id,
                       error = @error
       WHERE id = @id AND status = 'Processing'`,
    ),
    startAttempt: db.prepare<[string], { attempts: number }>(
      'UPDATE jobs SET attempts = attempts + 1 WHERE id = ? RETURNING attempts',
    ),
    releaseAttempt: db.prepare<[string]>('UPDATE jobs SET attempts = MAX(attempts - 1, 0) WHERE id = ?'),
    findJob: db.prepare<[string], JobRow>('SELECT * FROM jobs WHERE id = ?'),
    jobsWithStatus: db.prepare<[JobStatus], JobRow>(
      'SELECT * FROM jobs WHERE status = ? ORDER BY created_at',
    ),
    insertInference: db.prepare<InferenceRow>(
      'INSERT INTO inferences (id, job_id, created_at, body) VALUES (@id, @job_id, @created_at, @body)',
    ),
    findInference: db.prepare<[string], InferenceRow>('SELECT * FROM inferences WHERE id = ?'),
    deleteInference: db.prepare<[string]>('DELETE FROM inferences WHERE id = ?'),
    insertTombstone: db.prepare<{ id: string; job_id: string; deleted_at: string }>(
      'INSERT OR IGNORE INTO deleted_inferences (id, job_id, deleted_at) VALUES (@id, @job_id, @deleted_at)',
    ),
    findTombstone: db.prepare<[string], { deleted_at: string }>(
      'SELECT deleted_at FROM deleted_inferences WHERE id = ?',
    ),
  };
}
