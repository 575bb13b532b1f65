/**
 * Every route the gateway passes upstream, and nothing else: a path or a method not in this table is
 * refused (404 `404-003`, or 405 `405-001` for a known path), never proxied, so that a route the
 * upstream adds later is not opened to pipelines before someone decides who may see what it returns.
 *
 * Each route says which of its path's ids must be the calling integration's (`owned`), and what its
 * answer hands out that becomes the integration's (`after`). The validated results
 * (`/v2/review/results/{id}`, `/v1/review/documents/{id}`) are answered by the gateway itself, scoped to
 * the integration, before this table is read (reviewed-results.ts).
 */
import { ProblemError } from '@extraction-review/contract/problem';
import type { GatewayIdKind } from '../db/schema';
import type { ApiVersion } from '../model/review-types';

/**
 * One path segment as the gateway passes it: no percent-encoding and no leading dot, so that the
 * upstream cannot route a segment as anything but the one segment the gateway checked.
 */
const SEG = '([A-Za-z0-9_~-][A-Za-z0-9._~-]*)';
const END = '/?$';

/** What the gateway does with an answer once the upstream has given it. */
export type AfterAnswer =
  /** v2 enqueue, v1 predict_async: the job is the integration's. */
  | 'job-created'
  /** v1 predict: the document (and its job, if any) are the integration's. */
  | 'v1-predicted'
  /** v2 job poll: the inference it names (`result_url`, `Location`) is the job's integration's. */
  | 'v2-polled'
  /** v1 queue poll: the document it names (`Location`, `document.id`) is the job's integration's. */
  | 'v1-polled'
  /** RAG list: only the integration's own documents are shown (and become known as its own). */
  | 'rag-listed';

export interface GatewayRoute {
  /** For tests and logs. */
  name: string;
  version: ApiVersion;
  /** GET also covers HEAD. */
  methods: readonly string[];
  pattern: RegExp;
  /** The path's id that must be this integration's, and the 404 to answer when it is not. */
  owned?: { kind: GatewayIdKind; group: number; notFound: (id: string) => ProblemError };
  after?: AfterAnswer;
  /** Answered by the gateway itself rather than proxied (its body must be checked before it goes). */
  handledBy?: 'rag-add';
}

const path = (version: ApiVersion, rest: string): RegExp => new RegExp(`^/${version}${rest}${END}`);

/** The same 404 for an unknown id and another's: the upstream's own code and wording for each. */
export const NOT_FOUND = {
  job: (id: string) => new ProblemError('404-001', `No job has the id ${id}.`),
  inference: (id: string) => new ProblemError('404-002', `No inference has the id ${id}.`),
  ragInference: (id: string) =>
    new ProblemError('404-002', `No inference has the id ${id}, or its text is no longer kept.`),
  ragDocument: (id: string) => new ProblemError('404-006', `No RAG document has the id ${id}.`),
  v1Document: (id: string) => new ProblemError('404-009', `No document ${id} is available.`),
};

