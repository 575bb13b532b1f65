/**
 * The v2 calls the app server makes on its own account, their answers checked by the contract
 * (packages/contract/src/v2/schemas.ts): a job's status for the job follower, its result, a RAG document for the
 * gateway, a RAG document for the way back, and a model's data schema for the rules' fields.
 */
import { ExtractionResponse, JobResponse, type Job } from '@extraction-review/contract/v2/schemas';
import { ModelSchemaResponse, type ModelSchema } from '@extraction-review/contract/v2/model-schema';
import type { AttemptOutcome } from '@extraction-review/server-kit/retry-policy';
import {
  UpstreamClient,
  UpstreamStatusError,
  type CallInit,
  type Upstream,
  type UpstreamReply,
} from './upstream-client';
import { parsedBy } from './parsed-by';

export interface V2Result {
  /** The inference's id: the last segment of the job's `result_url`. */
  inferenceId: string | null;
  /** The answer as sent, to be stored as it came. */
  text: string;
  result: ExtractionResponse;
}

export class V2Upstream extends UpstreamClient {
  constructor(upstream: Upstream, timeoutMs?: number) {
    super('v2', upstream, timeoutMs);
  }

  /**
   * `GET /v2/jobs/{id}?redirect=false`: the job, or undefined when the upstream has no such job (404).
   * Any other status but a 2xx is an `UpstreamStatusError` (a 422 for an id it cannot read, a 5xx, a
   * proxy's page), a body that is not a job an `UpstreamSchemaMismatch`.
   */
  async getJob(jobId: string, init: Pick<CallInit, 'signal' | 'timeoutMs'> = {}): Promise<Job | undefined> {
    const reply = await this.call(`/v2/jobs/${encodeURIComponent(jobId)}?redirect=false`, init);
    if (reply.status === 404) return undefined;
    if (reply.status < 200 || reply.status >= 300)
      throw new UpstreamStatusError(reply.status, `the job answered ${reply.status}`);
    return parsedBy(JobResponse, reply.json(), 'the job').job;
  }

  /**
   * `GET /v2/extensions/models/{id}`: the model's data schema (an extension of the reference service,
   * packages/contract/src/v2/model-schema.ts), or null where the upstream does not offer it (the hosted
   * service: 404, 405 or 501) or does not know the model (404). Another status is an
   * `UpstreamStatusError`, another body an `UpstreamSchemaMismatch`.
   */
  async getModelSchema(
    modelId: string,
    init: Pick<CallInit, 'signal' | 'timeoutMs'> = {},
  ): Promise<ModelSchema | null> {
    const reply = await this.call(`/v2/extensions/models/${encodeURIComponent(modelId)}`, init);
    if (reply.status === 404 || reply.status === 405 || reply.status === 501) return null;
    if (reply.status < 200 || reply.status >= 300)
      throw new UpstreamStatusError(reply.status, `the model's schema answered ${reply.status}`);
    return parsedBy(ModelSchemaResponse, reply.json(), "the model's schema").model;
  }

  /**
   * A processed job's result, at its `result_url`'s path on this upstream (its own URL may name another
   * base: the reference service behind a public name, the app's rewritten `/api/v2/...`).
   */
  async getResult(resultUrl: string, init: Pick<CallInit, 'signal' | 'timeoutMs'> = {}): Promise<V2Result> {
    const path = new URL(resultUrl, this.url('/')).pathname.replace(/^.*?(?=\/v2\/)/, '');
    const reply = await this.call(path, init);
    if (reply.status !== 200) throw new UpstreamStatusError(reply.status, `result answered ${reply.status}`);
    const text = reply.text();
    return {
      inferenceId: path.split('/').at(-1) ?? null,
      text,
      result: parsedBy(ExtractionResponse, reply.json(), 'the result'),
    };
  }

  /**
   * `POST /v2/extensions/rag/{model_id}/documents` for the gateway (rag-add.ts): the pipeline's body,
   * already checked, sent with the server's key; the answer is passed back to the pipeline as it is.
   */
  addRagDocument(
    pathAndQuery: string,
    body: string,
    contentType: string,
    init: CallInit,
  ): Promise<UpstreamReply> {
    return this.call(pathAndQuery, {
      ...init,
      method: 'POST',
      headers: { 'Content-Type': contentType },
      body,
    });
  }

  /** One attempt of the way back's RAG document for a confirmed document of `modelId`. */
  deliverRagDocument(
    modelId: string,
    body: Buffer,
    init: { headers: Record<string, string>; timeoutMs: number; signal: AbortSignal },
  ): Promise<AttemptOutcome> {
    return this.deliver(`/v2/extensions/rag/${encodeURIComponent(modelId)}/documents`, body, {
      ...init,
      method: 'POST',
    });
  }
}
