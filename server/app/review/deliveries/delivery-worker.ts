/**
 * Sends the way back's deliveries (written by the outbox at confirmation, deliveries-on-confirm.ts) until each is
 * delivered, with the reference service's retry policy (shared/retry-policy.ts: 5 attempts, 1 s
 * doubling to 60 s with jitter, `Retry-After` honoured, 10 s per attempt; docs/gateway.md):
 *
 * - each delivery is a job of the copies' background work (kind `delivery`, background/README.md),
 *   taken under a lease with the table of leased jobs' one claim statement; the delivery's own lease
 *   is taken too (delivery-store.ts `take`, what older releases send with), so app-server copies
 *   sharing one PostgreSQL never send one at the same time; each attempt is recorded with its outcome;
 * - the webhook's URL and secret are read again before each attempt (an admin may have fixed them),
 *   and its address checked again (shared/webhook-address.ts: public addresses only unless
 *   ALLOW_PRIVATE_WEBHOOKS names it; the name resolved once and the connection pinned to the address
 *   checked): a refused address fails the delivery at once with the reason, a name that does not
 *   resolve is a failed attempt, retried like any other;
 * - an attempt is one request through the upstream client (app/upstream/deliver-once.ts: no redirect
 *   followed, a fresh connection, the same bytes each time, a webhook's connection pinned to the
 *   address checked; feedback and RAG with the upstream's key, v1-upstream.ts, v2-upstream.ts);
 *   anything but a 2xx is retried after the backoff, which is a time in the row (`next_attempt_at`,
 *   and its job's `run_at`), not a timer, so a restart or another copy carries on where this one
 *   stopped;
 * - after the last attempt the delivery is `failed`, shown to admins, who may retry it.
 *
 * The worker looks for due deliveries every second, and at once when woken (a confirmation); a
 * pending delivery without a job (written by an older copy, or before migration 0006) gets one at the
 * start of each pass. Its loop never ends the process (background/background-loop.ts): while the database is away a pass fails, is
 * told once per kind of failure, and the next waits longer (up to 30 s). On stop() it gives back the
 * deliveries it holds, so another copy sends them at once rather than when their leases run out.
 */
import { deliverOnce } from '../../upstream/deliver-once';
import type { Upstream } from '../../upstream/upstream-client';
import { V1Upstream } from '../../upstream/v1-upstream';
import { V2Upstream } from '../../upstream/v2-upstream';
import { endpointUrl } from '@extraction-review/server-kit/post-webhook';
import {
  DEFAULT_RETRY_POLICY,
  describeFailedAttempt,
  retryDelay,
  type AttemptOutcome,
  type RetryPolicy,
} from '@extraction-review/server-kit/retry-policy';
import { WebhookAddressGuard } from '@extraction-review/server-kit/webhook-address';
import { again, BackgroundRunner, done, type JobHandler, type JobOutcome } from '../background/job-runner';
import { SIGNATURE_HEADER, signPayload } from '@extraction-review/server-kit/webhook-signature';
import type { ReviewDatabase } from '../db/open-database';
import type { DeliveryRow } from '../db/schema';
import { findWebhookTarget } from '../store/integration-store';
import { findUpstreamResultOf } from '../store/queue-store';
import { DELIVERY_KIND, DeliveryStore } from './delivery-store';
import { WEBHOOK_EVENT } from './build-payloads';
import type { Clock } from '@extraction-review/server-kit/clock';
import { componentLogger } from '@extraction-review/server-kit/logger';

const logger = componentLogger('way back');

export const DELIVERY_USER_AGENT = 'extraction-review/0.1 (way back)';
/** Each attempt names its delivery, the same at every attempt: a receiver can drop a repeat. */
export const DELIVERY_HEADER = 'X-Review-Delivery';
export const EVENT_HEADER = 'X-Review-Event';

const POLL_MS = 1_000;
const LANES = 4;
/** A lease outlasts an attempt by this much: the time to record it. */
const LEASE_MARGIN_MS = 30_000;

export interface DeliveryWorkerDeps {
  database: ReviewDatabase;
  clock: Clock;
  /** Where v1 feedback and v2 RAG go, with the server's key (as the proxy and the job follower call them). */
  upstream: { v2?: Upstream | undefined; v1?: Upstream | undefined };
  retry?: Partial<RetryPolicy>;
  /** 0..1, the jitter's source. */
  random?: () => number;
  /** How often to look for due deliveries. Default 1 s. */
  pollMs?: number;
  /** Deliveries sent at once by this copy. Default 4. */
  lanes?: number;
  /**
   * Where a delivery that finally failed is reported, and the loop's own failures (once per kind).
   * Default the process's logger (warn).
   */
  log?: (message: string) => void;
  /**
   * Which addresses integrations' webhooks may reach (ALLOW_PRIVATE_WEBHOOKS). Default: public
   * addresses only. The upstreams' own URLs (v1 feedback, v2 RAG) are the server's settings: not checked.
   */
  webhooks?: WebhookAddressGuard;
  /**
   * Told of each attempt's outcome once recorded (the metrics): `delivered`, `status` (another HTTP
   * status), `network`, `timeout`, …, or `refused` (never to be sent: the target is not allowed).
   */
  onAttempt?: (outcome: string) => void;
}

