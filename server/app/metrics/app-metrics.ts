/**
 * The app server's metrics (issue 22), in Prometheus' text format through prom-client, on a registry
 * of their own per app (never prom-client's global one: tests open several apps in one process, and
 * each app's figures are its own). docs/operations.md, "Metrics", lists them with example queries.
 *
 * Counted where things happen: the access line's middleware observes every answer (`observeRequest`),
 * the proxy every upstream answer (`observeUpstream`), the delivery worker every attempt
 * (`observeDelivery`), the review's queue store every action (instrument-queue.ts). Read when scraped:
 * the review store's counts (cached, store-snapshot.ts), the pool's connections, the event streams.
 */
import client from 'prom-client';
import { systemClock, type Clock } from '@extraction-review/server-kit/clock';
import type { OpenedReview } from '../review/open-review';
import { instrumentQueue } from './instrument-queue';
import { StoreSnapshot } from './store-snapshot';

export const METRICS_PREFIX = 'extraction_review_';

/** HTTP answers are mostly fast; uploads and the proxy's long calls reach the last buckets. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** A document's review: seconds to hours. */
const REVIEW_BUCKETS = [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 4 * 3600, 24 * 3600];

export type ConfirmedBy = 'auto' | 'operator';

/** A PostgreSQL pool's connections now. */
interface PoolUse {
  total: number;
  idle: number;
  waiting: number;
}

export interface AppMetricsOptions {
  /**
   * The review store: its documents, outbox and jobs read (cached), and its queue's actions counted
   * when `queue` is given (instrument-queue.ts wraps that queue store once).
   */
  review?: (Pick<OpenedReview, 'database' | 'clock'> & Partial<Pick<OpenedReview, 'queue'>>) | undefined;
  clock?: Clock | undefined;
  /** How old the store's counts may be when scraped, in ms. Default 15 s. */
  snapshotMaxAgeMs?: number | undefined;
  /** prom-client's default process metrics (CPU, memory, event loop, …). Default on. */
  processMetrics?: boolean | undefined;
}

export class AppMetrics {
  readonly registry = new client.Registry();
  private readonly httpDuration: client.Histogram<'method' | 'route' | 'status'>;
  private readonly reviewActions: client.Counter<'action'>;
  private readonly reviewSeconds: client.Histogram<'decision'>;
  private readonly waitSeconds: client.Histogram<'decision'>;
  private readonly confirmed: client.Counter<'by'>;
  private readonly deliveryAttempts: client.Counter<'outcome'>;
  private readonly upstreamRequests: client.Counter<'version' | 'status'>;
  private eventClients: () => number = () => 0;
  private pool: (() => PoolUse) | undefined;

  constructor(options: AppMetricsOptions = {}) {
    const registers = [this.registry];
    const clock = options.clock ?? options.review?.clock ?? systemClock;
    if (options.processMetrics !== false) {
      client.collectDefaultMetrics({ register: this.registry, prefix: METRICS_PREFIX });
    }
    this.httpDuration = new client.Histogram({
      name: `${METRICS_PREFIX}http_request_duration_seconds`,
      help: 'HTTP requests answered, by method, route pattern and status: time to the answer',
      labelNames: ['method', 'route', 'status'],
      buckets: HTTP_BUCKETS,
      registers,
    });
    this.reviewActions = new client.Counter({
      name: `${METRICS_PREFIX}review_actions_total`,
      help: 'Review actions done through this copy, by action (take, release, confirm, reject, postpone, …)',
      labelNames: ['action'],
      registers,
    });
    this.reviewSeconds = new client.Histogram({
      name: `${METRICS_PREFIX}review_duration_seconds`,
      help: "Time from an operator's take of a document (on this copy) to their decision, by decision",
      labelNames: ['decision'],
      buckets: REVIEW_BUCKETS,
      registers,
    });
    this.waitSeconds = new client.Histogram({
      name: `${METRICS_PREFIX}review_decision_age_seconds`,
      help: "Time from a document's result (ready for review) to an operator's decision, by decision",
      labelNames: ['decision'],
      buckets: REVIEW_BUCKETS,
      registers,
    });
    this.confirmed = new client.Counter({
      name: `${METRICS_PREFIX}documents_confirmed_total`,
      help: 'Documents confirmed, automatically (the routing found nothing to review) or by an operator',
      labelNames: ['by'],
      registers,
    });
    this.deliveryAttempts = new client.Counter({
      name: `${METRICS_PREFIX}delivery_attempts_total`,
      help: 'Delivery attempts of the outbox (webhooks, feedback) by outcome',
      labelNames: ['outcome'],
      registers,
    });
    this.upstreamRequests = new client.Counter({
      name: `${METRICS_PREFIX}upstream_requests_total`,
      help: 'Requests proxied to the upstream API, by version and status (error: no answer)',
      labelNames: ['version', 'status'],
      registers,
    });
    // The gauges below read this app's sources when scraped (prom-client calls `collect` with the gauge).
    const eventClients = (): number => this.eventClients();
    const pool = (): PoolUse | undefined => this.pool?.();
    new client.Gauge({
      name: `${METRICS_PREFIX}event_stream_clients`,
      help: 'Browsers connected to the event stream (/api/events) of this copy',
      registers,
      collect() {
        this.set(eventClients());
      },
    });
    new client.Gauge({
      name: `${METRICS_PREFIX}db_pool_connections`,
      help: "PostgreSQL pool's connections of this copy by state (open, idle, waiting: requests waiting for one)",
      labelNames: ['state'],
      registers,
      collect() {
        const now = pool();
        if (now === undefined) return;
        this.set({ state: 'open' }, now.total);
        this.set({ state: 'idle' }, now.idle);
        this.set({ state: 'waiting' }, now.waiting);
      },
    });
    const review = options.review;
    if (review !== undefined) {
      if (review.queue !== undefined) instrumentQueue(review.queue, this, clock);
      const pg = review.database.pool;
      if (pg !== undefined) {
        this.pool = () => ({ total: pg.totalCount, idle: pg.idleCount, waiting: pg.waitingCount });
      }
      this.storeGauges(review, clock, options.snapshotMaxAgeMs);
    }
  }

