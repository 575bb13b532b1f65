/**
 * What the metrics read of the review store, counted at most every `maxAgeMs` (default 15 s) and
 * kept: the documents by state and model (the counts the store keeps), the outbox's pending deliveries, the oldest job waiting to
 * be followed. A scrape reads the kept figures and, when they are older than `maxAgeMs`, counts them
 * again first (one grouped count per refresh, never one per scrape however many scrapers there are:
 * concurrent scrapes share one refresh). A refresh that fails (the database away) keeps the last
 * figures and counts the failure; it never fails the scrape.
 */
import { sql } from 'kysely';
import type { Clock } from '@extraction-review/server-kit/clock';
import { componentLogger } from '@extraction-review/server-kit/logger';
import type { ReviewDatabase } from '../review/db/open-database';
import { FOLLOW_KIND } from '../review/intake/job-follower';
import { QueueCounts } from '../review/store/queue-counts';

const logger = componentLogger('metrics');

export const DEFAULT_SNAPSHOT_MAX_AGE_MS = 15_000;

export interface StoreFigures {
  /** Documents by stored state and model. */
  documents: { state: string; model: string; count: number }[];
  /** Deliveries of the outbox still to send (`pending`). */
  pendingDeliveries: number;
  /** When the oldest job due to be followed was due (ms), or null when none waits. */
  oldestFollowDueAt: number | null;
}

export interface StoreSnapshotOptions {
  database: ReviewDatabase;
  /** The queue store's kept counts (their folds shared with its reads); else a reader of its own. */
  counts?: QueueCounts | undefined;
  clock: Clock;
  maxAgeMs?: number;
  /** Told of each failed refresh (the metrics' failure counter). */
  onFailure?: () => void;
}

export class StoreSnapshot {
  private figures: StoreFigures | undefined;
  private countedAt = Number.NEGATIVE_INFINITY;
  private refreshing: Promise<void> | undefined;
  private readonly maxAgeMs: number;
  private readonly counts: QueueCounts;

  constructor(private readonly options: StoreSnapshotOptions) {
    this.maxAgeMs = options.maxAgeMs ?? DEFAULT_SNAPSHOT_MAX_AGE_MS;
    this.counts = options.counts ?? new QueueCounts(options.database);
  }

  /** The figures, counted again first when stale; the last ones (or none yet) when that fails. */
  async read(): Promise<StoreFigures | undefined> {
    if (this.options.clock.now() - this.countedAt >= this.maxAgeMs) {
      this.refreshing ??= this.refresh().finally(() => {
        this.refreshing = undefined;
      });
      await this.refreshing;
    }
    return this.figures;
  }

  private async refresh(): Promise<void> {
    const startedAt = this.options.clock.now();
    try {
      this.figures = await count(this.options.database, this.counts, startedAt);
    } catch (error) {
      this.options.onFailure?.();
      logger.warn({ err: error }, 'the metrics could not count the review store; the last figures are kept');
    } finally {
      // A failure waits as long as a success before the next try: a database away is not hammered.
      this.countedAt = startedAt;
    }
  }
}

async function count(database: ReviewDatabase, counts: QueueCounts, now: number): Promise<StoreFigures> {
  const { db } = database;
  // The counts the store's triggers keep (migration 0018): a few rows, never a walk of the documents.
  const documents = await counts.byModel(now);
  const pending = await db
    .selectFrom('deliveries')
    .select(sql<number | string>`count(*)`.as('count'))
    .where('state', '=', 'pending')
    .executeTakeFirst();
  const oldest = await db
    .selectFrom('background_jobs')
    .select(sql<number | string | null>`min(run_at)`.as('due'))
    .where('kind', '=', FOLLOW_KIND)
    .where('state', '=', 'pending')
    .executeTakeFirst();
  return {
    // PostgreSQL's count(*) is a bigint, which pg hands over as a string.
    documents,
    pendingDeliveries: Number(pending?.count ?? 0),
    oldestFollowDueAt: oldest?.due === null || oldest?.due === undefined ? null : Number(oldest.due),
  };
}