/** One attempt's sending, with the attempt's time-out and the worker's stop signal. */
type Send = (body: Buffer, init: { timeoutMs: number; signal: AbortSignal }) => Promise<AttemptOutcome>;

type Target =
  | { send: Send; who: string }
  /** Never to be sent: the delivery fails now. */
  | { refused: string }
  /** Not sendable now (the webhook's host does not resolve): a failed attempt, retried. */
  | { unreachable: string; who: string };

export class DeliveryWorker {
  private readonly store: DeliveryStore;
  private readonly policy: RetryPolicy;
  private readonly webhooks: WebhookAddressGuard;
  /** The worker as a kind of background work, for a runner shared with other kinds. */
  readonly handler: JobHandler<unknown>;
  private readonly runner: BackgroundRunner;
  /** The deliveries this worker holds now, with their leases: given back at stop(). */
  private readonly held = new Map<number, { delivery: DeliveryRow; leaseUntil: number }>();

  constructor(private readonly deps: DeliveryWorkerDeps) {
    this.store = new DeliveryStore(deps.database);
    this.policy = { ...DEFAULT_RETRY_POLICY, ...deps.retry };
    this.webhooks = deps.webhooks ?? new WebhookAddressGuard();
    if (this.policy.maxAttempts < 1) throw new Error('maxAttempts must be at least 1');
    this.handler = this.deliveryHandler();
    this.runner = new BackgroundRunner({
      name: '[way back] the delivery worker',
      database: deps.database,
      clock: deps.clock,
      handlers: [this.handler],
      intervalMs: deps.pollMs ?? POLL_MS,
      log: deps.log,
    });
  }

  start(): void {
    this.runner.start();
  }

  /**
   * Stops: attempts in flight are cut short, and the deliveries this worker holds are given back, due
   * again at once for another copy. Before closing the store.
   */
  async stop(): Promise<void> {
    await this.runner.stop();
  }

  /** Looks for due deliveries now (a document was just confirmed). */
  wake(): void {
    this.runner.wake();
  }

  /**
   * Sends every delivery due now, until none is. Exposed for tests; the loop runs it in the
   * background. A failure (the database away) is told as the loop tells it, never thrown.
   */
  async drain(): Promise<void> {
    await this.runner.runOnce();
  }

  private deliveryHandler(): JobHandler<unknown> {
    return {
      kind: DELIVERY_KIND,
      // A lease outlasts an attempt by the time to record it.
      leaseMs: this.policy.attemptTimeoutMs + LEASE_MARGIN_MS,
      concurrency: this.deps.lanes ?? LANES,
      adopt: (now) => this.store.adopt(now),
      // The deliveries' own leases, for one a stop found mid-way (normally given back by the attempt).
      release: async () => {
        for (const { delivery, leaseUntil } of [...this.held.values()]) {
          await this.store.release(delivery, leaseUntil);
          this.held.delete(delivery.id);
        }
      },
      run: async ({ key, now, leaseUntil, signal }) => {
        const taken = await this.store.take(Number(key), now, leaseUntil);
        if ('gone' in taken) return done;
        if ('later' in taken) return again(taken.later);
        const { delivery } = taken;
        this.held.set(delivery.id, { delivery, leaseUntil });
        const outcome = await this.attempt(delivery, leaseUntil, signal);
        this.held.delete(delivery.id);
        return outcome;
      },
    };
  }

