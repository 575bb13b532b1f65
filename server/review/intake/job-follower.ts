/**
 * Follows the upstream jobs of documents still `processing` in the review store, and brings each
 * result in: a processed v2 job's inference (or a completed v1 job's document) is fetched with the
 * server's key and stored, and the document enters the queue (`to_review`; or, sent by an
 * integration, confirmed on its own when its model's routing rules say so, routing/route-result.ts);
 * a failed job marks it `failed` with the upstream's problem.
 *
 * It polls as the official clients do (first after ~1.5 s, then backing off to 30 s), reading which
 * documents to follow from the store, so that a restart, or another app-server copy, picks up where
 * this one stopped. Two copies following the same job do no harm: entering the queue happens once
 * (only from `processing`).
 */
import { z } from 'zod';
import { authorizationFor, type Upstream } from '../../app/proxy/create-proxy';
import type { DocumentRow } from '../db/schema';
import type { ReviewContext } from '../http/review-context';
import { setRoutedResult } from '../routing/route-result';
import { countFields } from './count-fields';

const FIRST_CHECK_MS = 1_500;
const MAX_INTERVAL_MS = 30_000;
const TICK_MS = 1_000;
const BATCH = 50;
/** A job still unfinished this long after its document was received is given up as failed. */
const GIVE_UP_MS = 15 * 60 * 1000;

const V2Job = z.object({
  job: z.object({
    status: z.string(),
    result_url: z.string().nullish(),
    error: z.unknown().optional(),
  }),
});
const V1Queue = z.object({
  job: z.object({ status: z.string(), error: z.unknown().optional() }).loose(),
  document: z.object({ id: z.string() }).loose().optional(),
});

export interface FollowerDeps {
  review: Pick<ReviewContext, 'queue' | 'database' | 'now'>;
  upstream: { v2?: Upstream | undefined; v1?: Upstream | undefined };
  fetch?: typeof fetch;
}

export class JobFollower {
  private readonly schedule = new Map<string, { at: number; interval: number }>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly deps: FollowerDeps) {}

  start(): void {
    this.stopped = false;
    this.timer = setInterval(() => {
      this.running ??= this.tick().finally(() => (this.running = undefined));
    }, TICK_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  /** A new document: its job is checked soon, without waiting for the next look at the store. */
  follow(documentId: string): void {
    this.schedule.set(documentId, { at: this.deps.review.now() + FIRST_CHECK_MS, interval: FIRST_CHECK_MS });
  }

  /** One pass: every processing document whose check is due. Exposed for tests. */
  async tick(): Promise<void> {
    const { review } = this.deps;
    const now = review.now();
    const processing = await review.database.db
      .selectFrom('documents')
      .selectAll()
      .where('state', '=', 'processing')
      .where('upstream_job_id', 'is not', null)
      .orderBy('created_at')
      .limit(BATCH)
      .execute();
    for (const document of processing) {
      if (this.stopped) return;
      const due = this.schedule.get(document.id) ?? {
        at: document.created_at + FIRST_CHECK_MS,
        interval: FIRST_CHECK_MS,
      };
      if (due.at > now) {
        this.schedule.set(document.id, due);
        continue;
      }
      let settled = false;
      try {
        settled = await this.check(document);
      } catch (error) {
        console.error(
          `[review intake] job ${document.upstream_job_id ?? ''} could not be checked:`,
          describe(error),
        );
      }
      if (!settled && now - document.created_at > GIVE_UP_MS) {
        await review.queue.setFailed(
          document.id,
          JSON.stringify({
            title: 'Result never came',
            detail: 'The upstream job did not finish in 15 minutes.',
          }),
          now,
        );
        settled = true;
      }
      if (settled) this.schedule.delete(document.id);
      else {
        const interval = Math.min(due.interval * 1.5, MAX_INTERVAL_MS);
        this.schedule.set(document.id, { at: now + interval, interval });
      }
    }
  }

  /** Whether the document left `processing` (its result stored, or its failure). */
  private async check(document: DocumentRow): Promise<boolean> {
    return document.api_version === 'v2' ? this.checkV2(document) : this.checkV1(document);
  }

  private async get(
    version: 'v2' | 'v1',
    path: string,
  ): Promise<{ status: number; json: unknown; text: string; location: string | null }> {
    const upstream = this.deps.upstream[version];
    if (upstream === undefined) throw new Error(`no ${version} upstream`);
    const response = await (this.deps.fetch ?? fetch)(`${upstream.url.replace(/\/+$/, '')}${path}`, {
      headers: { Authorization: authorizationFor(version, upstream.apiKey), Accept: 'application/json' },
      redirect: 'manual',
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.status, json, text, location: response.headers.get('location') };
  }

  private async checkV2(document: DocumentRow): Promise<boolean> {
    const { review } = this.deps;
    const polled = await this.get(
      'v2',
      `/v2/jobs/${encodeURIComponent(document.upstream_job_id ?? '')}?redirect=false`,
    );
    if (polled.status === 404) {
      await review.queue.setFailed(
        document.id,
        JSON.stringify({ title: 'Job not found upstream' }),
        review.now(),
      );
      return true;
    }
    const { job } = V2Job.parse(polled.json);
    if (job.status === 'Failed') {
      await review.queue.setFailed(
        document.id,
        JSON.stringify(job.error ?? { title: 'Failed' }),
        review.now(),
      );
      return true;
    }
    if (job.status !== 'Processed' || !job.result_url) return false;
    // The result's path on the upstream we call (its own URL may name another base).
    const resultPath = new URL(job.result_url).pathname.replace(/^.*?(?=\/v2\/)/, '');
    const result = await this.get('v2', resultPath);
    if (result.status !== 200) throw new Error(`result answered ${result.status}`);
    const inferenceId = resultPath.split('/').at(-1) ?? null;
    await setRoutedResult(
      review,
      document.id,
      { json: result.text, resultId: inferenceId, ...countFields('v2', result.json) },
      review.now(),
    );
    return true;
  }

  private async checkV1(document: DocumentRow): Promise<boolean> {
    const { review } = this.deps;
    const base = `/v1/products/${document.model_key.replace(/\/v(\d+)$/, '/v$1')}`;
    const polled = await this.get(
      'v1',
      `${base}/documents/queue/${encodeURIComponent(document.upstream_job_id ?? '')}`,
    );
    const queue = V1Queue.safeParse(polled.json);
    const documentId = queue.success ? queue.data.document?.id : undefined;
    if (polled.status === 302 || documentId !== undefined) {
      // A completed job redirects to its document: the id is the Location's last segment.
      const id = documentId ?? polled.location?.split(/[?#]/)[0]?.split('/').filter(Boolean).at(-1);
      if (id === undefined) return false;
      const fetched = await this.get('v1', `${base}/documents/${encodeURIComponent(id)}`);
      if (fetched.status !== 200) throw new Error(`document answered ${fetched.status}`);
      await setRoutedResult(
        review,
        document.id,
        { json: fetched.text, resultId: id, ...countFields('v1', fetched.json) },
        review.now(),
      );
      return true;
    }
    if (queue.success && queue.data.job.status === 'failed') {
      await review.queue.setFailed(document.id, JSON.stringify(queue.data.job.error ?? {}), review.now());
      return true;
    }
    return false;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
