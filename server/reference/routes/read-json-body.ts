import { ProblemError } from '../../shared/problem';

/**
 * A request's JSON body, read with a size cap (a base64 document makes it large) and required to be
 * an object. Not JSON: 400-001; too large or not an object: the caller's own problem (its pointer
 * names its own parameter).
 */
export async function readJsonObject(
  request: Request,
  maxBytes: number,
  problems: { tooLarge: () => ProblemError; notAnObject: () => ProblemError },
): Promise<Record<string, unknown>> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    try {
      for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
        size += chunk.length;
        if (size > maxBytes) throw problems.tooLarge();
        chunks.push(chunk);
      }
    } catch (error) {
      if (error instanceof ProblemError) throw error;
      // The client went away or half-closed mid-body: its problem, not the service's (nothing logged).
      throw new ProblemError('400-001', 'The request body was cut short before it arrived in full.', {
        cause: error,
      });
    }
  }
  let value: unknown;
  try {
    value = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch (error) {
    throw new ProblemError('400-001', `The JSON body could not be read: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw problems.notAnObject();
  return value as Record<string, unknown>;
}
