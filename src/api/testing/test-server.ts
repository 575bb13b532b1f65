// Node types for this test-only module, which tsconfig.app.json also compiles (it includes all of src/).
/**
 * A real HTTP server on 127.0.0.1 (port 0) for tests of the API layer: no fetch mocking, the requests go
 * through the same fetch, sockets and headers as in use.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import { createApiClient, type ApiClientOptions } from '../http';

export interface RecordedRequest {
  method: string;
  /** Path and query, as received. */
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** `performance.now()` when the request arrived. */
  at: number;
}

export type Handler = (req: RecordedRequest, res: http.ServerResponse, index: number) => void | Promise<void>;

export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** `<origin>/api`: what `createApiClient({ baseUrl })` takes. */
  baseUrl: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startTestServer(handler: Handler): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks),
        at: performance.now(),
      };
      requests.push(recorded);
      Promise.resolve(handler(recorded, res, requests.length - 1)).catch((error: unknown) => {
        res.statusCode = 599;
        res.end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    baseUrl: `${origin}/api`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

export function sendJson(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** The multipart form of a recorded request, parsed by the platform's own FormData reader. */
export async function readForm(req: RecordedRequest | undefined): Promise<FormData> {
  if (!req) throw new Error('No request was recorded');
  return new Request('http://test.invalid/', {
    method: 'POST',
    headers: { 'content-type': String(req.headers['content-type']) },
    body: new Uint8Array(req.body),
  }).formData();
}

/**
 * For a test file: `serve(handler)` starts a test server, closed after each test, and gives an API
 * client of it (options over `defaults`; no retries unless asked, so a failure shows at once).
 */
export function serveEach(defaults: ApiClientOptions = { retry: { limit: 0 } }) {
  const servers: TestServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  return async (handler: Handler, options: ApiClientOptions = {}) => {
    const server = await startTestServer(handler);
    servers.push(server);
    return { server, client: createApiClient({ baseUrl: server.baseUrl, ...defaults, ...options }) };
  };
}