export const GATEWAY_ROUTES: readonly GatewayRoute[] = [
  // v2 (spec §4.1, API-FACTS; the reference service's extensions)
  {
    name: 'v2 enqueue',
    version: 'v2',
    methods: ['POST'],
    pattern: path('v2', '/products/extraction/enqueue'),
    after: 'job-created',
  },
  {
    name: 'v2 job',
    version: 'v2',
    methods: ['GET'],
    pattern: path('v2', `/jobs/${SEG}`),
    owned: { kind: 'job', group: 1, notFound: NOT_FOUND.job },
    after: 'v2-polled',
  },
  {
    name: 'v2 result',
    version: 'v2',
    methods: ['GET'],
    pattern: path('v2', `/products/extraction/results/${SEG}`),
    owned: { kind: 'inference', group: 1, notFound: NOT_FOUND.inference },
  },
  {
    name: 'v2 inference',
    version: 'v2',
    methods: ['GET'],
    pattern: path('v2', `/inferences/${SEG}`),
    owned: { kind: 'inference', group: 1, notFound: NOT_FOUND.inference },
  },
  // The models are the server's, shared by every pipeline (no pipeline's data in them).
  { name: 'v2 models', version: 'v2', methods: ['GET'], pattern: path('v2', '/search/models') },
  {
    name: 'v2 model schema',
    version: 'v2',
    methods: ['GET'],
    pattern: path('v2', `/extensions/models/${SEG}`),
  },
  {
    name: 'v2 RAG add',
    version: 'v2',
    methods: ['POST'],
    pattern: path('v2', `/extensions/rag/${SEG}/documents`),
    handledBy: 'rag-add',
  },
  {
    name: 'v2 RAG list',
    version: 'v2',
    methods: ['GET'],
    pattern: path('v2', `/extensions/rag/${SEG}/documents`),
    after: 'rag-listed',
  },
  {
    name: 'v2 RAG document',
    version: 'v2',
    methods: ['GET'],
    pattern: path('v2', `/extensions/rag/${SEG}/documents/${SEG}`),
    owned: { kind: 'rag_document', group: 2, notFound: NOT_FOUND.ragDocument },
  },
  {
    name: 'v2 RAG delete',
    version: 'v2',
    methods: ['DELETE'],
    pattern: path('v2', `/extensions/rag/${SEG}/documents/${SEG}`),
    owned: { kind: 'rag_document', group: 2, notFound: NOT_FOUND.ragDocument },
  },
  // v1 (spec §4.2, API-FACTS v1; the reference service's extensions)
  {
    name: 'v1 predict',
    version: 'v1',
    methods: ['POST'],
    pattern: path('v1', `/products/${SEG}/${SEG}/${SEG}/predict`),
    after: 'v1-predicted',
  },
  {
    name: 'v1 predict_async',
    version: 'v1',
    methods: ['POST'],
    pattern: path('v1', `/products/${SEG}/${SEG}/${SEG}/predict_async`),
    after: 'job-created',
  },
  {
    name: 'v1 queue',
    version: 'v1',
    methods: ['GET'],
    pattern: path('v1', `/documents/queue/${SEG}`),
    owned: { kind: 'job', group: 1, notFound: NOT_FOUND.job },
    after: 'v1-polled',
  },
  {
    name: 'v1 product queue',
    version: 'v1',
    methods: ['GET'],
    pattern: path('v1', `/products/${SEG}/${SEG}/${SEG}/documents/queue/${SEG}`),
    owned: { kind: 'job', group: 4, notFound: NOT_FOUND.job },
    after: 'v1-polled',
  },
  {
    name: 'v1 document',
    version: 'v1',
    methods: ['GET'],
    pattern: path('v1', `/products/${SEG}/${SEG}/${SEG}/documents/${SEG}`),
    owned: { kind: 'document', group: 4, notFound: NOT_FOUND.v1Document },
  },
  {
    name: 'v1 feedback',
    version: 'v1',
    methods: ['GET', 'PUT', 'PATCH'],
    pattern: path('v1', `/documents/${SEG}/feedback`),
    owned: { kind: 'document', group: 1, notFound: NOT_FOUND.v1Document },
  },
  { name: 'v1 products', version: 'v1', methods: ['GET'], pattern: path('v1', '/extensions/products') },
];

export type RouteMatch =
  { route: GatewayRoute; id: string | undefined } | { route: undefined; allowed: readonly string[] };

/**
 * The route a request is for, with the id it must own; or, when none, the methods its path takes
 * (empty: an unknown path).
 */
export function matchGatewayRoute(version: ApiVersion, method: string, pathname: string): RouteMatch {
  const asked = method === 'HEAD' ? 'GET' : method;
  const allowed = new Set<string>();
  for (const route of GATEWAY_ROUTES) {
    if (route.version !== version) continue;
    const match = route.pattern.exec(pathname);
    if (match === null) continue;
    if (route.methods.includes(asked)) {
      return { route, id: route.owned === undefined ? undefined : match[route.owned.group] };
    }
    for (const allowedMethod of route.methods) allowed.add(allowedMethod);
  }
  return { route: undefined, allowed: [...allowed] };
}

/** The refusal of a request no route of the table takes. */
export function refusal(method: string, pathname: string, allowed: readonly string[]): ProblemError {
  if (allowed.length === 0) {
    return new ProblemError('404-003', `No route for ${method} ${pathname} on this gateway.`);
  }
  const methods = allowed.includes('GET') ? [...allowed, 'HEAD'] : [...allowed];
  return new ProblemError('405-001', `${method} is not allowed on ${pathname}.`, {
    headers: { Allow: methods.join(', ') },
  });
}
