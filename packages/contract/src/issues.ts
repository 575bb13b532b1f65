/**
 * zod issues turned into what a person can act on: the exact JSON path, a JSON Pointer in the form the
 * service uses in problem details (`#/model_id`, v2/job/fail_422.json), and a short message.
 *
 * Used for responses that do not match their schema (SchemaMismatchError) and for what we are about to
 * send (the enqueue form, the data-schema editor, v1 feedback), so a form can show the same kind of
 * message next to a field whether the check ran here or on the server.
 */
import type { z } from 'zod';

export interface ValidationIssue {
  /** `inference.result.fields.total.locations[0].polygon[1][0]`; `(root)` for the value itself. */
  path: string;
  /** RFC 6901 pointer in URI-fragment form, as in the service's `errors[].pointer`: `#/replace/fields/0/name`. */
  pointer: string;
  message: string;
}

type PathSegment = PropertyKey;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function formatPath(path: readonly PathSegment[]): string {
  if (path.length === 0) return '(root)';
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else {
      const key = String(segment);
      if (IDENTIFIER.test(key)) out += out === '' ? key : `.${key}`;
      else out += `[${JSON.stringify(key)}]`;
    }
  }
  return out;
}

export function toPointer(path: readonly PathSegment[]): string {
  return `#${path.map((s) => `/${String(s).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('')}`;
}

function describeInput(input: unknown): string {
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'array';
  if (typeof input === 'string') return input.length > 40 ? 'string' : `string ${JSON.stringify(input)}`;
  if (typeof input === 'number' || typeof input === 'boolean') return `${typeof input} ${String(input)}`;
  return typeof input;
}

function bound(exact: boolean | undefined, inclusive: boolean | undefined, op: '<' | '>') {
  if (exact) return '=';
  return inclusive === false ? op : `${op}=`;
}

/**
 * A per-parse error map giving short messages in the style `expected number <= 1`. Messages written on a
 * schema (`{ error: '...' }`) take precedence over it, as zod does for any per-parse map.
 */
export const conciseMessages: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined
        ? `required (expected ${issue.expected})`
        : `expected ${issue.expected}, received ${describeInput(issue.input)}`;
    case 'too_big': {
      const max = String(issue.maximum);
      if (issue.origin === 'array' || issue.origin === 'set') return `expected at most ${max} items`;
      if (issue.origin === 'string') return `expected at most ${max} characters`;
      if (issue.origin === 'file') return `expected at most ${max} bytes`;
      return `expected ${issue.origin} ${bound(issue.exact, issue.inclusive, '<')} ${max}`;
    }
    case 'too_small': {
      const min = String(issue.minimum);
      if (issue.origin === 'array' || issue.origin === 'set') return `expected at least ${min} items`;
      if (issue.origin === 'string') return `expected at least ${min} characters`;
      if (issue.origin === 'file') return `expected at least ${min} bytes`;
      return `expected ${issue.origin} ${bound(issue.exact, issue.inclusive, '>')} ${min}`;
    }
    case 'invalid_value':
      return `expected ${issue.values.length === 1 ? '' : 'one of '}${issue.values.map((v) => JSON.stringify(v)).join(', ')}, received ${describeInput(issue.input)}`;
    case 'invalid_format':
      return issue.format === 'regex'
        ? 'does not have the expected format'
        : `expected a valid ${issue.format}`;
    case 'unrecognized_keys':
      return `unexpected ${issue.keys.length === 1 ? 'key' : 'keys'} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`;
    case 'invalid_union':
      return 'does not match any of the expected shapes';
    default:
      return undefined;
  }
};

/**
 * A union reports one list of issues per option. The option the value was meant to be is the one that got
 * furthest: deepest issue first, then fewest missing keys, then fewest issues. A v2 field with a `value`
 * key fails the object and list options for want of `fields`/`items`, and the simple option on what is
 * really wrong.
 */
function bestBranch(branches: readonly z.core.$ZodIssue[][]): z.core.$ZodIssue[] | undefined {
  const score = (branch: readonly z.core.$ZodIssue[]): number[] => [
    -Math.max(...branch.map((i) => i.path.length)),
    branch.filter((i) => i.code === 'invalid_type' && i.input === undefined).length,
    branch.length,
  ];
  const lower = (a: number[], b: number[]): boolean => {
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return (a[i] ?? 0) < (b[i] ?? 0);
    return false;
  };
  let best: { branch: z.core.$ZodIssue[]; score: number[] } | undefined;
  for (const branch of branches) {
    if (branch.length === 0) continue;
    const s = score(branch);
    if (best === undefined || lower(s, best.score)) best = { branch, score: s };
  }
  return best?.branch;
}

/** `expected string or number, received object` when every option of a union is a plain type. */
function typeUnionMessage(issue: z.core.$ZodIssueInvalidUnion): string | undefined {
  const expected: string[] = [];
  for (const branch of issue.errors) {
    const only = branch[0];
    if (branch.length !== 1 || only?.code !== 'invalid_type' || only.path.length > 0) return undefined;
    if (!expected.includes(only.expected)) expected.push(only.expected);
  }
  if (expected.length === 0) return undefined;
  const alternatives =
    expected.length === 1 ? expected[0] : `${expected.slice(0, -1).join(', ')} or ${expected.at(-1) ?? ''}`;
  return `expected ${alternatives}, received ${describeInput(issue.input)}`;
}

function flatten(issues: readonly z.core.$ZodIssue[], prefix: readonly PathSegment[]): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    let message = issue.message;
    if (issue.code === 'invalid_union') {
      const typeMessage = typeUnionMessage(issue);
      const branch = typeMessage === undefined ? bestBranch(issue.errors) : undefined;
      if (branch) {
        out.push(...flatten(branch, path));
        continue;
      }
      message = typeMessage ?? message;
    }
    if (issue.code === 'unrecognized_keys') {
      // One issue per key, at the key itself, so a form or an editor can mark it.
      for (const key of issue.keys) {
        const keyPath = [...path, key];
        out.push({ path: formatPath(keyPath), pointer: toPointer(keyPath), message: 'unexpected key' });
      }
      continue;
    }
    out.push({ path: formatPath(path), pointer: toPointer(path), message });
  }
  return out;
}

export function toValidationIssues(error: z.ZodError | z.core.$ZodError): ValidationIssue[] {
  return flatten(error.issues, []);
}

export type Checked<T> = { success: true; data: T } | { success: false; issues: ValidationIssue[] };

/** `schema.safeParse` with the concise messages and the issues already flattened. */
export function check<S extends z.ZodType>(schema: S, value: unknown): Checked<z.output<S>> {
  // reportInput: the union reading above needs to see which keys were missing.
  const result = schema.safeParse(value, { error: conciseMessages, reportInput: true });
  return result.success
    ? { success: true, data: result.data }
    : { success: false, issues: toValidationIssues(result.error) };
}

/** One line per issue, `path: message`, for logs and error messages. */
export function describeIssues(issues: readonly ValidationIssue[], max = 3): string {
  const shown = issues.slice(0, max).map((i) => `${i.path}: ${i.message}`);
  const rest = issues.length - shown.length;
  return rest > 0 ? `${shown.join('; ')} (and ${rest} more)` : shown.join('; ');
}
