/**
 * GET /api/openapi.json, generated from the route declarations (packages/contract/src/review/routes/): a valid
 * OpenAPI 3.1 document by the specification's own schema (every `$ref` resolves, every path
 * parameter declared), listing exactly the routes the Hono app serves, whose request schemas take the
 * bodies the routes take and whose Problem schema fits the problems the server sends; served over
 * real HTTP without a session.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ModelSettingsRequest } from '@extraction-review/contract/review/model-settings';
import { UncheckedGateRequest } from '@extraction-review/contract/review/unchecked-gate';
import { IMPORT_LIMITS_MB } from '@extraction-review/contract/review/routes/queue';
import {
  ConfirmRequest,
  CorrectionsRequest,
  NewOperatorRequest,
  PostponeRequest,
  QueueDocument,
  QueueQuery,
  ReassignRequest,
  PriorityRequest,
  RejectRequest,
  SetPasswordRequest,
  SetupRequest,
  SignInRequest,
  ProviderCallbackRequest,
  UpdateOperatorRequest,
  VersionRequest,
} from '@extraction-review/contract/review/schemas';
import { createApp } from '../../create-app';
import { listen, type RunningServer } from '../../listen';
import { BulkRequest } from '@extraction-review/contract/review/bulk';
import {
  NewSavedQueueRequest,
  UpdateSavedQueueRequest,
} from '@extraction-review/contract/review/saved-queues';
import { problemCatalog, ProblemError, type ProblemCode } from '@extraction-review/contract/problem';
import type { ReviewDatabase } from '../db/open-database';
import { openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { openReview, type OpenedReview } from '../open-review';
import type { IntegrationStore } from '../store/integration-store';
import type { OperatorStore } from '../store/operator-store';
import type { QueueStore } from '../store/queue-store';
import type { SessionStore } from '../store/session-store';
import type { RequestLimits } from '../store/request-limits';
import { createReviewApi } from './create-review-api';
import { reviewOpenApiDocument } from './openapi';
import type { ReviewContext } from '../review-context';
import { mountReview } from './mount-review';
import { MAX_IMPORT_FILE_BYTES, MAX_IMPORT_PART_BYTES } from './read-import-form';

type JsonSchema = { [keyword: string]: unknown };

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema: JsonSchema;
}

interface Operation {
  operationId: string;
  security: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: JsonSchema }> }>;
}

interface OpenApi {
  openapi: string;
  info: { title: string; version: string; description: string };
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, JsonSchema>;
    securitySchemes: Record<string, { type: string; in: string; name: string }>;
  };
}

const doc = reviewOpenApiDocument() as OpenApi;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function operations(): { method: string; path: string; operation: Operation }[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => ({ method, path, operation })),
  );
}

/** Where a `#/…` reference points in the document, or undefined. */
function resolve(reference: string): unknown {
  if (!reference.startsWith('#/')) return undefined;
  let node: unknown = doc;
  for (const raw of reference.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null || !(key in node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function refsIn(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) for (const child of node) refsIn(child, found);
  else if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') found.push(value);
      else refsIn(value, found);
    }
  }
  return found;
}

// ─── A small JSON Schema check: the keywords zod emits for these schemas, and no others ─────────────

const KNOWN = new Set([
  '$ref',
  'type',
  'properties',
  'required',
  'additionalProperties',
  'propertyNames',
  'items',
  'anyOf',
  'oneOf',
  'enum',
  'const',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
  'default',
  'description',
]);

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function hasType(value: unknown, type: string): boolean {
  if (type === 'integer') return Number.isInteger(value);
  return typeOf(value) === type;
}

