/**
 * The retention purge's log and its lease (issue 22, migration 0016-purge-log).
 *
 * The log: one row per purge that did something or failed (a copy's sweep or `npm run documents --
 * purge`), with which copy ran it and what it did per model; a purge that found nothing due replaces
 * the previous such row, so the admins see the last check and the purges that mattered, and an hourly
 * sweep does not fill the table. It names documents by count only: no file name, no value.
 *
 * The lease: one purge at a time across every copy and the command. It is a job of the background
 * table (background/job-table.ts, kind `retention-purge`, one row) claimed with the same conditional
 * statement as every background job: a copy that dies mid-purge leaves its lease to run out.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { ReviewDatabase } from '../db/open-database';
import type { PurgeRunRow } from '../db/schema';
import { ensureJob, JobTable, type LeasedJob } from '../background/job-table';
import type { PurgeRun } from '../background/retention-purge';

export type { PurgeRun };

export const PURGE_JOB_KIND = 'retention-purge';
const PURGE_JOB_KEY = 'all';
/** Longer than any purge's pass (at most maxBatches × batch documents, a statement each). */
export const PURGE_LEASE_MS = 15 * 60 * 1000;
/** Runs that purged something are kept this long. */
const KEEP_RUNS_MS = 400 * 24 * 60 * 60 * 1000;

const ModelCounts = z.object({
  apiVersion: z.enum(['v2', 'v1']),
  model: z.string(),
  filesRemoved: z.number().int(),
  documentsDeleted: z.number().int(),
});

export type PurgeLease = LeasedJob;

export class PurgeLog {
  private readonly jobs: JobTable;

  constructor(private readonly store: ReviewDatabase) {
    this.jobs = new JobTable(store);
  }

  /** The purge's lease for `owner`, or undefined while another copy (or the command) purges. */
  async acquire(owner: string, now: number): Promise<PurgeLease | undefined> {
    // The one row, made once (never rescheduled here: that would not touch a lease anyway).
    await ensureJob(this.store.db, { kind: PURGE_JOB_KIND, key: PURGE_JOB_KEY, runAt: 0 }, now);
    return this.jobs.claim({ kind: PURGE_JOB_KIND, owner, now, leaseMs: PURGE_LEASE_MS });
  }

  /** Gives the lease back: the next purge, of any copy, may start at once. */
  async release(lease: PurgeLease, now: number): Promise<void> {
    await this.jobs.again(lease, now, now);
  }

  /** Keeps `run` (a purge that did nothing replaces the last such entry). */
  async record(run: Omit<PurgeRun, 'id'>): Promise<PurgeRun> {
    const id = randomUUID();
    const empty = run.filesRemoved === 0 && run.documentsDeleted === 0 && run.errors.length === 0;
    await this.store.db.transaction().execute(async (trx) => {
      if (empty)
        await trx
          .deleteFrom('purge_runs')
          .where('files_removed', '=', 0)
          .where('documents_deleted', '=', 0)
          .where('errors_json', '=', '[]')
          .execute();
      await trx
        .deleteFrom('purge_runs')
        .where('started_at', '<', run.startedAt - KEEP_RUNS_MS)
        .execute();
      await trx
        .insertInto('purge_runs')
        .values({
          id,
          started_at: run.startedAt,
          finished_at: run.finishedAt,
          copy: run.copy,
          trigger: run.trigger,
          files_removed: run.filesRemoved,
          documents_deleted: run.documentsDeleted,
          models_json: JSON.stringify(run.models),
          errors_json: JSON.stringify(run.errors),
        })
        .execute();
    });
    return { id, ...run };
  }

  /** The latest runs, newest first. */
  async list(limit: number): Promise<PurgeRun[]> {
    const rows = await this.store.db
      .selectFrom('purge_runs')
      .selectAll()
      .orderBy('started_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map(fromRow);
  }
}

function fromRow(row: PurgeRunRow): PurgeRun {
  return {
    id: row.id,
    startedAt: Number(row.started_at),
    finishedAt: Number(row.finished_at),
    copy: row.copy,
    trigger: row.trigger,
    filesRemoved: Number(row.files_removed),
    documentsDeleted: Number(row.documents_deleted),
    models: z.array(ModelCounts).parse(JSON.parse(row.models_json)),
    errors: z.array(z.string()).parse(JSON.parse(row.errors_json)),
  };
}
