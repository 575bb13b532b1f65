/**
 * One retention purge (issue 22): the models' retention rules applied now (store/retention-sweep.ts),
 * batch after batch, the purged files removed once their rows are committed, and what it did kept in
 * the purge log (store/purge-log.ts) for the admins' page. Run by each copy's housekeeping loop and by
 * `npm run documents -- purge`, but by one of them at a time: it first takes the purge's lease, and a
 * purge that finds it held does nothing (`busy`).
 */
import { hostname } from 'node:os';
import type { Clock } from '@extraction-review/server-kit/clock';
import type { FileStorage } from '../files/file-storage';
import type { LeasedJob } from './job-table';

// What the purge needs of the store, by shape (the store imports this folder, not the reverse):
// QueueStore.sweepRetention (store/retention-sweep.ts) and PurgeLog (store/purge-log.ts).

/** What one purge did to one model. */
export interface ModelCounts {
  apiVersion: 'v2' | 'v1';
  model: string;
  filesRemoved: number;
  documentsDeleted: number;
}

/** One purge, as the purge log keeps it. */
export interface PurgeRun {
  id: string;
  startedAt: number;
  finishedAt: number;
  copy: string;
  trigger: 'sweep' | 'command';
  filesRemoved: number;
  documentsDeleted: number;
  models: ModelCounts[];
  errors: string[];
}

export interface PurgeDeps {
  queue: {
    sweepRetention(
      now: number,
      options: { batch?: number },
    ): Promise<{
      items: { action: 'remove_file' | 'delete_document'; apiVersion: 'v2' | 'v1'; model: string }[];
      removedFileKeys: string[];
      more: boolean;
    }>;
  };
  files?: Pick<FileStorage, 'remove'> | undefined;
  log: {
    acquire(owner: string, now: number): Promise<LeasedJob | undefined>;
    release(lease: LeasedJob, now: number): Promise<void>;
    record(run: Omit<PurgeRun, 'id'>): Promise<PurgeRun>;
  };
  clock: Clock;
}

export interface PurgeOptions {
  /** Who holds the lease (a copy's housekeeping, or the command's run). */
  owner: string;
  /** Said in the log: which copy, or the command. */
  copy: string;
  trigger: PurgeRun['trigger'];
  batch?: number;
  /** Batches before giving the lease back (the loop's next pass goes on); unbounded for the command. */
  maxBatches?: number;
}

export type PurgeOutcome = { busy: true } | { busy: false; run: PurgeRun; more: boolean };

/** This process, as the purge log names it. */
export const thisCopy = (): string => `${hostname()} (pid ${process.pid})`;

export async function runPurge(deps: PurgeDeps, options: PurgeOptions): Promise<PurgeOutcome> {
  const startedAt = deps.clock.now();
  const lease = await deps.log.acquire(options.owner, startedAt);
  if (lease === undefined) return { busy: true };
  const models = new Map<string, ModelCounts>();
  const errors: string[] = [];
  let more = false;
  let failure: unknown;
  try {
    const maxBatches = options.maxBatches ?? Number.POSITIVE_INFINITY;
    for (let i = 0; i < maxBatches; i++) {
      const pass = await deps.queue.sweepRetention(deps.clock.now(), { batch: options.batch });
      for (const item of pass.items) {
        const key = `${item.apiVersion} ${item.model}`;
        const counts = models.get(key) ?? {
          apiVersion: item.apiVersion,
          model: item.model,
          filesRemoved: 0,
          documentsDeleted: 0,
        };
        if (item.action === 'remove_file') counts.filesRemoved++;
        else counts.documentsDeleted++;
        models.set(key, counts);
      }
      for (const key of pass.removedFileKeys) {
        await deps.files?.remove(key).catch((error: unknown) => {
          // The row no longer names it: the start's orphan sweep removes it later.
          errors.push(
            `A kept file could not be removed (left for the orphan-file sweep): ${describe(error)}`,
          );
        });
      }
      more = pass.more;
      if (!pass.more) break;
    }
  } catch (error) {
    failure = error;
    errors.push(`The purge stopped: ${describe(error)}`);
  }
  const list = [...models.values()].sort(
    (a, b) => a.apiVersion.localeCompare(b.apiVersion) || a.model.localeCompare(b.model),
  );
  try {
    const run = await deps.log.record({
      startedAt,
      finishedAt: deps.clock.now(),
      copy: options.copy,
      trigger: options.trigger,
      filesRemoved: list.reduce((sum, m) => sum + m.filesRemoved, 0),
      documentsDeleted: list.reduce((sum, m) => sum + m.documentsDeleted, 0),
      models: list,
      errors,
    });
    if (failure !== undefined) throw failure;
    return { busy: false, run, more };
  } finally {
    // Given back even when the store failed: if it cannot be, it runs out (PURGE_LEASE_MS).
    await deps.log.release(lease, deps.clock.now()).catch(() => undefined);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