/** The reasons `value` does not fit `schema` (none when it fits). */
function check(schema: JsonSchema, value: unknown, at = '#'): string[] {
  const unknown = Object.keys(schema).filter((keyword) => !KNOWN.has(keyword));
  if (unknown.length > 0) throw new Error(`the check does not know ${unknown.join(', ')} (at ${at})`);
  const errors: string[] = [];
  if (typeof schema.$ref === 'string') {
    const target = resolve(schema.$ref);
    if (target === undefined) return [`${at}: ${schema.$ref} does not resolve`];
    errors.push(...check(target as JsonSchema, value, at));
  }
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
    if (!types.some((type) => hasType(value, type))) return [...errors, `${at}: not ${types.join(' or ')}`];
  }
  if (Array.isArray(schema.anyOf)) {
    const fits = (schema.anyOf as JsonSchema[]).some((branch) => check(branch, value, at).length === 0);
    if (!fits) errors.push(`${at}: fits no branch of anyOf`);
  }
  if (Array.isArray(schema.oneOf)) {
    const fitting = (schema.oneOf as JsonSchema[]).filter((branch) => check(branch, value, at).length === 0);
    if (fitting.length !== 1) errors.push(`${at}: fits ${fitting.length} branches of oneOf, not one`);
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) errors.push(`${at}: not in the enum`);
  if ('const' in schema && schema.const !== value) errors.push(`${at}: not ${JSON.stringify(schema.const)}`);
  if (typeof value === 'string') {
    if (typeof schema.minLength === 'number' && value.length < schema.minLength)
      errors.push(`${at}: too short`);
    if (typeof schema.maxLength === 'number' && value.length > schema.maxLength)
      errors.push(`${at}: too long`);
    if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern).test(value)) {
      errors.push(`${at}: does not match its pattern`);
    }
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) errors.push(`${at}: below minimum`);
    if (typeof schema.maximum === 'number' && value > schema.maximum) errors.push(`${at}: above maximum`);
    if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum) {
      errors.push(`${at}: not above exclusiveMinimum`);
    }
    if (typeof schema.exclusiveMaximum === 'number' && value >= schema.exclusiveMaximum) {
      errors.push(`${at}: not below exclusiveMaximum`);
    }
  }
  if (Array.isArray(value)) {
    if (typeof schema.minItems === 'number' && value.length < schema.minItems)
      errors.push(`${at}: too few items`);
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems)
      errors.push(`${at}: too many items`);
    if (typeof schema.items === 'object' && schema.items !== null) {
      value.forEach((item, i) => errors.push(...check(schema.items as JsonSchema, item, `${at}/${i}`)));
    }
  }
  if (typeOf(value) === 'object') {
    const object = value as Record<string, unknown>;
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    for (const name of (schema.required ?? []) as string[]) {
      if (!(name in object)) errors.push(`${at}: ${name} is missing`);
    }
    for (const [name, item] of Object.entries(object)) {
      const where = `${at}/${name}`;
      if (typeof schema.propertyNames === 'object' && schema.propertyNames !== null) {
        errors.push(...check(schema.propertyNames as JsonSchema, name, `${where} (name)`));
      }
      if (name in properties) errors.push(...check(properties[name] ?? {}, item, where));
      else if (schema.additionalProperties === false) errors.push(`${where}: not allowed`);
      else if (typeof schema.additionalProperties === 'object' && schema.additionalProperties !== null) {
        errors.push(...check(schema.additionalProperties as JsonSchema, item, where));
      }
    }
  }
  return errors;
}

const component = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

// ─── Examples ────────────────────────────────────────────────────────────────────────────────────────

const QUEUE_DOCUMENT: z.infer<typeof QueueDocument> = {
  id: '0b7f2f7e-4c1d-4a51-9a53-2f0e8f0e6b11',
  version: 4,
  apiVersion: 'v2',
  model: 'model-a',
  fileName: 'invoice.pdf',
  alias: null,
  state: 'in_review',
  holder: { id: 'f2c7c3de-4a0b-4d5e-8f43-1c2d3e4f5a6b', name: 'Alice' },
  leaseExpiresAt: '2026-11-24T09:01:00.000Z',
  decidedBy: null,
  decidedAt: null,
  reason: null,
  priority: 0,
  fieldsTotal: 5,
  fieldsToReview: 2,
  createdAt: '2026-11-24T09:00:00.000Z',
  readyAt: '2026-11-24T09:00:01.000Z',
  upstreamJobId: 'job-1',
  upstreamResultId: 'inf-1',
  uploadedBy: null,
  duplicateOf: null,
};

