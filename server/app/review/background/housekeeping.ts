/**
 * A copy's housekeeping (issue 22), on the loop that cannot crash the process (background-loop.ts):
 * every pass sweeps expired sessions, spent or expired set-up and password links, and the limits'
 * counters whose window is over (store/request-limits.ts), folds the queue counts' waiting changes
 * (store/queue-counts.ts), and (unless RETENTION_SWEEP_INTERVAL_MS
 * is 0) runs the retention purge (retention-purge.ts): each model's rule applied, the kept files of
 * what it purged removed once the rows are committed, the run kept in the purge log for the admins.
 *
 * Every copy runs the loop. The session sweep's writes are conditional, batch-limited statements that
 * copies share; the purge runs in one copy at a time (its lease: store/purge-log.ts), a copy finding it
 * held skips it. A pass takes at most `maxBatches` batches of each; a full last batch wakes the next
 * pass at once.
 */
import { randomUUID } from 'node:crypto';
import type { KeptFileStorage } from '../files/file-storage';
import type { Clock } from '@extraction-review/server-kit/clock';
import { BackgroundLoop } from './background-loop';
import { runPurge, thisCopy, type PurgeDeps } from './retention-purge';
import { componentLogger } from '@extraction-review/server-kit/logger';

const logger = componentLogger('review retention');

export const DEFAULT_HOUSEKEEPING_INTERVAL_MS = 60 * 60 * 1000;
/** Rows per statement (store/retention-sweep.ts's RETENTION_BATCH; the store is not imported here). */
const BATCH = 200;

/** What the loop needs of the store (QueueStore.sweepRetention, SessionStore.deleteExpired, PurgeLog). */
interface SessionSweeper {
  deleteExpired(now: number, batch?: number): Promise<{ sessions: number; links: number }>;
}
interface CounterSweeper {
  deleteExpired(now: number, batch?: number): Promise<number>;
}

export interface HousekeepingOptions {
  review: {
    /** With its kept counts (store/queue-counts.ts), whose waiting changes each pass folds in. */
    queue: PurgeDeps['queue'] & { counts?: { fold(): Promise<void> } };
    sessions: SessionSweeper;
    /** The sign-in, link and integration counters (RequestLimits); none: not swept. */
    limits?: CounterSweeper | undefined;
    files?: Pick<KeptFileStorage, 'remove'> | undefined;
    clock: Clock;
  };
  /** The purge's lease and log (store/purge-log.ts). */
  purgeLog: PurgeDeps['log'];
  /** RETENTION_SWEEP_INTERVAL_MS: the pause between passes; 0: no retention purge (sessions still swept hourly). */
  intervalMs: number;
  batch?: number;
  maxBatches?: number;
}

export interface HousekeepingPass {
  sessions: number;
  links: number;
  /** Counters of the request limits past their window. */
  counters: number;
  filesRemoved: number;
  documentsDeleted: number;
  /** A batch came back full: more is due now. */
  more: boolean;
}

export class Housekeeping {
  readonly loop: BackgroundLoop;
  private readonly retention: boolean;
  /** This copy's hold on the purge's lease. */
  private readonly owner = randomUUID();

  constructor(private readonly options: HousekeepingOptions) {
    this.retention = options.intervalMs > 0;
    this.loop = new BackgroundLoop({
      name: '[review housekeeping] the sweep of sessions and retention',
      intervalMs: this.retention ? options.intervalMs : DEFAULT_HOUSEKEEPING_INTERVAL_MS,
      run: async () => {
        const pass = await this.runOnce();
        if (pass.more) this.loop.wake();
      },
    });
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** One pass (tests call it with a fake clock). Throws what the store throws: the loop handles it. */
  async runOnce(): Promise<HousekeepingPass> {
    const { review } = this.options;
    const batch = this.options.batch ?? BATCH;
    const maxBatches = this.options.maxBatches ?? 10;
    const pass: HousekeepingPass = {
      sessions: 0,
      links: 0,
      counters: 0,
      filesRemoved: 0,
      documentsDeleted: 0,
      more: false,
    };
    // The queue's counts read their waiting changes too; folding them here keeps those few even in a
    // deployment where nobody reads the counts (pipelines only, no metrics).
    await review.queue.counts?.fold();
    for (let i = 0; i < maxBatches; i++) {
      const swept = await review.sessions.deleteExpired(review.clock.now(), batch);
      pass.sessions += swept.sessions;
      pass.links += swept.links;
      pass.more = swept.sessions >= batch || swept.links >= batch;
      if (!pass.more) break;
    }
    if (review.limits !== undefined) {
      for (let i = 0; i < maxBatches; i++) {
        // Two tables, at most `batch` rows of each: a sum of `batch` may mean one is full (one more round).
        const swept = await review.limits.deleteExpired(review.clock.now(), batch);
        pass.counters += swept;
        const full = swept >= batch;
        pass.more ||= full && i === maxBatches - 1;
        if (!full) break;
      }
    }
    if (this.retention) {
      const purged = await runPurge(
        { queue: review.queue, files: review.files, log: this.options.purgeLog, clock: review.clock },
        { owner: this.owner, copy: thisCopy(), trigger: 'sweep', batch, maxBatches },
      );
      if (!purged.busy) {
        pass.filesRemoved = purged.run.filesRemoved;
        pass.documentsDeleted = purged.run.documentsDeleted;
        pass.more ||= purged.more;
        for (const error of purged.run.errors) logger.error({ error }, 'the retention purge failed in part');
      }
    }
    if (pass.filesRemoved > 0 || pass.documentsDeleted > 0)
      logger.info(
        { files_removed: pass.filesRemoved, documents_deleted: pass.documentsDeleted },
        'kept files removed and documents deleted past their model’s retention (tombstones in the audit log, the run in the purge log)',
      );
    return pass;
  }
}
