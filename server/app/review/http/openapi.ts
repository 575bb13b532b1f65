/**
 * The review API as an OpenAPI 3.1 document, served at `GET /api/openapi.json`
 * (create-review-api.ts), GENERATED from the route declarations (packages/contract/src/review/routes/), the same
 * that the server mounts (mount-route.ts) and the browser calls (src/api/review/call-route.ts).
 *
 * Schemas come from zod's own `z.toJSONSchema` (draft 2020-12, the dialect of OpenAPI 3.1): request
 * bodies and query strings as zod reads them (`io: 'input'`), answers as the server writes them
 * (`io: 'output'`). Each named schema (packages/contract/src/review/routes/components.ts) is one entry of
 * `components.schemas`, referred to by `$ref`. A route's problems are its own and those its access,
 * parameters, query and body imply, each described by the catalog (packages/contract/src/problem.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { reviewApiRoutes } from '@extraction-review/contract/review/routes/index';
import {
  REQUEST_SCHEMAS,
  RESPONSE_SCHEMAS,
  type Named,
} from '@extraction-review/contract/review/routes/components';
import {
  isOpaqueBody,
  isStateChanging,
  needsCsrf,
  type RouteDeclaration,
} from '@extraction-review/contract/review/routes/declare';
import { PROBLEM_CONTENT_TYPE, problemCatalog, type ProblemCode } from '@extraction-review/contract/problem';
import { CSRF_HEADER, SESSION_COOKIE } from './session-auth';

type JsonObject = { [key: string]: unknown };

const ref = (name: string): JsonObject => ({ $ref: `#/components/schemas/${name}` });

// ─── Schemas ─────────────────────────────────────────────────────────────────────────────────────────

function toComponents(named: Record<string, Named>, io: 'input' | 'output'): Record<string, JsonObject> {
  const registry = z.registry<{ id: string; description: string }>();
  for (const [id, { schema, description }] of Object.entries(named))
    registry.add(schema, { id, description });
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io,
    metadata: registry,
    uri: (id) => `#/components/schemas/${id}`,
  });
  const components: Record<string, JsonObject> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    // `$id` and `$schema` belong to a standalone document, not to a component of this one.
    const { $id: _id, $schema: _schema, ...rest } = JSON.parse(JSON.stringify(schema)) as JsonObject;
    components[id] = rest;
  }
  // A recursive part without a name of its own would land in zod's `__shared` entry, which no `$ref`
  // of this document can reach: name it above instead (as JsonValue is).
  if ('__shared' in components) {
    throw new Error(`unnamed recursive schema among ${Object.keys(named).join(', ')}: give it an id`);
  }
  return components;
}

/** The component's name of a schema a route uses, by identity: every body and answer is named. */
function nameOf(named: Record<string, Named>, schema: z.ZodType, where: string): string {
  const found = Object.entries(named).find(([, entry]) => entry.schema === schema);
  if (found === undefined) throw new Error(`${where}: its schema is not named in routes/components.ts`);
  return found[0];
}

// ─── Operations ──────────────────────────────────────────────────────────────────────────────────────

function security(route: RouteDeclaration): JsonObject[] {
  switch (route.access) {
    case 'public':
      return [];
    case 'optional':
      return [{}, { session: [] }];
    case 'operator':
    case 'admin':
      return needsCsrf(route) ? [{ session: [], csrf: [] }] : [{ session: [] }];
  }
}

const isProblemCode = (code: string): code is ProblemCode => code in problemCatalog;

/** Every problem the route can answer: its own, and those its access, parameters, query and body imply. */
function problemCodes(route: RouteDeclaration): ProblemCode[] {
  const codes = new Set<string>(route.problems ?? []);
  if (route.body !== undefined && !isOpaqueBody(route.body))
    for (const code of ['400-001', '413-001', '422-008']) codes.add(code);
  // A query whose every parameter falls back (`.catch`) never refuses one (the timeline's `format`).
  if (route.query !== undefined && !Object.values(route.query.shape).every((p) => p instanceof z.ZodCatch))
    codes.add('422-008');
  if (route.paramsProblem !== undefined) codes.add(route.paramsProblem);
  if (isStateChanging(route)) codes.add('403-003');
  if (route.access !== 'public') codes.add('401-011');
  if (needsCsrf(route)) codes.add('403-004');
  if (route.access === 'admin') codes.add('403-005');
  for (const code of [...codes, ...Object.keys(route.notes ?? {})]) {
    if (!isProblemCode(code)) throw new Error(`${route.operationId}: no problem ${code} in the catalog`);
  }
  return [...codes].filter(isProblemCode).sort();
}

function problemResponses(route: RouteDeclaration): Record<string, JsonObject> {
  const byStatus = new Map<number, ProblemCode[]>();
  for (const code of problemCodes(route)) {
    const status = problemCatalog[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, JsonObject> = {};
  for (const [status, codes] of byStatus) {
    const lines = codes.map((code) => {
      const note = route.notes?.[code];
      return `- \`${code}\` ${problemCatalog[code].title}${note === undefined ? '' : `: ${note}`}`;
    });
    responses[String(status)] = {
      description: `Problem details, \`code\`:\n${lines.join('\n')}`,
      ...(status === 429
        ? { headers: { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } } } }
        : {}),
      content: { [PROBLEM_CONTENT_TYPE]: { schema: ref('Problem') } },
    };
  }
  return responses;
}

/** The properties of a parameters' object as zod reads them (its `required`, each one's schema). */
function properties(schema: z.ZodObject): { name: string; required: boolean; schema: JsonObject }[] {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' }) as JsonObject;
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries((json.properties ?? {}) as Record<string, JsonObject>).map(([name, property]) => ({
    name,
    required: required.has(name),
    schema: property,
  }));
}

