/**
 * HTTPS on 127.0.0.1 for tests, with a certificate authority of their own (selfsigned): the `url`
 * input is tested against a local HTTPS server the service trusts through REFERENCE_URL_CA_FILE, and
 * the official client reaches the service through a local TLS-terminating proxy. Nothing leaves the
 * machine.
 */
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import { generate } from 'selfsigned';

export interface TestCertificates {
  /** The authority's certificate (PEM), to trust. */
  ca: string;
  /** The server's key and certificate (PEM), signed by the authority. */
  key: string;
  cert: string;
}

/** Names the server certificate is valid for. */
export const TEST_HOST_NAMES = ['localhost', 'files.test', 'rebind.test', 'reference.test'] as const;

let generated: Promise<TestCertificates> | undefined;

/** One authority and server certificate per test process (RSA key generation takes a moment). */
export function testCertificates(): Promise<TestCertificates> {
  return (generated ??= (async () => {
    const notAfterDate = new Date(Date.now() + 7 * 24 * 3600 * 1000);
    const authority = await generate([{ name: 'commonName', value: 'extraction-review test CA' }], {
      algorithm: 'sha256',
      keySize: 2048,
      notAfterDate,
      extensions: [
        { name: 'basicConstraints', cA: true, critical: true },
        { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
      ],
    });
    const server = await generate([{ name: 'commonName', value: 'localhost' }], {
      algorithm: 'sha256',
      keySize: 2048,
      notAfterDate,
      ca: { key: authority.private, cert: authority.cert },
      extensions: [
        { name: 'basicConstraints', cA: false },
        { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
        { name: 'extKeyUsage', serverAuth: true },
        {
          name: 'subjectAltName',
          altNames: [
            ...TEST_HOST_NAMES.map((value) => ({ type: 2 as const, value })),
            { type: 7 as const, ip: '127.0.0.1' },
          ],
        },
      ],
    });
    return { ca: authority.cert, key: server.private, cert: server.cert };
  })());
}

/** Writes the authority's certificate where REFERENCE_URL_CA_FILE can point. */
export async function writeCaFile(dir: string): Promise<string> {
  const file = path.join(dir, 'test-ca.pem');
  await writeFile(file, (await testCertificates()).ca);
  return file;
}

export interface SeenRequest {
  method: string;
  path: string;
  host: string | undefined;
  /** The TLS server name (SNI) the client sent. */
  servername: string | undefined;
}

export interface TestHttpsServer {
  /** `https://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** Every request received, in order. */
  requests: SeenRequest[];
  close(): Promise<void>;
}

export type TestHandler = (request: http.IncomingMessage, response: http.ServerResponse) => void;

/** An HTTPS server on 127.0.0.1 with the test certificate. */
export async function startHttpsServer(handler: TestHandler): Promise<TestHttpsServer> {
  const { key, cert } = await testCertificates();
  const requests: SeenRequest[] = [];
  const server = https.createServer({ key, cert }, (request, response) => {
    const socket = request.socket as TLSSocket;
    requests.push({
      method: request.method ?? '',
      path: request.url ?? '',
      host: request.headers.host,
      servername: typeof socket.servername === 'string' ? socket.servername : undefined,
    });
    handler(request, response);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * A TLS-terminating reverse proxy on 127.0.0.1, as in front of a service deployed behind HTTPS: it
 * forwards every request to `upstream` over plain HTTP and says how the client came in with
 * `X-Forwarded-Proto: https` and `X-Forwarded-Host: <host the client asked for>`.
 */
export async function startTlsProxy(upstream: string): Promise<TestHttpsServer> {
  const target = new URL(upstream);
  return startHttpsServer((request, response) => {
    const forwarded = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: request.method,
        path: request.url,
        headers: {
          ...request.headers,
          host: target.host,
          'x-forwarded-proto': 'https',
          'x-forwarded-host': request.headers.host ?? '',
        },
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forwarded.on('error', () => {
      response.writeHead(502);
      response.end();
    });
    request.pipe(forwarded);
  });
}
