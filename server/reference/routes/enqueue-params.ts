/**
 * The enqueue parameters (spec §4.1), from either encoding, checked all at once: every problem is one
 * `errors[]` item with a JSON pointer (`#/data_schema/replace/fields/0/name`), in one `422-001`.
 *
 * One contract with the browser app: `url`, `file_base64`, `filename`, `webhook_ids` and `data_schema`
 * are checked with the app's own schemas (packages/contract/src/v2/request-schemas.ts); `model_id` keeps the hosted
 * service's recorded wording (v2/job/fail_422.json).
 *
 * Encodings (API-FACTS):
 * - multipart: every value is a string. Booleans are `true`/`false` (any case), sent only when set.
 *   `webhook_ids` may be repeated, or one comma-joined value, or both.
 * - JSON: the same names, no `file`. Booleans are JSON booleans (the strings `"true"`/`"false"` are
 *   taken too); `webhook_ids` is an array or a comma-joined string; `data_schema` is a JSON string as
 *   in multipart, or the object itself.
 * - Both: `null`, and an empty string, mean "not sent" (the spec makes every optional parameter
 *   nullable). Unknown parameters are ignored, as the hosted service's form handling does.
 */
import { z } from 'zod';
import { ProblemError, type ProblemItem } from '@extraction-review/contract/problem';
import { check } from '@extraction-review/contract/issues';
import { EnqueueExtractionInput } from '@extraction-review/contract/v2/request-schemas';
import type { RequestedOptions } from '../jobs/job-options';
import { checkDataSchemaParameter } from '@extraction-review/contract/v2/field-schema';
import type { Model, ModelCatalog } from '../models/model-catalog';
import { isUuid } from './identifiers';

export interface ParameterBag {
  encoding: 'multipart' | 'json';
  /** Each parameter's values as sent: strings in multipart (several when repeated), one JSON value. */
  values: ReadonlyMap<string, readonly unknown[]>;
  /** Multipart text parts cut at their size limit. */
  oversized: ReadonlySet<string>;
  /** A multipart file part named `file` was sent. */
  filePart: boolean;
}

export type Source = { kind: 'file' } | { kind: 'url'; url: string } | { kind: 'file_base64'; bytes: Buffer };

export interface EnqueueRequest {
  model: Model;
  source: Source;
  filename: string | null;
  alias: string | null;
  /** Lower case, without duplicates; each one of the model's webhooks. */
  webhookIds: string[];
  options: RequestedOptions;
}

const BOOLEAN_OPTIONS = ['raw_text', 'polygon', 'confidence', 'rag'] as const;

/** The members checked with the app's own schemas. */
const shared = EnqueueExtractionInput.shape;
const SharedMembers = z.object({
  url: shared.url,
  file_base64: shared.file_base64,
  filename: shared.filename,
  webhook_ids: shared.webhook_ids,
});

export function validateEnqueue(bag: ParameterBag, models: ModelCatalog): EnqueueRequest {
  const errors: ProblemItem[] = [];
  const add = (pointer: string, detail: string): void => {
    errors.push({ pointer, detail });
  };
  const given = (name: string): unknown => {
    const value = bag.values.get(name)?.[0];
    return value === null || value === '' ? undefined : value;
  };
  const text = (name: string): string | undefined => {
    const value = given(name);
    if (value === undefined) return undefined;
    if (typeof value === 'string') return value;
    add(`#/${name}`, `${name} must be a string`);
    return undefined;
  };
  for (const name of bag.oversized) {
    if (name !== 'file_base64') add(`#/${name}`, `${name} is too long`);
  }

  // model_id, in the hosted service's words.
  const modelId = given('model_id');
  let model: Model | undefined;
  if (modelId === undefined) add('#/model_id', 'model_id is required');
  else if (typeof modelId !== 'string' || !isUuid(modelId.trim())) {
    add('#/model_id', 'model_id must be a valid UUID format');
  } else {
    model = models.find(modelId.trim());
    if (!model) add('#/model_id', `no model has the id ${modelId.trim()}`);
  }

  // The members the app's schemas check.
  const url = text('url')?.trim();
  const fileBase64 = text('file_base64');
  const filename = text('filename');
  const webhookIds = webhookIdList(bag, add);
  const members = check(SharedMembers, {
    url,
    file_base64: fileBase64 === undefined ? undefined : stripWhitespace(fileBase64),
    filename,
    webhook_ids: webhookIds,
  });
  if (!members.success) {
    for (const issue of members.issues) add(issue.pointer, `${issue.path}: ${issue.message}`);
  }

  // Exactly one source.
  const sources: string[] = [];
  if (bag.filePart) sources.push('file');
  if (given('file') !== undefined && !bag.filePart) {
    add(
      '#/file',
      bag.encoding === 'json'
        ? 'file cannot be sent in a JSON body: send file_base64 or url, or use multipart/form-data'
        : 'file must be sent as a file part (with a filename), not as text',
    );
    sources.push('file');
  }
  if (url !== undefined) sources.push('url');
  if (fileBase64 !== undefined || bag.oversized.has('file_base64')) sources.push('file_base64');
  if (sources.length === 0) {
    add(
      bag.encoding === 'json' ? '#/url' : '#/file',
      bag.encoding === 'json'
        ? 'url or file_base64 is required'
        : 'file is required (or url, or file_base64)',
    );
  }
  for (const extra of sources.slice(1)) {
    add(`#/${extra}`, `give only one of file, url and file_base64 (${sources[0] ?? ''} is already given)`);
  }
  let base64Bytes: Buffer | undefined;
  if (fileBase64 !== undefined && members.success) {
    base64Bytes = decodeBase64(fileBase64);
    if (!base64Bytes) add('#/file_base64', 'file_base64 is not valid base64');
  }

  // Options.
  const options: RequestedOptions = {};
  for (const name of BOOLEAN_OPTIONS) {
    const value = readBoolean(bag.encoding, name, given(name), add);
    if (value !== undefined) options[name] = value;
  }
  const textContext = text('text_context');
  if (textContext !== undefined) options.textContext = textContext;
  const dataSchema = readDataSchema(given('data_schema'), add);
  if (dataSchema !== undefined) options.dataSchemaReplace = dataSchema;

  // Every webhook id must be one of the model's.
  const ids = [...new Set((webhookIds ?? []).map((id) => id.toLowerCase()))];
  if (model && members.success) {
    const known = new Set(model.webhooks.map((w) => w.id.toLowerCase()));
    (webhookIds ?? []).forEach((id, i) => {
      if (!known.has(id.toLowerCase())) {
        add(`#/webhook_ids/${i}`, `the model ${model.id} has no webhook with the id ${id}`);
      }
    });
  }

  if (errors.length > 0 || !model) {
    throw new ProblemError('422-001', 'One or more fields failed validation.', { errors });
  }
  const source: Source =
    url !== undefined
      ? { kind: 'url', url }
      : base64Bytes !== undefined
        ? { kind: 'file_base64', bytes: base64Bytes }
        : { kind: 'file' };
  return {
    model,
    source,
    filename: filename?.trim() ?? null,
    alias: text('alias') ?? null,
    webhookIds: ids,
    options,
  };
}

