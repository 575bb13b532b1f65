/**
 * A JSON request body checked against its zod schema: a body over 1 MB is a 413 (read no further), one
 * nested deeper than 64 levels a 422 `422-010`, one that is not JSON a 400, one that does not fit a 422
 * whose `errors[]` point into it (JSON Pointers), the way the hosted API answers.
 */
import type { Context } from 'hono';
import type { z } from 'zod';
import { DEFAULT_MAX_BODY_BYTES, readBodyText } from '@extraction-review/server-kit/body-limit';
import { checkJsonDepth } from '@extraction-review/server-kit/json-depth';
import { ProblemError } from '@extraction-review/contract/problem';

/**
 * Review requests are small: corrections of a document, a name and a password. Counted as the body
 * streams in, whatever its framing, so that no body is held past it (a chunked body declares no length).
 */
const MAX_BODY_BYTES = DEFAULT_MAX_BODY_BYTES;

export async function readBody<T extends z.ZodType>(c: Context, schema: T): Promise<z.infer<T>> {
  const text = await readBodyText(c.req.raw, MAX_BODY_BYTES);
  // Before parsing: validation recurses, and a body nested thousands deep overflowed its stack.
  checkJsonDepth(text);
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
