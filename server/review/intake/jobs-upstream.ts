/**
 * The job follower's calls to its upstreams, behind a small interface (issue 20: one upstream client
 * for the server is built apart; it plugs in here). Each call answers as read, redirects not
 * followed: the follower decides what a status means.
 *
 * `fetchJobsUpstream` is today's implementation: `fetch` with the server's key, 30 s per request.
 */
import { authorizationFor, type Upstream } from '../../app/proxy/create-proxy';

export interface UpstreamAnswer {
  status: number;
  /** The body parsed, or undefined when it is not JSON. */
  json: unknown;
  text: string;
  location: string | null;
}

export interface JobsUpstream {
  /** GET /v2/jobs/{id}?redirect=false. */
  v2Job(jobId: string, signal: AbortSignal): Promise<UpstreamAnswer>;
  /** GET the result a processed v2 job names (its path on the upstream called). */
  v2Result(resultUrl: string, signal: AbortSignal): Promise<UpstreamAnswer>;
  /** GET /v1/products/{product}/documents/queue/{id}. `product`: `account/name/vN`. */
  v1Queue(product: string, queueId: string, signal: AbortSignal): Promise<UpstreamAnswer>;
  /** GET /v1/products/{product}/documents/{id}. */
  v1Document(product: string, documentId: string, signal: AbortSignal): Promise<UpstreamAnswer>;
}

const REQUEST_TIMEOUT_MS = 30_000;

/** The longest a call may take: the follower's lease outlasts two of them. */
export const JOBS_REQUEST_TIMEOUT_MS = REQUEST_TIMEOUT_MS;

export function fetchJobsUpstream(
  upstream: { v2?: Upstream | undefined; v1?: Upstream | undefined },
  fetchImpl: typeof fetch = fetch,
): JobsUpstream {
  async function get(version: 'v2' | 'v1', path: string, signal: AbortSignal): Promise<UpstreamAnswer> {
    const target = upstream[version];
    if (target === undefined) throw new Error(`no ${version} upstream`);
    const response = await fetchImpl(`${target.url.replace(/\/+$/, '')}${path}`, {
      headers: { Authorization: authorizationFor(version, target.apiKey), Accept: 'application/json' },
      redirect: 'manual',
      signal: AbortSignal.any([AbortSignal.timeout(REQUEST_TIMEOUT_MS), signal]),
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
  const v1Base = (product: string) => `/v1/products/${product.replace(/\/v(\d+)$/, '/v$1')}`;
  return {
    v2Job: (jobId, signal) => get('v2', `/v2/jobs/${encodeURIComponent(jobId)}?redirect=false`, signal),
    // The result's path on the upstream we call (its own URL may name another base).
    v2Result: (resultUrl, signal) => get('v2', resultPath(resultUrl), signal),
    v1Queue: (product, queueId, signal) =>
      get('v1', `${v1Base(product)}/documents/queue/${encodeURIComponent(queueId)}`, signal),
    v1Document: (product, documentId, signal) =>
      get('v1', `${v1Base(product)}/documents/${encodeURIComponent(documentId)}`, signal),
  };
}

/** `/v2/inferences/{id}` out of a result URL, whatever base it names. */
export function resultPath(resultUrl: string): string {
  return new URL(resultUrl).pathname.replace(/^.*?(?=\/v2\/)/, '');
}
