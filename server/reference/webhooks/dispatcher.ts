/**
 * Delivers a finished job to the webhook endpoints its enqueue listed (`webhook_ids`), in the
 * background: the job is already final when deliveries start, and polling shows each one
 * `Processing`, then `Processed`, `Failed` or `Skipped` (docs/reference-webhooks-rag.md).
 *
 * - Each attempt POSTs the same compact JSON with `X-Signature` (shared/webhook-signature.ts), one
 *   fresh connection, a time-out, no redirect followed (post-webhook.ts).
 * - Anything but a 2xx (3xx included), a time-out or a connection error is retried after a bounded
 *   exponential backoff with jitter (longer when the receiver sends `Retry-After`), until the last
 *   attempt, which makes the delivery `Failed` with that attempt's problem.
 * - The endpoint (URL, secret) is looked up again before each attempt, so a fixed models file takes
 *   effect on the next attempt or the next start.
 * - At shutdown (`close`), attempts in flight are cut short and the deliveries stay `Processing`;
 *   `resumeInterrupted` at the next start carries them on, so none stays `Processing` for good.
 */
import type { ProblemBody } from '@extraction-review/contract/problem';
import { dateOf, systemClock, type Clock } from '@extraction-review/server-kit/clock';
import type { ExtractionInference, WebhookResponse } from '@extraction-review/document-text/api-types';
import type { DeliveryRecord, NewDelivery, WebhookDeliveryStore } from './delivery-store';
import { webhookPayload, type FinishedJob } from './payload';
import { endpointUrl, postWebhook, type AttemptOutcome } from '@extraction-review/server-kit/post-webhook';
import {
  DEFAULT_RETRY_POLICY,
  describeFailedAttempt,
  retryDelay,
  type RetryPolicy,
} from '@extraction-review/server-kit/retry-policy';
import { SIGNATURE_HEADER, signPayload } from '@extraction-review/server-kit/webhook-signature';
import { webhookProblems } from './webhook-problems';
import { componentLogger } from '@extraction-review/server-kit/logger';

const logger = componentLogger('reference webhooks');

export interface WebhookEndpoint {
  id: string;
  url: string;
  /** The endpoint's signing secret (the models file's `secret`, or the environment variable it names). */
  secret: string;
  /**
   * The headers that carry the signature; default `X-Signature` (v2). The v1 endpoints name theirs
   * (v1/v1-webhooks.ts): the signing is the same, only the header differs.
   */
  signatureHeaders?: readonly string[];
}

/** The endpoint `endpointId` configured on model `modelId`, or undefined when there is none. */
export type EndpointResolver = (modelId: string, endpointId: string) => WebhookEndpoint | undefined;

// The policy is shared with the app server's way back (shared/retry-policy.ts).
export { DEFAULT_RETRY_POLICY, type RetryPolicy };

export const WEBHOOK_USER_AGENT = 'extraction-review-reference-service/0.1 (webhooks)';

export interface WebhookDispatcherOptions {
  store: WebhookDeliveryStore;
  resolveEndpoint: EndpointResolver;
  retry?: Partial<RetryPolicy>;
  userAgent?: string;
  /** 0..1; the jitter's source. Default Math.random. */
  random?: () => number;
  /** Where a delivery that finally failed is reported. Default the process's logger (warn). */
  log?: (message: string) => void;
  /** When deliveries are recorded, attempted, retried and finished; default the system's. */
  clock?: Clock;
}

export class WebhookDispatcher {
  private readonly store: WebhookDeliveryStore;
  private readonly policy: RetryPolicy;
  private readonly clock: Clock;
  private readonly running = new Map<string, Promise<void>>();
  private readonly stopping = new AbortController();

  constructor(private readonly options: WebhookDispatcherOptions) {
    this.store = options.store;
    this.policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.clock = options.clock ?? systemClock;
    if (this.policy.maxAttempts < 1) throw new Error('maxAttempts must be at least 1');
  }

  /**
   * Records the deliveries of a job that just reached its final state, then starts them. Call it once
   * the job is stored as final (or in the same transaction): until then `job.webhooks` must stay empty.
   * `inference` is the processed job's; a failed job has none, and its endpoints receive the failure
   * payload (payload.ts). The recording is synchronous, so the next poll already lists the deliveries.
   */
  jobFinished(
    job: FinishedJob & { webhookIds: readonly string[] },
    inference?: { body: ExtractionInference },
  ): void {
    if (job.webhookIds.length === 0) return;
    this.announce(job, job.webhookIds, webhookPayload(job, inference));
  }

  /**
   * Records and starts the deliveries of `payload` (the exact bytes to send) to the endpoints
   * `endpointIds` of `job.modelId`: what `jobFinished` does with the v2 payload, for any owner of
   * endpoints the resolver knows (v1 products too, v1/v1-webhooks.ts).
   */
  announce(job: { id: string; modelId: string }, endpointIds: readonly string[], payload: string): void {
    const ids = [...new Set(endpointIds.map((id) => id.trim().toLowerCase()))].filter((id) => id !== '');
    if (ids.length === 0) return;
    const deliveries = ids.map((endpointId): NewDelivery => {
      const target = this.target(job.modelId, endpointId);
      return 'refused' in target
        ? { endpointId, status: 'Skipped', error: target.refused }
        : { endpointId, status: 'Processing', error: null };
    });
    // Told twice of one job (a repeated hook), the first call's deliveries stand.
    if (!this.store.record(job, deliveries, payload, dateOf(this.clock))) return;
    // Stopping: recorded all the same, for resumeInterrupted at the next start.
    if (this.stopping.signal.aborted) return;
    for (const delivery of deliveries) {
      if (delivery.status === 'Processing') this.start(job.id, delivery.endpointId, this.policy.maxAttempts);
    }
  }

