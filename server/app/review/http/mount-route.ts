/**
 * Mounts a declared review route (packages/contract/src/review/routes/declare.ts) on a Hono app, with its checks in
 * the order the routes always made them: who calls (the declaration's access: a session, its CSRF
 * token on a change, an admin), then the path parameters, the query string and the JSON body, each by
 * the declaration's zod schema. The handler gets them checked and typed; every refusal is the same
 * problem-details body as before (read-body.ts).
 */
import type { Context, Handler, Hono, MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import {
  isOpaqueBody,
  type RouteDeclaration,
  type ValidInput,
} from '@extraction-review/contract/review/routes/declare';
import { ProblemError, problemCatalog, type ProblemCode } from '@extraction-review/contract/problem';
import { readBody, readQuery } from './read-body';
import type { ReviewContext, ReviewEnv } from '../review-context';
import { requireAdmin, requireSession } from './session-auth';

export type RouteHandler<R extends RouteDeclaration> = (
  c: Context<ReviewEnv>,
  input: ValidInput<R>,
) => Response | Promise<Response>;

export interface MountExtras {
  /** Middleware after the access check and before validation (the sign-in attempts' limiter). */
  before?: MiddlewareHandler[];
}

/** `/api/review/documents/{id}` → `/review/documents/:id` (the review API is mounted under /api). */
export function honoPath(path: string): string {
  if (!path.startsWith('/api/')) throw new Error(`${path} is not under /api`);
  return path.slice('/api'.length).replace(/\{([^}]+)\}/g, ':$1');
}

function accessChecks(route: RouteDeclaration, review: ReviewContext): MiddlewareHandler<ReviewEnv>[] {
  switch (route.access) {
    case 'public':
    case 'optional':
      return [];
    case 'operator':
      return [requireSession(review)];
    case 'admin':
      return [requireSession(review), requireAdmin()];
  }
}

/** The path parameters by the declaration: one that does not fit is the route's "no such thing". */
function readParams(c: Context, route: RouteDeclaration): unknown {
  if (route.params === undefined) return {};
  const checked = route.params.safeParse(c.req.param());
  if (checked.success) return checked.data;
  const code = (route.paramsProblem ?? '404-015') as ProblemCode;
  if (!(code in problemCatalog)) throw new Error(`${route.operationId}: no problem ${code}`);
  throw new ProblemError(code, checked.error.issues[0]?.message ?? 'No such thing here.');
}

export function mountRoute<R extends RouteDeclaration>(
  app: Hono<ReviewEnv>,
  review: ReviewContext,
  route: R,
  handler: RouteHandler<R>,
  extras: MountExtras = {},
): void {
  const body = route.body;
  const validated: Handler<ReviewEnv> = async (c) => {
    const params = readParams(c, route);
    const query = route.query === undefined ? {} : readQuery(c, route.query);
    const json = body === undefined || isOpaqueBody(body) ? undefined : await readBody(c, body as z.ZodType);
    return handler(c, { params, query, body: json } as ValidInput<R>);
  };
  const chain: MiddlewareHandler<ReviewEnv>[] = [...accessChecks(route, review), ...(extras.before ?? [])];
  // Hono's typed overloads of `on` take a fixed number of handlers; the chain's length varies.
  const on = app.on.bind(app) as (method: string, path: string, ...handlers: Handler<ReviewEnv>[]) => unknown;
  on(route.method.toUpperCase(), honoPath(route.path), ...chain, validated);
}