/** Each request schema of the document: bodies its route takes, and bodies it refuses. */
const REQUESTS: Record<string, { schema: z.ZodType; valid: unknown[]; invalid: unknown[] }> = {
  SignInRequest: {
    schema: SignInRequest,
    valid: [{ name: 'Ada', password: 'correct horse battery staple' }],
    invalid: [{ name: 'Ada' }, { name: 'Ada', password: 'x', admin: true }, { name: '', password: 'x' }],
  },
  ProviderCallbackRequest: {
    schema: ProviderCallbackRequest,
    valid: [{ callback: '?code=abc&state=xyz&iss=https%3A%2F%2Flogin.example.com' }],
    invalid: [{ callback: '' }, {}, { callback: '?code=abc', code: 'abc' }],
  },
  SetupRequest: {
    schema: SetupRequest,
    valid: [{ token: 'abc', name: 'Ada', password: 'correct horse battery staple' }],
    invalid: [
      { token: '', name: 'Ada', password: 'x' },
      { name: 'Ada', password: 'x' },
    ],
  },
  UpdateOperatorRequest: {
    schema: UpdateOperatorRequest,
    valid: [
      { role: 'admin', active: true },
      { role: 'operator', active: false },
    ],
    invalid: [{ role: 'boss', active: true }, { role: 'admin' }, { role: 'admin', active: true, name: 'x' }],
  },
  SetPasswordRequest: {
    schema: SetPasswordRequest,
    valid: [{ token: 'abc', password: 'correct horse battery staple' }],
    invalid: [{ token: '', password: 'x' }, { password: 'x' }],
  },
  NewOperatorRequest: {
    schema: NewOperatorRequest,
    valid: [
      { name: 'Bob', role: 'operator', password: '' },
      { name: 'Eve', role: 'admin', password: 'correct horse battery staple' },
    ],
    invalid: [
      { name: 'Bob', role: 'boss', password: '' },
      { name: 'Bob', role: 'operator' },
    ],
  },
  VersionRequest: {
    schema: VersionRequest,
    valid: [{ version: 3 }],
    invalid: [{}, { version: 0 }, { version: 1.5 }, { version: '3' }, { version: 3, reason: 'x' }],
  },
  ConfirmRequest: {
    schema: ConfirmRequest,
    valid: [
      { version: 3 },
      { version: 3, overrideReason: 'The supplier rounds each line.' },
      { version: 3, uncheckedConfirmed: 4 },
    ],
    invalid: [
      {},
      { version: 0 },
      { version: 3, overrideReason: '' },
      { version: 3, reason: 'x' },
      { version: 3, uncheckedConfirmed: -1 },
      { version: 3, uncheckedConfirmed: 1.5 },
    ],
  },
  UncheckedGateRequest: {
    schema: UncheckedGateRequest,
    valid: [{ strict: true }, { strict: false }],
    invalid: [{}, { strict: 'yes' }, { strict: true, version: 1 }],
  },
  ModelSettingsRequest: {
    schema: ModelSettingsRequest,
    valid: [
      { version: 0, routing: {}, rules: [] },
      {
        version: 1,
        routing: {},
        rules: [],
        reasons: { reject: ['Unreadable'], postpone: [], override: ['Checked against the paper original'] },
      },
      { version: 1, routing: {}, rules: [], retention: { filesAfterDays: 30, documentsAfterDays: 3650 } },
      { version: 1, routing: {}, rules: [], retention: { filesAfterDays: null, documentsAfterDays: null } },
      {
        version: 2,
        routing: {
          autoConfirm: true,
          minConfidence: 'High',
          requiredFields: ['total_net'],
          samplePercent: 5,
        },
        rules: [
          { id: 'a', kind: 'required', field: 'line_items[*].description' },
          { id: 'b', kind: 'pattern', field: 'invoice_number', pattern: '^INV-\\d+$' },
          { id: 'c', kind: 'date_range', field: 'date', min: '2024-01-01', max: '2030-12-31' },
          { id: 'd', kind: 'one_of', field: 'currency', values: ['EUR'] },
          {
            id: 'e',
            kind: 'sum',
            list: 'line_items',
            item: 'total_price',
            equals: 'total_net',
            tolerance: 0.01,
          },
          { id: 'f', kind: 'add', terms: ['total_net', 'total_tax'], equals: 'total_amount' },
          { id: 'g', kind: 'date_order', earlier: 'date', later: 'due_date' },
        ],
        feedbackEnabled: true,
      },
    ],
    invalid: [
      { routing: {}, rules: [] },
      { version: 0, routing: { samplePercent: 101 }, rules: [] },
      { version: 0, routing: {}, rules: [{ id: 'a', kind: 'sum', list: 'x' }] },
      { version: 0, routing: {}, rules: [{ id: 'a', kind: 'required', field: 'a b' }] },
      { version: 0, routing: {}, rules: [], reasons: { reject: [''], postpone: [], override: [] } },
      { version: 0, routing: {}, rules: [], reasons: { reject: [] } },
      { version: 0, routing: {}, rules: [], retention: { filesAfterDays: 0, documentsAfterDays: null } },
      { version: 0, routing: {}, rules: [], retention: { filesAfterDays: 30, documentsAfterDays: 3651 } },
      { version: 0, routing: {}, rules: [], retention: { filesAfterDays: 30 } },
    ],
  },
  CorrectionsRequest: {
    schema: CorrectionsRequest,
    valid: [
      {
        version: 3,
        corrections: [
          { path: 'total_amount', value: 12.5 },
          { path: 'line_items', value: [{ description: 'Tea', quantity: 2, code: null, ok: true }] },
        ],
      },
    ],
    invalid: [
      { version: 3, corrections: [] },
      { version: 3, corrections: [{ path: '', value: 1 }] },
      { version: 3, corrections: [{ path: 'a' }] },
    ],
  },
  RejectRequest: {
    schema: RejectRequest,
    valid: [{ version: 3, reason: 'The scan is blurred.' }],
    invalid: [{ version: 3 }, { version: 3, reason: '' }],
  },
  PostponeRequest: {
    schema: PostponeRequest,
    valid: [{ version: 3 }, { version: 3, reason: 'Waiting for the supplier.' }],
    invalid: [{ reason: 'x' }],
  },
  ReassignRequest: {
    schema: ReassignRequest,
    valid: [{ operator: 'Bob' }, { operator: QUEUE_DOCUMENT.id }],
    invalid: [{ operator: '' }, {}],
  },
  PriorityRequest: {
    schema: PriorityRequest,
    valid: [{ priority: 5 }, { priority: -1 }, { priority: 0 }],
    invalid: [{ priority: 1.5 }, { priority: 5000 }, {}],
  },
  BulkRequest: {
    schema: BulkRequest,
    valid: [
      { action: 'priority', ids: [QUEUE_DOCUMENT.id], priority: 3 },
      { action: 'assign', ids: [QUEUE_DOCUMENT.id], operator: 'Bob' },
      { action: 'unassign', ids: [QUEUE_DOCUMENT.id] },
      { action: 'reject', ids: [QUEUE_DOCUMENT.id], reason: 'Sent twice.' },
      { action: 'delete', ids: [QUEUE_DOCUMENT.id] },
    ],
    invalid: [
      { action: 'delete', ids: [] },
      { action: 'reject', ids: [QUEUE_DOCUMENT.id] },
      { action: 'explode', ids: [QUEUE_DOCUMENT.id] },
      { action: 'unassign', ids: [QUEUE_DOCUMENT.id], operator: 'Bob' },
      { action: 'delete', ids: ['x'] },
    ],
  },
  NewSavedQueueRequest: {
    schema: NewSavedQueueRequest,
    valid: [
      { name: 'Receipts', filters: { model: 'receipt-model', state: 'to_review' } },
      { name: 'Invoices over 10,000', filters: { minAmount: 10000 } },
      { name: 'Mine', filters: { assigned: 'me' } },
    ],
    // "At least one filter" and "from not above to" are the server's checks (422-008), not the schema's.
    invalid: [
      { name: '', filters: { state: 'to_review' } },
      { name: 'Colours', filters: { colour: 'red' } },
      { filters: { state: 'to_review' } },
    ],
  },
  UpdateSavedQueueRequest: {
    schema: UpdateSavedQueueRequest,
    valid: [
      { version: 1, name: 'Big invoices' },
      { version: 2, filters: { maxAmount: 500 } },
    ],
    invalid: [{ name: 'No version' }, { version: 0, name: 'Zero' }],
  },
  QueueQuery: {
    schema: QueueQuery,
    valid: [
      {},
      { state: 'to_review', q: 'invoice', from: '2026-11-24T09:00:00+01:00', limit: 20 },
      { sort: '-priority' },
    ],
    invalid: [{ state: 'lost' }, { limit: 0 }, { limit: 500 }, { from: 'yesterday' }, { sort: 'colour' }],
  },
};

