/**
 * A raw HTTP client for tests (node:http), for what fetch will not send: hop-by-hop headers, a body
 * written chunk by chunk, a connection cut on purpose.
 */
import http, { type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export function rawRequest(
  url: string,
  options: { method?: string; headers?: OutgoingHttpHeaders; body?: string | Buffer } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** The JSON body of a response (throws with the raw text when it is not JSON). */
export function json<T = unknown>(response: RawResponse): T {
  const text = response.body.toString();
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new Error(`Not JSON (${response.status}): ${text.slice(0, 200)}`);
  }
}
