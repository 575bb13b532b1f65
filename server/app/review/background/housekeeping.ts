/**
 * A copy's housekeeping (issue 22), on the loop that cannot crash the process (background-loop.ts):
 * every pass sweeps expired sessions, spent or expired set-up and password links, and the limits'
 * counters whose window is over (store/request-limits.ts), and (unless
 * RETENTION_SWEEP_INTERVAL_MS is 0) applies each model's retention rule (store/retention-sweep.ts),
 * then removes the kept files of what it purged once the rows are committed.
 *
 * Every copy runs it. Each write is a conditional, batch-limited statement, so two copies sweeping at
 * once share the work without doing any twice (a document one deleted is not there for the other). A
 * pass takes at most `maxBatches` batches of each; a full last batch wakes the next pass at once.
 */
import type { KeptFileStorage } from '../files/file-storage';
import { removeKeptFiles } from '../files/remove-kept-files';
import type { Clock } from '@extraction-review/server-kit/clock';
import { BackgroundLoop } from './background-loop';
import { componentLogger } from '@extraction-review/server-kit/logger';

const logger = componentLogger('review retention');

export const DEFAULT_HOUSEKEEPING_INTERVAL_MS = 60 * 60 * 1000;
/** Rows per statement (store/retention-sweep.ts's RETENTION_BATCH; the store is not imported here). */
const BATCH = 200;

/** What the loop needs of the store (QueueStore.sweepRetention, SessionStore.deleteExpired). */
interface Sweepers {
  sweepRetention(
    now: number,
    options: { batch?: number },
  ): Promise<{
    items: { action: 'remove_file' | 'delete_document' }[];
    removedFileKeys: string[];
    more: boolean;
  }>;
}
interface SessionSweeper {
  deleteExpired(now: number, batch?: number): Promise<{ sessions: number; links: number }>;
}
interface CounterSweeper {
  deleteExpired(now: number, batch?: number): Promise<number>;
}

export interface HousekeepingOptions {
  review: {
    queue: Sweepers;
    sessions: SessionSweeper;
    /** The sign-in, link and integration counters (RequestLimits); none: not swept. */
    limits?: CounterSweeper | undefined;
    files?: Pick<KeptFileStorage, 'remove'> | undefined;
    clock: Clock;
  };
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
      for (let i = 0; i < maxBatches; i++) {
        const purged = await review.queue.sweepRetention(review.clock.now(), { batch });
        await removeKeptFiles(review.files, purged.removedFileKeys);
        for (const item of purged.items) {
          if (item.action === 'remove_file') pass.filesRemoved++;
          else pass.documentsDeleted++;
        }
        pass.more ||= purged.more && i === maxBatches - 1;
        if (!purged.more) break;
      }
    }
    if (pass.filesRemoved > 0 || pass.documentsDeleted > 0)
      logger.info(
        { files_removed: pass.filesRemoved, documents_deleted: pass.documentsDeleted },
        'kept files removed and documents deleted past their model’s retention (tombstones in the audit log)',
      );
    return pass;
  }
}
