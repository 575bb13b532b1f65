/**
 * What one review API route is, declared once (issue 20, "Routes declared once"): its method and path,
 * the zod schemas of its path parameters, query string and JSON body, its answers and the problems it
 * may answer, and who may call it. Three readers derive from a declaration:
 *
 * - the server mounts it with validation (server/app/review/http/mount-route.ts): the access check, then
 *   the path parameters, the query and the body, each by its schema, failures as problem details;
 * - the browser calls it (src/api/review/call-route.ts), through the one HTTP doorway (src/api/http.ts);
 * - `/api/openapi.json` is generated from every declaration (server/app/review/http/openapi.ts).
 *
 * Plain data and zod only: no HTTP client, no server framework, so that both sides import it.
 */
import type { z } from 'zod';

export type Method = 'get' | 'post' | 'put' | 'delete';

/**
 * - `public`: no session;
 * - `optional`: the route reads the session cookie itself, when there is one (GET /api/session);
 * - `operator`: a session (401-011 without); `admin`: a session of an admin (403-005 otherwise).
 * A state-changing route (POST, PUT, DELETE) with a session also needs its CSRF token (403-004).
 */
export type Access = 'public' | 'optional' | 'operator' | 'admin';

/** A stable problem code (docs/errors.md); the OpenAPI generator checks it against the catalog. */
export type ProblemCodeText = `${number}-${number}`;

/** A JSON Schema, written by hand where a body is not JSON (a file, a CSV). */
export type JsonSchemaObject = { [keyword: string]: unknown };

export interface ResponseDeclaration {
  description: string;
  /** The JSON body: a named schema of ./components.ts (the OpenAPI document refers to it by name). */
  schema?: z.ZodType;
  /** Other media types, by content type (a file, a CSV download). */
  content?: Record<string, { schema: JsonSchemaObject }>;
  headers?: Record<string, { description: string; schema: JsonSchemaObject }>;
}

/** A body the route reads itself (a multipart form): documented, not validated by the mount. */
export interface OpaqueBody {
  opaque: string;
}

export interface RouteDeclaration {
  operationId: string;
  method: Method;
  /** The full path, OpenAPI style: `/api/review/documents/{id}`. */
  path: string;
  tag: 'session' | 'review' | 'operators' | 'meta';
  summary: string;
  description?: string;
  access: Access;
  /** One property per `{name}` of the path, each with its `.describe()`; the string as it comes in. */
  params?: z.ZodObject;
  /** The problem a path parameter that does not fit answers (its detail: the parameter's message). */
  paramsProblem?: ProblemCodeText;
  query?: z.ZodObject;
  /** One description per query parameter. */
  queryDescriptions?: Record<string, string>;
  /** The JSON body (a named schema of ./components.ts), or a body the route reads itself. */
  body?: z.ZodType | OpaqueBody;
  /** The answers, by status (2xx, 304). */
  responses: Record<number, ResponseDeclaration>;
  /** Route-specific problems, besides those its access, parameters, query and body imply. */
  problems?: readonly ProblemCodeText[];
  /** What a code means on this route, when its catalogue title is not enough. */
  notes?: Partial<Record<ProblemCodeText, string>>;
  /** Specification extensions (`x-…`) of the operation. */
  extensions?: Record<`x-${string}`, JsonSchemaObject>;
}

/** Keeps the declaration's literal types (its schemas, its statuses), checked against the shape. */
export function declareRoute<const R extends RouteDeclaration>(route: R): R {
  return route;
}

/** Whether the route changes state: with a session, it needs the CSRF token. */
export function isStateChanging(route: Pick<RouteDeclaration, 'method'>): boolean {
  return route.method !== 'get';
}

/** Whether a call carries the session's CSRF token. */
export function needsCsrf(route: Pick<RouteDeclaration, 'method' | 'access'>): boolean {
  return isStateChanging(route) && (route.access === 'operator' || route.access === 'admin');
}

export const isOpaqueBody = (body: RouteDeclaration['body']): body is OpaqueBody =>
  body !== undefined && 'opaque' in body && typeof (body as OpaqueBody).opaque === 'string';

// ─── Types derived from a declaration, for the mount and the client ─────────────────────────────────

type SchemaOf<T> = T extends z.ZodType ? T : never;

/** What the mount hands a handler: each part as its schema gives it (`{}` when not declared). */
export interface ValidInput<R extends RouteDeclaration> {
  params: R['params'] extends z.ZodObject ? z.output<R['params']> : Record<string, never>;
  query: R['query'] extends z.ZodObject ? z.output<R['query']> : Record<string, never>;
  body: R['body'] extends z.ZodType ? z.output<SchemaOf<R['body']>> : undefined;
}

/** What a caller gives: the parts the route declares, as their schemas take them. */
export type CallInput<R extends RouteDeclaration> = (R['params'] extends z.ZodObject
  ? { params: z.input<R['params']> }
  : { params?: undefined }) &
  (R['query'] extends z.ZodObject ? { query?: Partial<z.input<R['query']>> } : { query?: undefined }) &
  (R['body'] extends z.ZodType ? { body: z.input<SchemaOf<R['body']>> } : { body?: undefined });

type SuccessStatus<R extends RouteDeclaration> = Extract<keyof R['responses'], number>;
type BodyOf<D> = D extends { schema: infer S extends z.ZodType } ? z.output<S> : undefined;

/** What a successful call gives: the JSON body of any declared answer (undefined for a 204). */
export type CallOutput<R extends RouteDeclaration> = {
  [S in SuccessStatus<R>]: BodyOf<R['responses'][S]>;
}[SuccessStatus<R>];
