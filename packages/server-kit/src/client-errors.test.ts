/**
 * What Node's HTTP parser refuses, answered as problem details on both servers (the app server and the
 * reference service), over raw TCP: headers over Node's limit (431), a body cut short by a half-close
 * (400), garbage instead of a request line (400). Each answer is a problem body with its documented
 * code, and the connection is closed.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '@extraction-review/app-server/create-app';
import { listen, type RunningServer } from '@extraction-review/app-server/listen';
import type { ReferenceService } from '@extraction-review/reference/create-reference-service';
import {
  makeDataDir,
  startTestService,
  TEST_API_KEY,
} from '@extraction-review/test-kit/reference/reference-harness';

let app: RunningServer;
let reference: ReferenceService;
let data: Awaited<ReturnType<typeof makeDataDir>>;

beforeAll(async () => {
  data = await makeDataDir();
  reference = await startTestService(data.dir);
  const upstream = { url: reference.url, apiKey: TEST_API_KEY };
  app = await listen(createApp({ upstream: { v2: upstream, v1: upstream }, staticDir: null }), {
    host: '127.0.0.1',
    port: 0,
  });
});
afterAll(async () => {
  await app.close();
  await reference.close();
  await data.remove();
});

/** Sends raw bytes (then half-closes, when asked) and reads everything until the server closes. */
function raw(url: string, payload: string, halfClose = false): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(payload);
      if (halfClose) socket.end();
    });
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
    setTimeout(() => {
      socket.destroy();
      reject(new Error(`no close; got ${JSON.stringify(answer)}`));
    }, 10_000);
  });
}

function parse(answer: string): { status: number; headers: string; body: Record<string, unknown> } {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  return {
    status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]),
    headers: head.toLowerCase(),
    body: JSON.parse(body) as Record<string, unknown>,
  };
}

const servers = () =>
  [
    ['the app server', app.url],
    ['the reference service', reference.url],
  ] as const;

describe.each(['app', 'reference'] as const)('client errors on %s', (which) => {
  const base = () => servers()[which === 'app' ? 0 : 1][1];

  it('answers oversized headers with a 431 problem', async () => {
    const answer = parse(
      await raw(
        base(),
        `GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      ),
    );
    expect(answer.status).toBe(431);
    expect(answer.headers).toContain('content-type: application/problem+json');
    expect(answer.headers).toContain('connection: close');
    expect(answer.body).toMatchObject({ status: 431, code: '431-001', title: 'Request headers too large' });
  });

  it('answers a body cut short by a half-close with a 400 problem', async () => {
    const answer = parse(
      await raw(
        base(),
        // Through the app server's proxy (no review store: no sign-in) or straight, with the key: a
        // route that reads the body.
        `POST ${which === 'app' ? '/api' : ''}/v2/products/extraction/enqueue HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
          `Authorization: ${TEST_API_KEY}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"model_id":`,
        true,
      ),
    );
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ status: 400, code: '400-001' });
    expect(String(answer.body.detail)).toMatch(/closed .*before the whole request arrived/);
  });

  it('answers what is not HTTP with a 400 problem', async () => {
    const answer = parse(await raw(base(), 'HELLO THERE\r\n\r\n'));
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: '400-001' });
  });
});
