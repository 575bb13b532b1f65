/**
 * Webhook deliveries, one row per job and endpoint, in the shared `reference.sqlite` (own tables,
 * own versioned migrations under the component name `webhooks`: store/migrations.ts). Also keeps the bytes to send while a job still
 * has deliveries in progress, so that a restart resumes them with exactly the same, signed body.
 *
 * Status of a delivery (the spec's ExtendedStatus):
 *   Processing ──2xx──▶ Processed
 *       └──last attempt fails──▶ Failed
 *   Skipped: never called (the endpoint is not configured on the model, or its URL is not http(s)).
 * `error` holds the last attempt's problem (also while still Processing, between retries), and is
 * cleared once Processed.
 */
import type Database from 'better-sqlite3';
import type { ProblemBody } from '@extraction-review/contract/problem';
import type { WebhookResponse, WebhookStatus } from '@extraction-review/document-text/api-types';
import { hostedTimestamp } from '../routes/present';
import { applyMigrations } from '../store/migrations';

export type DeliveryStatus = WebhookStatus;

export interface DeliveryRecord {
  jobId: string;
  endpointId: string;
  modelId: string;
  /** Order of the endpoint in the job's `webhook_ids`. */
  position: number;
  status: DeliveryStatus;
  attemptsCount: number;
  /** ISO 8601, UTC with `Z`. */
  createdAt: string;
  updatedAt: string;
  error: ProblemBody | null;
}

export interface NewDelivery {
  endpointId: string;
  status: 'Processing' | 'Skipped';
  error: ProblemBody | null;
}

const MIGRATIONS: readonly string[] = [
  `CREATE TABLE webhook_deliveries (
     job_id         TEXT NOT NULL,
     endpoint_id    TEXT NOT NULL,
     model_id       TEXT NOT NULL,
     position       INTEGER NOT NULL,
     status         TEXT NOT NULL CHECK (status IN ('Processing', 'Processed', 'Failed', 'Skipped')),
     attempts_count INTEGER NOT NULL DEFAULT 0,
     created_at     TEXT NOT NULL,
     updated_at     TEXT NOT NULL,
     error          TEXT,
     PRIMARY KEY (job_id, endpoint_id)
   );
   CREATE INDEX webhook_deliveries_by_status ON webhook_deliveries (status);
   CREATE TABLE webhook_payloads (
     job_id TEXT PRIMARY KEY,
     body   TEXT NOT NULL
   );`,
];

interface DeliveryRow {
  job_id: string;
  endpoint_id: string;
  model_id: string;
  position: number;
  status: DeliveryStatus;
  attempts_count: number;
  created_at: string;
  updated_at: string;
  error: string | null;
}

const fromRow = (row: DeliveryRow): DeliveryRecord => ({
  jobId: row.job_id,
  endpointId: row.endpoint_id,
  modelId: row.model_id,
  position: row.position,
  status: row.status,
  attemptsCount: row.attempts_count,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  error: row.error ? (JSON.parse(row.error) as ProblemBody) : null,
});

export class WebhookDeliveryStore {
  private readonly statements: ReturnType<typeof prepareStatements>;

  /** Creates or upgrades the webhook tables on `db` (idempotent). */
  constructor(private readonly db: Database.Database) {
    applyMigrations(db, 'webhooks', MIGRATIONS);
    this.statements = prepareStatements(db);
  }

  /**
   * Records a finished job's deliveries and, when one of them is to be attempted, the payload, in one
   * transaction. A job recorded before keeps its rows: a second call changes nothing and answers false.
   */
  record(
    job: { id: string; modelId: string },
    deliveries: readonly NewDelivery[],
    payload: string,
    at: Date,
  ): boolean {
    const now = at.toISOString();
    return this.db.transaction(() => {
      if (this.statements.countForJob.get(job.id)?.count) return false;
      deliveries.forEach((delivery, position) =>
        this.statements.insert.run({
          job_id: job.id,
          endpoint_id: delivery.endpointId,
          model_id: job.modelId,
          position,
          status: delivery.status,
          attempts_count: 0,
          created_at: now,
          updated_at: now,
          error: delivery.error && JSON.stringify(delivery.error),
        }),
      );
      if (deliveries.some((d) => d.status === 'Processing')) {
        this.statements.insertPayload.run({ job_id: job.id, body: payload });
      }
      return true;
    })();
  }

  find(jobId: string, endpointId: string): DeliveryRecord | undefined {
    const row = this.statements.find.get(jobId, endpointId);
    return row && fromRow(row);
  }