  /** One attempt, recorded; what becomes of the delivery's job. */
  private async attempt(delivery: DeliveryRow, leaseUntil: number, signal: AbortSignal): Promise<JobOutcome> {
    const started = performance.now();
    const target = await this.target(delivery);
    if ('refused' in target) {
      await this.store.refuse(delivery, leaseUntil, target.refused, this.deps.clock.now());
      this.deps.onAttempt?.('refused');
      this.report(delivery, target.refused);
      return done;
    }
    const outcome: AttemptOutcome =
      'unreachable' in target
        ? { kind: 'network', message: target.unreachable }
        : await target.send(Buffer.from(delivery.payload_json, 'utf8'), {
            timeoutMs: this.policy.attemptTimeoutMs,
            signal,
          });
    const durationMs = performance.now() - started;
    if (outcome.kind === 'aborted') {
      // Stopping: given back, due again at once for another copy.
      await this.store.release(delivery, leaseUntil);
      return again(this.deps.clock.now());
    }
    const at = this.deps.clock.now();
    const attempt = delivery.attempts + 1;
    if (outcome.kind === 'delivered') {
      await this.store.recordAttempt(delivery, leaseUntil, {
        at,
        outcome: 'delivered',
        status: outcome.status,
        error: null,
        durationMs,
        next: { state: 'delivered' },
      });
      this.deps.onAttempt?.('delivered');
      return done;
    }
    const error = describeFailedAttempt(
      outcome,
      attempt,
      this.policy.maxAttempts,
      this.policy.attemptTimeoutMs,
      target.who,
    );
    const last = attempt >= this.policy.maxAttempts;
    const nextAt = at + Math.round(this.backoff(attempt, outcome));
    await this.store.recordAttempt(delivery, leaseUntil, {
      at,
      outcome: outcome.kind,
      status: outcome.kind === 'status' ? outcome.status : null,
      error,
      durationMs,
      next: last ? { state: 'failed' } : { state: 'pending', at: nextAt },
    });
    this.deps.onAttempt?.(outcome.kind);
    if (last) {
      this.report(delivery, error);
      return done;
    }
    return again(nextAt);
  }

  private backoff(
    attempt: number,
    outcome: Exclude<AttemptOutcome, { kind: 'delivered' | 'aborted' }>,
  ): number {
    return retryDelay(
      this.policy,
      attempt,
      outcome.kind === 'status' ? outcome.retryAfterMs : null,
      this.deps.random,
    );
  }

  /** Where this attempt goes and with which headers, read now; or why it cannot be sent. */
  private async target(delivery: DeliveryRow): Promise<Target> {
    const db = this.deps.database.db;
    const json = { 'Content-Type': 'application/json', 'User-Agent': DELIVERY_USER_AGENT };
    if (delivery.kind === 'webhook') {
      const integration =
        delivery.integration_id === null ? undefined : await findWebhookTarget(db, delivery.integration_id);
      if (integration === undefined)
        return { refused: 'The integration was removed: the webhook was not sent.' };
      if (integration.revoked_at !== null)
        return { refused: 'The integration’s key was revoked: the webhook was not sent.' };
      if (integration.webhook_url === null || integration.webhook_url === '')
        return { refused: 'The integration has no webhook URL any more: the webhook was not sent.' };
      const url = endpointUrl(integration.webhook_url);
      if (typeof url === 'string') return { refused: `${url} The webhook was not sent.` };
      // Checked now, not only when it was set: the name may point elsewhere today, and a URL stored
      // before the rule existed is held to it too.
      const vetted = await this.webhooks.vet(url);
      if (vetted.kind === 'refused') return { refused: `${vetted.reason} The webhook was not sent.` };
      if (vetted.kind === 'unresolved') return { unreachable: vetted.reason, who: 'the webhook URL' };
      const headers: Record<string, string> = {
        ...json,
        [DELIVERY_HEADER]: String(delivery.id),
        [EVENT_HEADER]: WEBHOOK_EVENT,
      };
      if (integration.webhook_secret !== null && integration.webhook_secret !== '')
        headers[SIGNATURE_HEADER] = signPayload(integration.webhook_secret, delivery.payload_json);
      // The connection goes to the address checked now, and nowhere else.
      const { pinned } = vetted;
      return {
        send: (body, init) => deliverOnce(url, body, { ...init, method: 'POST', headers, pinned }),
        who: 'the webhook URL',
      };
    }

    const document = await findUpstreamResultOf(db, delivery.document_id);
    const version = delivery.kind === 'v1_feedback' ? 'v1' : 'v2';
    const upstream = this.deps.upstream[version];
    if (upstream === undefined) return { refused: `There is no ${version} upstream to send to.` };
    if (document === undefined) return { refused: 'The document was removed.' };
    if (delivery.kind === 'v1_feedback') {
      const documentId = document.upstream_result_id;
      if (documentId === null) return { refused: 'The document has no v1 document id to send feedback for.' };
      const v1 = new V1Upstream(upstream);
      return {
        send: (body, init) => v1.deliverFeedback(documentId, body, { ...init, headers: json }),
        who: 'the v1 upstream',
      };
    }
    const v2 = new V2Upstream(upstream);
    return {
      send: (body, init) => v2.deliverRagDocument(document.model_key, body, { ...init, headers: json }),
      who: 'the v2 upstream',
    };
  }

  private report(delivery: DeliveryRow, error: string): void {
    (this.deps.log ?? ((line: string) => logger.warn(line)))(
      `[way back] ${delivery.kind} ${delivery.id} of document ${delivery.document_id} failed: ${error}`,
    );
  }
}