/** Every id, from repeated values, comma-joined values, or a JSON array; undefined when none sent. */
function webhookIdList(
  bag: ParameterBag,
  add: (pointer: string, detail: string) => void,
): string[] | undefined {
  const values = (bag.values.get('webhook_ids') ?? []).filter((v) => v !== null);
  if (values.length === 0) return undefined;
  const ids: string[] = [];
  for (const value of values) {
    if (typeof value === 'string') ids.push(...splitIds(value));
    else if (Array.isArray(value) && bag.encoding === 'json') {
      for (const item of value) {
        if (typeof item === 'string') ids.push(item.trim());
        else add(`#/webhook_ids/${ids.length}`, 'webhook_ids must hold strings');
      }
    } else add('#/webhook_ids', 'webhook_ids must be a list of ids or a comma-separated string');
  }
  return ids;
}

const splitIds = (value: string): string[] =>
  value
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '');

function readBoolean(
  encoding: ParameterBag['encoding'],
  name: string,
  value: unknown,
  add: (pointer: string, detail: string) => void,
): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'boolean' && encoding === 'json') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) {
    return value.trim().toLowerCase() === 'true';
  }
  add(
    `#/${name}`,
    encoding === 'json'
      ? `${name} must be true or false, got ${JSON.stringify(value)}`
      : `${name} must be "true" or "false", got "${String(value)}"`,
  );
  return undefined;
}

/** The replacement fields; null for `{ "replace": null }`; undefined when not sent or invalid. */
function readDataSchema(
  value: unknown,
  add: (pointer: string, detail: string) => void,
): ReturnType<typeof toFields> {
  if (value === undefined) return undefined;
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch (error) {
      add('#/data_schema', `data_schema is not valid JSON: ${(error as Error).message}`);
      return undefined;
    }
  }
  return toFields(parsed, add);
}

function toFields(parsed: unknown, add: (pointer: string, detail: string) => void) {
  const checked = checkDataSchemaParameter(parsed);
  if (checked.success) return checked.fields;
  for (const issue of checked.issues) {
    const where = issue.path === '(root)' ? 'data_schema' : `data_schema.${issue.path}`;
    add(`#/data_schema${issue.pointer.slice(1)}`, `${where}: ${issue.message}`);
  }
  return undefined;
}

const stripWhitespace = (s: string): string => s.replace(/\s+/g, '');

/**
 * Standard or URL-safe base64, padding optional, whitespace ignored; a `data:...;base64,` prefix is
 * taken off. Undefined when it is not base64.
 */
export function decodeBase64(value: string): Buffer | undefined {
  const body = stripWhitespace(value).replace(/^data:[^,]*;base64,/i, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(body) || body.replace(/=+$/, '').length % 4 === 1) return undefined;
  const bytes = Buffer.from(body, body.includes('-') || body.includes('_') ? 'base64url' : 'base64');
  return bytes.length === 0 ? undefined : bytes;
}
