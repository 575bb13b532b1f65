/**
 * A real upstream for tests: a node:http server on 127.0.0.1, port 0, that records what reaches it.
 * Each test file gives it a route function; nothing is mocked.
 */
import { createHash } from 'node:crypto';
import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** Path and query exactly as received. */
  url: string;
  headers: IncomingHttpHeaders;
  /** Resolves when the connection or request closes; `complete` tells whether the body was whole. */
  closed: Promise<{ complete: boolean }>;
}

export interface TestUpstream {
  /** `http://127.0.0.1:<port>` */
  url: string;
  requests: RecordedRequest[];
  /** Resolves with the next request whose path starts with `pathPrefix`. */
  nextRequest(pathPrefix: string): Promise<RecordedRequest>;
  close(): Promise<void>;
}

export type Route = (req: IncomingMessage, res: ServerResponse, upstreamUrl: string) => void | Promise<void>;

export async function startUpstream(route: Route): Promise<TestUpstream> {
  const requests: RecordedRequest[] = [];
  const waiters: { prefix: string; resolve: (r: RecordedRequest) => void }[] = [];
  let url = '';
  const server = http.createServer((req, res) => {
    const recorded: RecordedRequest = {
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      closed: new Promise((resolve) => {
        res.once('close', () => resolve({ complete: req.complete }));
      }),
    };
    requests.push(recorded);
    for (const waiter of [...waiters]) {
      if (recorded.url.startsWith(waiter.prefix)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(recorded);
      }
    }
    Promise.resolve(route(req, res, url)).catch((error: unknown) => {
      res.destroy(error instanceof Error ? error : new Error(String(error)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    nextRequest: (prefix) => new Promise((resolve) => waiters.push({ prefix, resolve })),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface BodySummary {
  bytes: number;
  sha256: string;
  /** The body as text, kept only when it is under 1 MiB. */
  text: string | undefined;
}

/** Reads a request body without keeping it (beyond 1 MiB): byte count and SHA-256. */
export async function summariseBody(req: IncomingMessage): Promise<BodySummary> {
  const hash = createHash('sha256');
  const kept: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
    if (bytes <= 1024 * 1024) kept.push(chunk);
  }
  return {
    bytes,
    sha256: hash.digest('hex'),
    text: bytes <= 1024 * 1024 ? Buffer.concat(kept).toString() : undefined,
  };
}

/** A port nobody listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * A v2 job's body as the contract describes it (`JobResponse`, packages/contract/src/v2/schemas.ts), for test
 * upstreams that only answer polls: the app server's upstream client reads nothing less.
 */
export function v2JobBody(
  id: string,
  status: 'Processing' | 'Processed' | 'Failed' = 'Processing',
): { job: Record<string, unknown> } {
  return {
    job: {
      id,
      model_id: 'model-a',
      filename: `${id}.pdf`,
      created_at: '2026-01-01T00:00:00',
      status,
      polling_url: `http://127.0.0.1/v2/jobs/${id}`,
    },
  };
}
