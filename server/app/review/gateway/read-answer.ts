/** Reading the upstream's answers within bounds (isolation.ts, rag-add.ts). */
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;

/**
 * The text of a stream, or undefined once it passes `limit` bytes (the rest is cancelled, not read).
 */
export async function readTextUpTo(
  body: ReadableStream<Uint8Array> | null,
  limit: number,
): Promise<string | undefined> {
  if (body === null) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * An answer's JSON, read from a copy (the answer itself still goes to the client untouched); undefined
 * when it is not JSON, is larger than `limit`, or does not parse.
 */
export async function answerJson(response: Response, limit: number): Promise<unknown> {
  if (!JSON_TYPE.test(response.headers.get('content-type') ?? '')) return undefined;
  if (response.headers.get('content-encoding') !== null) return undefined;
  const text = await readTextUpTo(response.clone().body, limit);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The last segment of a URL's path (an id at the end of `Location` or `result_url`). */
export function lastSegment(url: string, shape: RegExp): string | undefined {
  try {
    const pathname = new URL(url, 'http://gateway.invalid').pathname;
    return shape.exec(pathname)?.[1];
  } catch {
    return undefined;
  }
}

/** A JSON object's member, if it is an object. */
export function member(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

export const stringOf = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;
