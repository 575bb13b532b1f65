/**
 * Issue 18 (3, 7, 8) on the reference service, as the attack, over real HTTP: chunked bodies of
 * hundreds of MB with no key are refused before they are read (401) and the connection closed long
 * before they are sent; with the key, a chunked JSON body is cut at its limit (413, nothing past it
 * held); bodies nested thousands deep are 422 `422-010` (v2 and v1); headers that never end are cut
 * (408); of more connections than its cap, the extra ones are closed and the others served.
 */
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendChunked } from '@extraction-review/test-kit/app/chunked-attack';
import type { ReferenceService } from '../create-reference-service';
import {
  INVOICE_MODEL_ID,
  makeDataDir,
  startTestService,
  TEST_API_KEY,
} from '@extraction-review/test-kit/reference/reference-harness';
import {
  startReferenceProcess,
  type ReferenceProcess,
} from '@extraction-review/test-kit/reference/reference-process';

const MiB = 1024 * 1024;
const MAX_CONNECTIONS = 4;
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

let service: ReferenceService;
let dataDir: Awaited<ReturnType<typeof makeDataDir>>;

beforeAll(async () => {
  dataDir = await makeDataDir();
  service = await startTestService(dataDir.dir, {
    // A small document limit, so that the JSON body's limit is a few MB.
    maxFileBytes: MiB,
    // A short body time: the key must lift it for the upload with the key to be cut at its size.
    connectionLimits: { bodyTimeoutMs: 300 },
  });
});
afterAll(async () => {
  await service?.close();
  await dataDir?.remove();
});

describe('bodies', () => {
  it.each([
    ['POST', '/v2/products/extraction/enqueue'],
    ['POST', '/v1/products/mindee/invoices/v4/predict'],
    ['PUT', '/v1/products/mindee/invoices/v4/documents/d1/feedback'],
    ['POST', `/v2/extensions/rag/${INVOICE_MODEL_ID}/documents`],
  ])('refuses a 200 MB chunked body to %s %s with no key before reading it', async (method, path) => {
    const answer = await sendChunked(service.url, { method, path, bytes: 200 * MiB });
    expect(answer.status).toBe(401);
    expect(answer.sent).toBeLessThan(200 * MiB);
  });

  it('cuts a chunked JSON enqueue at its limit with a 413, with the key', async () => {
    const answer = await sendChunked(service.url, {
      method: 'POST',
      path: '/v2/products/extraction/enqueue',
      headers: { Authorization: TEST_API_KEY },
      bytes: 200 * MiB,
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 413, code: '413-001' });
    expect(answer.sent).toBeLessThan(200 * MiB);
  });

  it('answers a v2 enqueue nested 5,000 deep with 422-010 and a pointer', async () => {
    const response = await fetch(`${service.url}/v2/products/extraction/enqueue`, {
      method: 'POST',
      headers: { Authorization: TEST_API_KEY, 'Content-Type': 'application/json' },
      body: `{"model_id":"${INVOICE_MODEL_ID}","alias":${nested(5_000)}}`,
    });
    expect(response.status).toBe(422);
    const body = (await response.json()) as { code: string; errors: { pointer: string }[] };
    expect(body.code).toBe('422-010');
    expect(body.errors[0]?.pointer).toBe(`#/alias${'/0'.repeat(63)}`);
  });

  it('answers a v1 prediction nested 5,000 deep with 422-010, in the v1 envelope', async () => {
    const response = await fetch(`${service.url}/v1/products/mindee/invoices/v4/predict`, {
      method: 'POST',
      headers: { Authorization: `Token ${TEST_API_KEY}`, 'Content-Type': 'application/json' },
      body: `{"document":${nested(5_000)}}`,
    });
    expect(response.status).toBe(422);
    const body = (await response.json()) as { api_request: { error: { code: string } } };
    expect(body.api_request.error.code).toBe('422-010');
  });
});