function problemBody(code: ProblemCode, options?: ConstructorParameters<typeof ProblemError>[2]): unknown {
  return JSON.parse(JSON.stringify(new ProblemError(code, 'An occurrence.', options).toBody())) as unknown;
}

function stubContext(): ReviewContext {
  return {
    database: {} as ReviewDatabase,
    queue: {} as QueueStore,
    operators: {} as OperatorStore,
    integrations: {} as IntegrationStore,
    sessions: {} as SessionStore,
    clock: { now: () => 0 },
    limits: {} as RequestLimits,
    isHttps: () => false,
    clientAddress: () => 'in-process',
  };
}

describe('the review API’s OpenAPI document', () => {
  it('is OpenAPI 3.1 with its info, server and security schemes', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.title).toBe('extraction-review review API');
    expect(doc.info.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(doc.info.description).toMatch(/X-CSRF-Token/);
    expect(doc.components.securitySchemes).toEqual({
      session: expect.objectContaining({ type: 'apiKey', in: 'cookie', name: 'er_session' }),
      csrf: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-CSRF-Token' }),
    });
    expect(reviewOpenApiDocument()).toBe(doc);
  });

  it('is valid by the OpenAPI 3.1 schema', async () => {
    const validator = new Validator();
    const result = await validator.validate(JSON.parse(JSON.stringify(doc)) as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('states the limits the server applies', () => {
    expect(IMPORT_LIMITS_MB.file * 1024 * 1024).toBe(MAX_IMPORT_FILE_BYTES);
    expect(IMPORT_LIMITS_MB.part * 1024 * 1024).toBe(MAX_IMPORT_PART_BYTES);
  });

  it('resolves every $ref to a component, and names every schema the routes use', () => {
    const refs = refsIn(doc);
    expect(refs.length).toBeGreaterThan(50);
    for (const reference of refs) {
      expect(reference, reference).toMatch(/^#\/components\/schemas\/[A-Za-z]+$/);
      expect(resolve(reference), reference).toBeTypeOf('object');
    }
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining([
        'SignInRequest',
        'SessionResponse',
        'SetupRequest',
        'NewOperatorRequest',
        'OperatorView',
        'QueueDocument',
        'ReviewDocument',
        'DocumentResponse',
        'StateCounts',
        'QueuePage',
        'QueueQuery',
        'VersionRequest',
        'CorrectionsRequest',
        'RejectRequest',
        'PostponeRequest',
        'ReassignRequest',
        'PriorityRequest',
        'TimelineEntry',
        'TimelineResponse',
        'Problem',
      ]),
    );
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      expect(schema, name).not.toHaveProperty('$id');
      expect(schema, name).not.toHaveProperty('$schema');
    }
  });

  it('declares every path parameter of every path template, and no other', () => {
    for (const { method, path, operation } of operations()) {
      const inTemplate = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]).sort();
      const declared = (operation.parameters ?? []).filter((p) => p.in === 'path');
      expect(declared.map((p) => p.name).sort(), `${method} ${path}`).toEqual(inTemplate);
      for (const parameter of declared) expect(parameter.required).toBe(true);
    }
  });

  it('gives every operation a unique id, a success answer and problems of documented codes', () => {
    const ids = operations().map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { method, path, operation } of operations()) {
      const statuses = Object.keys(operation.responses);
      expect(
        statuses.some((status) => status.startsWith('2')),
        `${method} ${path}`,
      ).toBe(true);
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) < 400) continue;
        expect(response.content?.['application/problem+json']?.schema).toEqual(component('Problem'));
        const codes = [...response.description.matchAll(/`(\d{3}-\d{3})`/g)].map((match) => match[1]);
        expect(codes.length, `${method} ${path} ${status}`).toBeGreaterThan(0);
        for (const code of codes) {
          expect(problemCatalog[code as ProblemCode]?.status, `${method} ${path} ${code}`).toBe(
            Number(status),
          );
        }
      }
    }
  });

  it('asks for a session where the routes do, and the CSRF token on every change', () => {
    const open = new Set([
      'post /api/session',
      'get /api/session/options',
      'post /api/session/provider',
      'post /api/session/provider/callback',
      'post /api/setup',
      'get /api/setup/{token}',
      'get /api/password-links/{token}',
      'post /api/password-links',
      'get /api/openapi.json',
    ]);
    for (const { method, path, operation } of operations()) {
      const key = `${method} ${path}`;
      if (open.has(key)) expect(operation.security, key).toEqual([]);
      else if (key === 'get /api/session') expect(operation.security, key).toEqual([{}, { session: [] }]);
      else if (method === 'get') expect(operation.security, key).toEqual([{ session: [] }]);
      else expect(operation.security, key).toEqual([{ session: [], csrf: [] }]);
      if (!open.has(key)) expect(operation.responses['401'], key).toBeDefined();
      if (method !== 'get') expect(operation.responses['403']?.description, key).toMatch(/403-003/);
    }
  });

  it('lists exactly the routes the app serves', () => {
    const app = createReviewApi(stubContext());
    const served = new Set(
      app.routes
        // Middleware (`use('*')`), mounted under a prefix, shows as ALL <prefix>/*.
        .filter((route) => !(route.method === 'ALL' && route.path.endsWith('*')))
        .map(
          (route) => `${route.method.toLowerCase()} /api${route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`,
        ),
    );
    const documented = operations().map(({ method, path }) => `${method} ${path}`);
    expect(new Set(documented).size).toBe(documented.length);
    expect([...served].sort()).toEqual([...documented].sort());
  });

  it('has a query parameter for each property of QueueQuery on GET /api/review/documents', () => {
    const operation = doc.paths['/api/review/documents']?.get;
    const query = (operation?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
    expect(query.sort()).toEqual(Object.keys(QueueQuery.shape).sort());
    const timeline = doc.paths['/api/review/documents/{id}/timeline']?.get;
    expect(Object.keys(timeline?.responses['200']?.content ?? {}).sort()).toEqual([
      'application/json',
      'text/csv',
    ]);
    expect(doc.paths['/api/review/next']?.post?.responses['204']).toBeDefined();
    expect(doc.paths['/api/operators/{id}']?.delete?.responses['204']).toBeDefined();
    expect(doc.paths['/api/operators']?.post?.responses['201']).toBeDefined();
  });

  it('takes, in its request schemas, the bodies the routes take, and refuses the others', () => {
    const bodies = operations().flatMap(({ operation }) =>
      Object.values(operation.requestBody?.content ?? {}).map(({ schema }) => schema),
    );
    for (const body of bodies) {
      const name = String(body.$ref).split('/').pop() ?? '';
      expect(REQUESTS, `an example of ${name}`).toHaveProperty(name);
    }
    for (const [name, { schema, valid, invalid }] of Object.entries(REQUESTS)) {
      for (const value of valid) {
        expect(schema.safeParse(value).success, `${name} (zod) takes ${JSON.stringify(value)}`).toBe(true);
        expect(check(component(name), value), `${name} takes ${JSON.stringify(value)}`).toEqual([]);
      }
      for (const value of invalid) {
        expect(schema.safeParse(value).success, `${name} (zod) refuses ${JSON.stringify(value)}`).toBe(false);
        expect(check(component(name), value), `${name} refuses ${JSON.stringify(value)}`).not.toEqual([]);
      }
    }
  });

  it('describes the problems the server sends with its Problem schema', () => {
    const problem = doc.components.schemas.Problem ?? {};
    expect(Object.keys(problem.properties as object)).toEqual(
      expect.arrayContaining(['status', 'title', 'detail', 'code', 'errors', 'current']),
    );
    expect(problem.required).toEqual(expect.arrayContaining(['status', 'title', 'detail', 'code', 'errors']));
    expect(problem.required).not.toContain('current');

    expect(QueueDocument.parse(QUEUE_DOCUMENT)).toEqual(QUEUE_DOCUMENT);
    const bodies = [
      problemBody('401-011'),
      problemBody('422-008', { errors: [{ pointer: '#/password', detail: 'Too short.' }] }),
      problemBody('409-001', { extensions: { current: QUEUE_DOCUMENT } }),
      problemBody('403-006', {
        extensions: { current: { ...QUEUE_DOCUMENT, holder: null, leaseExpiresAt: null } },
      }),
      problemBody('422-008', { errors: [{ pointer: null, detail: 'Whole body.' }] }),
    ];
    for (const body of bodies) expect(check(component('Problem'), body), JSON.stringify(body)).toEqual([]);
    expect(
      check(component('Problem'), { status: 409, title: 'x', detail: 'x', code: '409-001' }),
    ).not.toEqual([]);
    expect(
      check(component('Problem'), problemBody('409-001', { extensions: { current: { id: 'x' } } })),
    ).not.toEqual([]);
  });
});

