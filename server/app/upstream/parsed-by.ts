import type { z } from 'zod';
import { UpstreamSchemaMismatch } from './upstream-client';

/** `body` as `schema` reads it, or an `UpstreamSchemaMismatch` naming what was read and where it differs. */
export function parsedBy<S extends z.ZodType>(schema: S, body: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const first = parsed.error.issues[0];
  const where = first === undefined || first.path.length === 0 ? '' : ` at ${first.path.join('.')}`;
  throw new UpstreamSchemaMismatch(
    `${what} is not what the contract describes${where}: ${first?.message ?? 'unreadable'}`,
    { cause: parsed.error },
  );
}