describe('the attack on the service in a process of its own', () => {
  let process_: ReferenceProcess;
  let dir: Awaited<ReturnType<typeof makeDataDir>>;
  beforeAll(async () => {
    dir = await makeDataDir();
    process_ = await startReferenceProcess({
      REFERENCE_DATA_DIR: dir.dir,
      REFERENCE_MAX_FILE_BYTES: String(MiB),
    });
  }, 90_000);
  afterAll(async () => {
    await process_?.kill('SIGTERM');
    await dir?.remove();
  });

  /** The service's resident memory, as the kernel counts it. */
  async function resident(): Promise<number> {
    const status = await readFile(`/proc/${process_.child.pid}/status`, 'utf8');
    return Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1]) * 1024;
  }

  it('four 200 MB chunked bodies to each route with no key, and four with the key: memory within 160 MB', async () => {
    const routes = [
      ['POST', '/v2/products/extraction/enqueue'],
      ['POST', '/v1/products/mindee/invoices/v4/predict'],
      ['PUT', '/v1/products/mindee/invoices/v4/documents/d1/feedback'],
      ['POST', `/v2/extensions/rag/${INVOICE_MODEL_ID}/documents`],
    ] as const;
    // Warm up: the same attack once, smaller (modules, JIT, the heap's and the allocator's first
    // growth), so that the baseline includes what any traffic costs once.
    const attack = async (bytes: number) => {
      const statuses: (number | undefined)[] = [];
      for (const [method, path] of routes) {
        const answers = await Promise.all(
          [1, 2, 3, 4].map(() => sendChunked(process_.url, { method, path, bytes })),
        );
        statuses.push(...answers.map((answer) => answer.status));
      }
      const keyed = await Promise.all(
        [1, 2, 3, 4].map(() =>
          sendChunked(process_.url, {
            method: 'POST',
            path: '/v2/products/extraction/enqueue',
            headers: { Authorization: TEST_API_KEY },
            bytes,
          }),
        ),
      );
      return { statuses, keyed: keyed.map((answer) => answer.status) };
    };
    await attack(16 * MiB);
    const before = await resident();
    let peak = before;
    const sampler = setInterval(() => void resident().then((rss) => (peak = Math.max(peak, rss))), 5);
    const { statuses, keyed } = await attack(200 * MiB);
    clearInterval(sampler);
    const after = await resident();
    expect(statuses).toEqual(Array(16).fill(401));
    expect(keyed).toEqual([413, 413, 413, 413]);
    console.log(
      `[reference body limits] 16 x 200 MB chunked with no key (401) and 4 with the key (413): ` +
        `RSS ${(before / MiB).toFixed(0)} MB before, +${((peak - before) / MiB).toFixed(1)} MB at peak, +${((after - before) / MiB).toFixed(1)} MB after`,
    );
    // What is bounded is what a refused body can make the service hold: nothing of it. What the
    // figure shows besides is churn: @hono/node-server reads and drops the rest of a refused body for
    // up to 500 ms (64 MiB at most) before it closes the connection, 16 at once here, and those read
    // buffers are external memory that V8 frees only at its next collection, which it schedules by
    // how much external memory has grown (tens of MB). Measured: Node 20 +22 MB, Node 24 +50 MB on
    // the development machine and +112 MB on CI's faster one (more read in the 500 ms). The bound is
    // well above that churn and 20 times under what the attack tries to send (16 x 200 MB).
    expect(peak - before).toBeLessThan(160 * MiB);
  }, 120_000);
});

describe('connections', () => {
  // A service of its own: no connection of the tests above (kept alive by fetch) holds a place.
  let alone: ReferenceService;
  let aloneDir: Awaited<ReturnType<typeof makeDataDir>>;
  beforeAll(async () => {
    aloneDir = await makeDataDir();
    alone = await startTestService(aloneDir.dir, {
      connectionLimits: { maxConnections: MAX_CONNECTIONS, headersTimeoutMs: 300 },
    });
  });
  afterAll(async () => {
    await alone?.close();
    await aloneDir?.remove();
  });

  /** A raw connection, resolved with what it received once the server closed it. */
  async function open(): Promise<{ socket: net.Socket; closed: Promise<string> }> {
    const { hostname, port } = new URL(alone.url);
    const socket = net.connect({ host: hostname, port: Number(port) });
    let received = '';
    socket.on('data', (data: Buffer) => (received += data.toString('latin1')));
    socket.on('error', () => undefined);
    const closed = once(socket, 'close').then(() => received);
    await Promise.race([once(socket, 'connect'), closed]);
    return { socket, closed };
  }

  it('cuts headers that never end with a 408', async () => {
    const { socket, closed } = await open();
    socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    expect(await closed).toMatch(/^HTTP\/1\.1 408 /);
  });

  it(`closes connections past ${MAX_CONNECTIONS} and serves the others`, async () => {
    const peers = [];
    for (let i = 0; i < MAX_CONNECTIONS + 2; i += 1) peers.push(await open());
    for (const { socket } of peers) {
      if (socket.writable)
        socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    }
    const answers = await Promise.all(peers.map(({ closed }) => closed));
    expect(answers.filter((answer) => answer.startsWith('HTTP/1.1 200 '))).toHaveLength(MAX_CONNECTIONS);
    expect(answers.filter((answer) => answer === '')).toHaveLength(2);
  });
});
