/**
 * The browser's call of a declared review route (routes/declare.ts): the path from its template, the
 * query and the JSON body the declaration takes, and the answer checked by the schemas of its
 * declared answers. Through the one HTTP doorway (../http.ts): its base path, retry policy,
 * problem-details errors, and the session's CSRF token on every change.
 */
import { z } from 'zod';
import { api, segment, type ApiClient, type HttpMethod, type QueryValue } from '../http';
import {
  isOpaqueBody,
  type CallInput,
  type CallOutput,
  type RouteDeclaration,
} from '@extraction-review/contract/review/routes/declare';

export interface CallOptions {
  signal?: AbortSignal | undefined;
  client?: ApiClient | undefined;
}

/** The declarations' paths start with the client's base (`/api`). */
const BASE = '/api';

/** The route's path under the client's base, its `{name}`s filled in as path segments. */
export function routePath(
  route: Pick<RouteDeclaration, 'path'>,
  params: Record<string, unknown> = {},
): string {
  if (!route.path.startsWith(`${BASE}/`)) throw new Error(`${route.path} is not under ${BASE}`);
  return route.path.slice(BASE.length).replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (typeof value !== 'string' && typeof value !== 'number')
      throw new Error(`${route.path}: no {${name}}`);
    return segment(value, name);
  });
}

/** The route's URL for a link or an `<img>`/viewer source (same origin: the session cookie goes along). */
export function routeUrl(
  route: Pick<RouteDeclaration, 'path'>,
  params: Record<string, unknown> = {},
  query: Record<string, QueryValue> = {},
  client: ApiClient = api,
): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) search.set(name, String(value));
  const text = search.toString();
  return `${client.baseUrl}${routePath(route, params)}${text === '' ? '' : `?${text}`}`;
}

const cache = new WeakMap<RouteDeclaration, z.ZodType>();

/** The answers a call may get: each declared answer's JSON schema; a 204 reads as undefined. */
function answerSchema(route: RouteDeclaration): z.ZodType {
  let schema = cache.get(route);
  if (schema === undefined) {
    const options = Object.values(route.responses).map((answer) => answer.schema ?? z.undefined());
    schema = options.length === 1 && options[0] !== undefined ? options[0] : z.union(options);
    cache.set(route, schema);
  }
  return schema;
}

export function callRoute<R extends RouteDeclaration>(
  route: R,
  input: CallInput<R>,
  { signal, client = api }: CallOptions = {},
): Promise<CallOutput<R>> {
  const { params, query, body } = input as { params?: object; query?: object; body?: unknown };
  if (isOpaqueBody(route.body)) throw new Error(`${route.operationId}: its body is sent by its own call`);
  return client.request({
    method: route.method.toUpperCase() as HttpMethod,
    path: routePath(route, params as Record<string, unknown> | undefined),
    ...(query === undefined ? {} : { query: { ...(query as Record<string, QueryValue>) } }),
    ...(route.body === undefined ? {} : { body: { json: body } }),
    schema: answerSchema(route),
    signal,
  }) as Promise<CallOutput<R>>;
}