  /** Counts an attempt as it starts, so one cut short by a shutdown still counts. Returns the count. */
  startAttempt(jobId: string, endpointId: string, at: Date): number {
    this.statements.startAttempt.run({
      job_id: jobId,
      endpoint_id: endpointId,
      updated_at: at.toISOString(),
    });
    return this.find(jobId, endpointId)?.attemptsCount ?? 0;
  }

  /** A failed attempt that will be retried: stays Processing, with the attempt's problem. */
  recordRetry(jobId: string, endpointId: string, error: ProblemBody, at: Date): void {
    this.statements.update.run({
      job_id: jobId,
      endpoint_id: endpointId,
      status: 'Processing',
      error: JSON.stringify(error),
      updated_at: at.toISOString(),
    });
  }

  /** Final state; the payload is dropped once none of the job's deliveries is still Processing. */
  finish(
    jobId: string,
    endpointId: string,
    outcome: { status: 'Processed' } | { status: 'Failed' | 'Skipped'; error: ProblemBody },
    at: Date,
  ): void {
    this.db.transaction(() => {
      this.statements.update.run({
        job_id: jobId,
        endpoint_id: endpointId,
        status: outcome.status,
        error: outcome.status === 'Processed' ? null : JSON.stringify(outcome.error),
        updated_at: at.toISOString(),
      });
      if (!this.statements.processingForJob.get(jobId)) this.statements.deletePayload.run(jobId);
    })();
  }

  payloadOf(jobId: string): string | undefined {
    return this.statements.payload.get(jobId)?.body;
  }

  /** Deliveries left Processing (by a previous run, at start), oldest first. */
  inProgress(): DeliveryRecord[] {
    return this.statements.inProgress.all().map(fromRow);
  }

  /**
   * `job.webhooks` in the API's shape, in the order of the job's `webhook_ids`; `created_at` is when
   * the endpoint was first called (when it was skipped, for a Skipped one), in the hosted format. Empty
   * until the job's processing has ended, since deliveries are only recorded then.
   */
  deliveriesFor(jobId: string): WebhookResponse[] {
    return this.statements.forJob.all(jobId).map((row) => ({
      id: row.endpoint_id,
      created_at: hostedTimestamp(row.created_at),
      status: row.status,
      error: row.error ? (JSON.parse(row.error) as ProblemBody) : null,
      attempts_count: row.attempts_count,
    }));
  }
}

function prepareStatements(db: Database.Database) {
  return {
    insert: db.prepare<DeliveryRow>(
      `INSERT OR IGNORE INTO webhook_deliveries
         (job_id, endpoint_id, model_id, position, status, attempts_count, created_at, updated_at, error)
       VALUES (@job_id, @endpoint_id, @model_id, @position, @status, @attempts_count, @created_at, @updated_at,
               @error)`,
    ),
    insertPayload: db.prepare<{ job_id: string; body: string }>(
      'INSERT OR REPLACE INTO webhook_payloads (job_id, body) VALUES (@job_id, @body)',
    ),
    countForJob: db.prepare<[string], { count: number }>(
      'SELECT COUNT(*) AS count FROM webhook_deliveries WHERE job_id = ?',
    ),
    find: db.prepare<[string, string], DeliveryRow>(
      'SELECT * FROM webhook_deliveries WHERE job_id = ? AND endpoint_id = ?',
    ),
    forJob: db.prepare<[string], DeliveryRow>(
      'SELECT * FROM webhook_deliveries WHERE job_id = ? ORDER BY position',
    ),
    startAttempt: db.prepare<{ job_id: string; endpoint_id: string; updated_at: string }>(
      `UPDATE webhook_deliveries SET attempts_count = attempts_count + 1, updated_at = @updated_at
       WHERE job_id = @job_id AND endpoint_id = @endpoint_id AND status = 'Processing'`,
    ),
    update: db.prepare<{
      job_id: string;
      endpoint_id: string;
      status: DeliveryStatus;
      error: string | null;
      updated_at: string;
    }>(
      `UPDATE webhook_deliveries SET status = @status, error = @error, updated_at = @updated_at
       WHERE job_id = @job_id AND endpoint_id = @endpoint_id AND status = 'Processing'`,
    ),
    processingForJob: db.prepare<[string], { one: number }>(
      `SELECT 1 AS one FROM webhook_deliveries WHERE job_id = ? AND status = 'Processing' LIMIT 1`,
    ),
    payload: db.prepare<[string], { body: string }>('SELECT body FROM webhook_payloads WHERE job_id = ?'),
    deletePayload: db.prepare<[string]>('DELETE FROM webhook_payloads WHERE job_id = ?'),
    inProgress: db.prepare<[], DeliveryRow>(
      `SELECT * FROM webhook_deliveries WHERE status = 'Processing' ORDER BY created_at, job_id, position`,
    ),
  };
}