  /** `job.webhooks` for the job service: empty until the job's processing has ended. */
  deliveriesFor(jobId: string): WebhookResponse[] {
    return this.store.deliveriesFor(jobId);
  }

  /**
   * Carries on the deliveries a previous run left `Processing`, each with its remaining attempts and
   * at least one (an attempt cut short by the shutdown counted, but its outcome is unknown).
   */
  resumeInterrupted(): { resumed: number } {
    let resumed = 0;
    for (const delivery of this.store.inProgress()) {
      if (this.running.has(key(delivery.jobId, delivery.endpointId))) continue;
      this.start(
        delivery.jobId,
        delivery.endpointId,
        Math.max(this.policy.maxAttempts, delivery.attemptsCount + 1),
      );
      resumed++;
    }
    return { resumed };
  }

  /** Resolves once no delivery is in progress in this process (for tests and orderly shutdowns). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running.values()]);
  }

  /**
   * Stops: attempts in flight are cut short, waits are ended, and the deliveries concerned stay
   * `Processing` for `resumeInterrupted` at the next start. Call it before closing the database.
   */
  async close(): Promise<void> {
    this.stopping.abort();
    await this.idle();
  }

  private start(jobId: string, endpointId: string, maxAttempts: number): void {
    const id = key(jobId, endpointId);
    if (this.running.has(id)) return;
    // After the current synchronous work: a caller's transaction that recorded the rows has committed.
    const run = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.deliver(jobId, endpointId, maxAttempts))
      .catch((error: unknown) => {
        // A broken database is the only way here; the delivery stays Processing for the next start.
        logger.error({ err: error, delivery_id: id }, 'a webhook delivery stopped');
      })
      .finally(() => this.running.delete(id));
    this.running.set(id, run);
  }

  private async deliver(jobId: string, endpointId: string, maxAttempts: number): Promise<void> {
    const signal = this.stopping.signal;
    for (;;) {
      if (signal.aborted) return;
      const delivery = this.store.find(jobId, endpointId);
      if (delivery?.status !== 'Processing') return;
      const payload = this.store.payloadOf(jobId);
      if (payload === undefined) {
        return this.fail(
          delivery,
          webhookProblems.interrupted('The payload of this delivery was lost; it cannot be sent again.'),
        );
      }
      // The models file may have changed since the job finished (or since the previous run).
      const target = this.target(delivery.modelId, endpointId);
      if ('refused' in target) return this.fail(delivery, target.refused);
      const { endpoint, url } = target;

      const attempt = this.store.startAttempt(jobId, endpointId, dateOf(this.clock));
      const signature = signPayload(endpoint.secret, payload);
      const signed = (endpoint.signatureHeaders ?? [SIGNATURE_HEADER]).map((name) => [name, signature]);
      const outcome = await postWebhook(url, Buffer.from(payload, 'utf8'), {
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': this.options.userAgent ?? WEBHOOK_USER_AGENT,
          ...Object.fromEntries(signed),
        },
        timeoutMs: this.policy.attemptTimeoutMs,
        signal,
      });
      if (outcome.kind === 'aborted') return;
      if (outcome.kind === 'delivered') {
        this.store.finish(jobId, endpointId, { status: 'Processed' }, dateOf(this.clock));
        return;
      }
      const last = attempt >= maxAttempts;
      const error = this.attemptProblem(outcome, attempt, maxAttempts);
      if (last) return this.fail({ ...delivery, attemptsCount: attempt }, error);
      this.store.recordRetry(jobId, endpointId, error, dateOf(this.clock));
      const wait = this.backoff(attempt, outcome.kind === 'status' ? outcome.retryAfterMs : null);
      if (!(await sleep(wait, signal))) return;
    }
  }

  /** The endpoint to call and its URL, or why it cannot be called at all. */
  private target(
    modelId: string,
    endpointId: string,
  ): { endpoint: WebhookEndpoint; url: URL } | { refused: ProblemBody } {
    const endpoint = this.options.resolveEndpoint(modelId, endpointId);
    if (!endpoint) {
      return {
        refused: webhookProblems.endpointNotFound(
          `No webhook endpoint with the id ${endpointId} is configured on the model ${modelId}, so it was not called.`,
        ),
      };
    }
    const url = endpointUrl(endpoint.url);
    if (typeof url === 'string') {
      return { refused: webhookProblems.invalidUrl(`${url} The endpoint ${endpointId} was not called.`) };
    }
    return { endpoint, url };
  }

  private fail(delivery: DeliveryRecord, error: ProblemBody): void {
    this.store.finish(delivery.jobId, delivery.endpointId, { status: 'Failed', error }, dateOf(this.clock));
    (this.options.log ?? ((line: string) => logger.warn(line)))(
      `[reference] webhook ${delivery.endpointId} of job ${delivery.jobId} failed after ` +
        `${delivery.attemptsCount} attempt(s): ${error.detail}`,
    );
  }

  private attemptProblem(
    outcome: Exclude<AttemptOutcome, { kind: 'delivered' | 'aborted' }>,
    attempt: number,
    maxAttempts: number,
  ): ProblemBody {
    const detail = describeFailedAttempt(outcome, attempt, maxAttempts, this.policy.attemptTimeoutMs);
    return outcome.kind === 'timeout'
      ? webhookProblems.timedOut(detail)
      : webhookProblems.deliveryFailed(detail);
  }

  /** Before retry n (after attempt n failed): the shared policy's backoff (shared/retry-policy.ts). */
  private backoff(attempt: number, retryAfterMs: number | null): number {
    return retryDelay(this.policy, attempt, retryAfterMs, this.options.random);
  }
}

const key = (jobId: string, endpointId: string): string => `${jobId}/${endpointId}`;

/** True after `ms`; false as soon as `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
