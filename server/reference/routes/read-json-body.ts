import { readBodyText } from '@extraction-review/server-kit/body-limit';
import { checkJsonDepth } from '@extraction-review/server-kit/json-depth';
import { ProblemError } from '@extraction-review/contract/problem';

/**
 * A request's JSON body, read with a size cap (a base64 document makes it large) and required to be
 * an object. Not JSON: 400-001; nested deeper than 64 levels: 422-010; too large (counted as it
 * streams, whatever its framing) or not an object: the caller's own problem (its pointer names its
 * own parameter).
 */
export async function readJsonObject(
  request: Request,
  maxBytes: number,
  problems: { tooLarge: () => ProblemError; notAnObject: () => ProblemError },
): Promise<Record<string, unknown>> {
  const text = await readBodyText(request, maxBytes, problems.tooLarge);
  checkJsonDepth(text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ProblemError('400-001', `The JSON body could not be read: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw problems.notAnObject();
  return value as Record<string, unknown>;
}
