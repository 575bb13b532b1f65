/**
 * A JSON request body checked against its zod schema: a body that is not JSON is a 400, one that does
 * not fit a 422 whose `errors[]` point into it (JSON Pointers), the way the hosted API answers.
 */
import type { Context } from 'hono';
import type { z } from 'zod';
import { ProblemError } from '../../shared/problem';

/** Review requests are small: corrections of a document, a name and a password. */
const MAX_BODY_BYTES = 1024 * 1024;

export async function readBody<T extends z.ZodType>(c: Context, schema: T): Promise<z.infer<T>> {
  const declared = Number(c.req.header('content-length') ?? '0');
  if (declared > MAX_BODY_BYTES) {
    throw new ProblemError('413-001', `The request body is over ${MAX_BODY_BYTES} bytes.`);
  }
  const text = await c.req.text();
  if (text.length > MAX_BODY_BYTES)
    throw new ProblemError('413-001', `The request body is over ${MAX_BODY_BYTES} bytes.`);
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    throw new ProblemError('400-001', 'The request body is not JSON.');
  }
  const checked = schema.safeParse(parsed);
  if (!checked.success) {
    throw new ProblemError('422-008', 'The request body is not what this route takes; see errors.', {
      errors: checked.error.issues.map((issue) => ({
        pointer: `#/${issue.path.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`,
        detail: issue.message,
      })),
    });
  }
  return checked.data;
}

/** The query string checked against its schema (422 with pointers to the parameters). */
export function readQuery<T extends z.ZodType>(c: Context, schema: T): z.infer<T> {
  const checked = schema.safeParse(c.req.query());
  if (!checked.success) {
    throw new ProblemError('422-008', 'The query string is not what this route takes; see errors.', {
      errors: checked.error.issues.map((issue) => ({
        pointer: `#/${issue.path.map(String).join('/')}`,
        detail: issue.message,
      })),
    });
  }
  return checked.data;
}