describe('GET /api/openapi.json over HTTP', () => {
  let store: TestStore;
  let review: OpenedReview;
  let server: RunningServer;

  beforeAll(async () => {
    store = await openTestStore('sqlite');
    review = await openReview({ ...store.settings });
    server = await listen(createApp({ upstream: {}, staticDir: null, review: mountReview(review) }), {
      host: '127.0.0.1',
      port: 0,
    });
  });
  afterAll(async () => {
    await server?.close();
    await review?.close();
    await store?.cleanup();
  });

  it('answers the document without a session', async () => {
    const response = await fetch(`${server.url}/api/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json\b/);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(await response.json()).toEqual(JSON.parse(JSON.stringify(doc)));
  });

  it('describes the problems the running server answers', async () => {
    const signedOut = await fetch(`${server.url}/api/session`);
    expect(signedOut.status).toBe(401);
    expect(doc.paths['/api/session']?.get?.responses['401']).toBeDefined();
    expect(check(component('Problem'), await signedOut.json())).toEqual([]);

    const badBody = await fetch(`${server.url}/api/session`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Ada' }),
    });
    expect(badBody.status).toBe(422);
    expect(doc.paths['/api/session']?.post?.responses['422']).toBeDefined();
    expect(check(component('Problem'), await badBody.json())).toEqual([]);
  });
});
