/**
 * One contract for both sides: every body the reference service writes is parsed with the browser
 * app's own zod schemas (packages/contract/src/v2/schemas.ts). Those schemas read liberally and drop unknown keys,
 * so this also checks that nothing was dropped: the service writes no key the app does not know.
 */
import { expect } from 'vitest';
import type { z } from 'zod';
import {
  ErrorResponse,
  ExtractionResponse,
  JobResponse,
  ModelsSearchResponse,
} from '@extraction-review/contract/v2/schemas';

/** The body parsed with `schema`, which must have dropped none of its keys. */
export function expectContract<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new Error(`Body does not match the app's schema:\n${parsed.error.message}`);
  expect(keysOf(parsed.data)).toEqual(keysOf(body));
  return parsed.data;
}

/** Every key path of a JSON value, for comparing shapes without comparing values. */
function keysOf(value: unknown, at = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => keysOf(item, `${at}[${i}]`));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value)
      .flatMap(([key, v]) => [`${at}.${key}`, ...keysOf(v, `${at}.${key}`)])
      .sort();
  }
  return [];
}

export const expectJobResponse = (body: unknown) => expectContract(JobResponse, body);
export const expectExtractionResponse = (body: unknown) => expectContract(ExtractionResponse, body);
export const expectProblem = (body: unknown) => expectContract(ErrorResponse, body);
export const expectModelsSearchResponse = (body: unknown) => expectContract(ModelsSearchResponse, body);
