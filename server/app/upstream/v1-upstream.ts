/**
 * The v1 calls the app server makes on its own account, their answers checked by the contract
 * (packages/contract/src/v1/schemas.ts): a queued job's status and its document for the job follower, and feedback
 * for the way back.
 */
import {
  hasDocument,
  V1DocumentResponse,
  V1QueueResponse,
  type V1Job,
} from '@extraction-review/contract/v1/schemas';
import type { AttemptOutcome } from '@extraction-review/server-kit/retry-policy';
import { parsedBy } from './parsed-by';
import { UpstreamClient, UpstreamStatusError, type CallInit, type Upstream } from './upstream-client';

export type V1QueuePoll =
  /** Completed: the document's id, from the queue's 302 `Location` or the document in its body. */
  | { kind: 'document'; documentId: string }
  /** Waiting, processing or failed. */
  | { kind: 'job'; job: V1Job }
  /**
   * Neither (a 404, an error envelope, a 302 without a readable `Location`): nothing known yet. The
   * follower looks again later, as it always has for a v1 queue that says nothing it can use.
   */
  | { kind: 'unknown'; status: number };

export interface V1Result {
  /** The answer as sent, to be stored as it came. */
  text: string;
  result: V1DocumentResponse;
}

/** `account/name/vN` → `/v1/products/account/name/vN`. */
const productPath = (modelKey: string): string => `/v1/products/${modelKey}`;

export class V1Upstream extends UpstreamClient {
  constructor(upstream: Upstream, timeoutMs?: number) {
    super('v1', upstream, timeoutMs);
  }

  /** `GET …/documents/queue/{job_id}`, not following its redirect: what the queue says of the job. */
  async getQueuedJob(
    modelKey: string,
    jobId: string,
    init: Pick<CallInit, 'signal' | 'timeoutMs'> = {},
  ): Promise<V1QueuePoll> {
    const reply = await this.call(
      `${productPath(modelKey)}/documents/queue/${encodeURIComponent(jobId)}`,
      init,
    );
    const queue = V1QueueResponse.safeParse(reply.json());
    const body = queue.success ? queue.data : undefined;
    if (body !== undefined && hasDocument(body)) return { kind: 'document', documentId: body.document.id };
    if (reply.status === 302) {
      // A completed job redirects to its document: the id is the Location's last segment.
      const location = reply.headers.get('location');
      const id = location?.split(/[?#]/)[0]?.split('/').filter(Boolean).at(-1);
      return id === undefined
        ? { kind: 'unknown', status: reply.status }
        : { kind: 'document', documentId: id };
    }
    return body === undefined ? { kind: 'unknown', status: reply.status } : { kind: 'job', job: body.job };
  }

  /** `GET …/documents/{id}`: a completed job's document. */
  async getDocument(
    modelKey: string,
    documentId: string,
    init: Pick<CallInit, 'signal' | 'timeoutMs'> = {},
  ): Promise<V1Result> {
    const reply = await this.call(
      `${productPath(modelKey)}/documents/${encodeURIComponent(documentId)}`,
      init,
    );
    if (reply.status !== 200)
      throw new UpstreamStatusError(reply.status, `document answered ${reply.status}`);
    const text = reply.text();
    return { text, result: parsedBy(V1DocumentResponse, reply.json(), 'the document') };
  }

  /** One attempt of the way back's feedback (`PATCH /v1/documents/{id}/feedback`, or `PUT`). */
  deliverFeedback(
    documentId: string,
    body: Buffer,
    init: {
      method?: 'PUT' | 'PATCH';
      headers: Record<string, string>;
      timeoutMs: number;
      signal: AbortSignal;
    },
  ): Promise<AttemptOutcome> {
    return this.deliver(`/v1/documents/${encodeURIComponent(documentId)}/feedback`, body, {
      ...init,
      method: init.method ?? 'PATCH',
    });
  }
}