function parameters(route: RouteDeclaration): JsonObject[] {
  const inTemplate = [...route.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? '');
  const pathParameters = route.params === undefined ? [] : properties(route.params);
  const declared = pathParameters.map((p) => p.name);
  if ([...inTemplate].sort().join() !== [...declared].sort().join())
    throw new Error(`${route.path}: its parameters are ${declared.join(', ') || 'none'}`);
  const inPath = pathParameters.map(({ name, schema: { description, ...schema } }) => {
    if (typeof description !== 'string') throw new Error(`${route.path}: {${name}} is not described`);
    return { name, in: 'path', required: true, description, schema };
  });
  const inQuery = (route.query === undefined ? [] : properties(route.query)).map(
    ({ name, required, schema }) => {
      const description = route.queryDescriptions?.[name];
      if (description === undefined)
        throw new Error(`${route.operationId}: query ${name} has no description`);
      return { name, in: 'query', required, description, schema };
    },
  );
  return [...inPath, ...inQuery];
}

function responses(route: RouteDeclaration): Record<string, JsonObject> {
  const answers: Record<string, JsonObject> = {};
  for (const [status, answer] of Object.entries(route.responses)) {
    const content: JsonObject = {
      ...(answer.schema === undefined
        ? {}
        : {
            'application/json': {
              schema: ref(nameOf(RESPONSE_SCHEMAS, answer.schema, `${route.operationId} ${status}`)),
            },
          }),
      ...answer.content,
    };
    answers[status] = {
      description: answer.description,
      ...(answer.headers === undefined ? {} : { headers: answer.headers }),
      ...(Object.keys(content).length === 0 ? {} : { content }),
    };
  }
  return { ...answers, ...problemResponses(route) };
}

function operation(route: RouteDeclaration): JsonObject {
  const parameterList = parameters(route);
  const body = route.body;
  return {
    operationId: route.operationId,
    tags: [route.tag],
    summary: route.summary,
    ...(route.description === undefined ? {} : { description: route.description }),
    security: security(route),
    ...(parameterList.length === 0 ? {} : { parameters: parameterList }),
    ...(body === undefined || isOpaqueBody(body)
      ? {}
      : {
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: ref(nameOf(REQUEST_SCHEMAS, body, `${route.operationId} body`)) },
            },
          },
        }),
    responses: responses(route),
    ...route.extensions,
  };
}

const DESCRIPTION = `The review workbench’s own API: sessions, the shared review queue, operators.

**Session.** \`POST /api/session\` (or the one-time set-up link, \`POST /api/setup\`) sets the \`${SESSION_COOKIE}\` cookie (HttpOnly, SameSite=Lax, Secure over HTTPS) and answers the session’s CSRF token; \`GET /api/session\` gives it again. Behind the company’s proxy, its single sign-on header opens a session the same way. A route that needs a session answers \`401-011\` without one.

**CSRF.** Every state-changing request (anything but GET, HEAD, OPTIONS) of a session sends the session’s token in the \`${CSRF_HEADER}\` header (\`403-004\` otherwise).

**Other sites.** A state-changing request that a browser sends from another site’s page (an \`Origin\` that is not the app’s own, or \`Sec-Fetch-Site: cross-site\`/\`same-site\`) is refused with \`403-003\`, whatever its credentials; no answer carries \`Access-Control-*\` headers.

**Errors.** Every refusal is a problem-details body (\`application/problem+json\`, the \`Problem\` schema) with a stable \`code\` (docs/errors.md). Besides those listed for each operation, any request may meet \`421-001\` (a \`Host\` the server does not answer to), \`404-015\` (no such route), \`503-001\` (the review store is not answering: try again after \`Retry-After\`) and \`500-001\`.`;

function build(): JsonObject {
  const requestSchemas = toComponents(REQUEST_SCHEMAS, 'input');
  const responseSchemas = toComponents(RESPONSE_SCHEMAS, 'output');
  for (const name of Object.keys(requestSchemas)) {
    if (name in responseSchemas) throw new Error(`schema ${name} is both a request and a response`);
  }

  const paths: Record<string, Record<string, JsonObject>> = {};
  for (const route of reviewApiRoutes as readonly RouteDeclaration[]) {
    const item = (paths[route.path] ??= {});
    if (item[route.method] !== undefined) throw new Error(`${route.method} ${route.path} is declared twice`);
    item[route.method] = operation(route);
  }

  const packageJson = JSON.parse(
    readFileSync(path.resolve(import.meta.dirname, '..', '..', '..', '..', 'package.json'), 'utf8'),
  ) as { version: string };

  return {
    openapi: '3.1.1',
    info: { title: 'extraction-review review API', version: packageJson.version, description: DESCRIPTION },
    servers: [{ url: '/' }],
    tags: [
      { name: 'session', description: 'Signing in and out, and the one-time set-up link.' },
      { name: 'review', description: 'The shared review queue.' },
      { name: 'operators', description: 'Operators (admins only).' },
      { name: 'meta', description: 'This document.' },
    ],
    paths,
    components: {
      schemas: { ...requestSchemas, ...responseSchemas },
      securitySchemes: {
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: SESSION_COOKIE,
          description: 'The session cookie, set by `POST /api/session` or `POST /api/setup`.',
        },
        csrf: {
          type: 'apiKey',
          in: 'header',
          name: CSRF_HEADER,
          description:
            'The session’s CSRF token (`csrfToken` of the session), on every state-changing request.',
        },
      },
    },
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

let built: JsonObject | undefined;

/** The document, built once (frozen). */
export function reviewOpenApiDocument(): object {
  built ??= deepFreeze(build());
  return built;
}