  /** Browsers on the event stream, read when scraped. */
  watchEventStreams(count: () => number): void {
    this.eventClients = count;
  }

  observeRequest(answer: { method: string; route: string; status: number; durationMs: number }): void {
    this.httpDuration.observe(
      { method: answer.method, route: answer.route, status: String(answer.status) },
      answer.durationMs / 1000,
    );
  }

  observeUpstream(version: string, status: number | 'error'): void {
    this.upstreamRequests.inc({ version, status: String(status) });
  }

  observeDelivery(outcome: string): void {
    this.deliveryAttempts.inc({ outcome });
  }

  reviewAction(action: string, count = 1): void {
    if (count > 0) this.reviewActions.inc({ action }, count);
  }

  /** A decision's durations, in ms: since this copy's take (when known), since the result. */
  reviewDecided(decision: string, sinceTakeMs: number | undefined, sinceReadyMs: number | undefined): void {
    if (sinceTakeMs !== undefined) this.reviewSeconds.observe({ decision }, sinceTakeMs / 1000);
    if (sinceReadyMs !== undefined) this.waitSeconds.observe({ decision }, sinceReadyMs / 1000);
  }

  documentConfirmed(by: ConfirmedBy): void {
    this.confirmed.inc({ by });
  }

  /** The text a scrape answers, and its content type. */
  async scrape(): Promise<{ body: string; contentType: string }> {
    return { body: await this.registry.metrics(), contentType: this.registry.contentType };
  }

  private storeGauges(
    review: Pick<OpenedReview, 'database'> & Partial<Pick<OpenedReview, 'queue'>>,
    clock: Clock,
    maxAgeMs: number | undefined,
  ): void {
    const registers = [this.registry];
    let failed = 0;
    const snapshot = new StoreSnapshot({
      database: review.database,
      counts: review.queue?.counts,
      clock,
      maxAgeMs,
      onFailure: () => (failed += 1),
    });
    new client.Gauge({
      name: `${METRICS_PREFIX}queue_documents`,
      help: 'Documents of the review store by state and model (counted at most every 15 s)',
      labelNames: ['state', 'model'],
      registers,
      async collect() {
        const figures = await snapshot.read();
        if (figures === undefined) return;
        // A state and model whose documents are all gone reads 0 rather than its last count.
        this.reset();
        for (const row of figures.documents) this.set({ state: row.state, model: row.model }, row.count);
      },
    });
    new client.Gauge({
      name: `${METRICS_PREFIX}outbox_pending_deliveries`,
      help: 'Deliveries of the outbox (webhooks, feedback) still to send',
      registers,
      async collect() {
        const figures = await snapshot.read();
        if (figures !== undefined) this.set(figures.pendingDeliveries);
      },
    });
    new client.Gauge({
      name: `${METRICS_PREFIX}job_follower_lag_seconds`,
      help: 'How long the oldest upstream job due to be followed has been waiting (0: none is late)',
      registers,
      async collect() {
        const figures = await snapshot.read();
        if (figures === undefined) return;
        const due = figures.oldestFollowDueAt;
        this.set(due === null ? 0 : Math.max(0, clock.now() - due) / 1000);
      },
    });
    new client.Counter({
      name: `${METRICS_PREFIX}metrics_store_refresh_failures_total`,
      help: "Refreshes of the review store's counts that failed (the last counts were kept)",
      registers,
      // Read once this scrape's refresh is over (the collects run at once): its failure counts now.
      async collect() {
        await snapshot.read();
        this.reset();
        this.inc(failed);
      },
    });
  }
}
