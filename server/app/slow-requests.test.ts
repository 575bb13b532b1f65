/**
 * Issue 18 (7), as the attack: slow peers and many connections against the real app server with a
 * review store, on both engines. The server is started with short limits (listen's `limits`), and the
 * tests wait for events (the server's answer, its close), never for a duration:
 *
 * - headers sent slowly, or never finished: cut with a 408 problem;
 * - a body sent slowly with no session: cut with a 408 once the unauthenticated body time is up;
 * - a signed-in operator's body that keeps moving: let through past that time (the session lifts it),
 *   and cut only once it stops moving;
 * - MAX_CONNECTIONS: of N + k connections, k are closed at once and the N others are served.
 */
import { once } from 'node:events';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionResponse } from '@extraction-review/contract/review/schemas';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { mountReview } from './review/http/mount-review';
import { openReview, type OpenedReview } from './review/open-review';
import { createApp } from './create-app';
import { listen, type RunningServer } from './listen';

const PASSWORD = 'correct horse battery staple';
const MAX_CONNECTIONS = 5;
const EXTRA_CONNECTIONS = 3;
/** Short limits, so that the events come soon; the assertions are on the events, not their time. */
const LIMITS = {
  maxConnections: MAX_CONNECTIONS,
  headersTimeoutMs: 300,
  bodyTimeoutMs: 300,
  bodyIdleTimeoutMs: 1_000,
  requestTimeoutMs: 60_000,
};

/** A raw connection: what it receives, and whether the server closed it. */
class Peer {
  received = '';
  closed: Promise<void>;
  isClosed = false;
  private constructor(readonly socket: net.Socket) {
    socket.on('data', (data: Buffer) => (this.received += data.toString('latin1')));
    socket.on('error', () => undefined);
    this.closed = once(socket, 'close').then(() => {
      this.isClosed = true;
    });
  }
  static async open(url: string): Promise<Peer> {
    const { hostname, port } = new URL(url);
    const socket = net.connect({ host: hostname, port: Number(port) });
    const peer = new Peer(socket);
    await Promise.race([once(socket, 'connect'), peer.closed]);
    return peer;
  }
  write(text: string): void {
    // A connection the server already closed takes nothing more (Node would report a write after FIN).
    if (this.socket.writable && !this.socket.readableEnded) this.socket.write(text);
  }
  /** Resolves once a whole answer (head and Content-Length body) has arrived, or the socket closed. */
  async answer(): Promise<string> {
    const whole = () => {
      const end = this.received.indexOf('\r\n\r\n');
      if (end === -1) return false;
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(this.received.slice(0, end))?.[1];
      return this.received.length >= end + 4 + Number(length ?? 0);
    };
    while (!whole() && !this.isClosed) {
      await Promise.race([once(this.socket, 'data'), this.closed]);
    }
    return this.received;
  }
  destroy(): void {
    this.socket.destroy();
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(ENGINES)('slow peers and many connections, on %s', (engine) => {
  let store: TestStore;
  let review: OpenedReview;
  let server: RunningServer;
  let host: string;
  let cookie: string;
  let csrf: string;

  beforeAll(async () => {
    store = await openTestStore(engine);
    review = await openReview(store.settings);
    server = await listen(createApp({ upstream: {}, staticDir: null, review: mountReview(review) }), {
      host: '127.0.0.1',
      port: 0,
      limits: LIMITS,
    });
    host = new URL(server.url).host;
    const { hashPassword } = await import('./review/auth/passwords');
    await review.operators.create(
      { name: 'Ada', role: 'admin', passwordHash: await hashPassword(PASSWORD) },
      Date.now(),
    );
    const signedIn = await fetch(`${server.url}/api/session`, {
      method: 'POST',
      headers: { Origin: server.url, 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Ada', password: PASSWORD }),
    });
    expect(signedIn.status).toBe(200);
    cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    csrf = SessionResponse.parse(await signedIn.json()).csrfToken;
  });
  afterAll(async () => {
    await server?.close();
    await review?.close();
    await store?.cleanup();
  });

  /** Resolves once the server holds at most `count` connections (it learns of closes a moment later). */
  async function connectionsDropTo(count: number): Promise<void> {
    const open = () =>
      new Promise<number>((resolve, reject) =>
        server.server.getConnections((error, n) => (error ? reject(error) : resolve(n))),
      );
    while ((await open()) > count) await pause(20);
  }

  const head = (method: string, path: string, headers: Record<string, string>) =>
    `${method} ${path} HTTP/1.1\r\nHost: ${host}\r\nOrigin: ${server.url}\r\nSec-Fetch-Site: same-origin\r\n` +
    Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('') +
    '\r\n';

  it('cuts a request whose headers never end with a 408 problem', async () => {
    const peer = await Peer.open(server.url);
    peer.write(`POST /api/session HTTP/1.1\r\nHost: ${host}\r\nX-Slow: `);
    // A byte now and then: the headers keep moving, but never end.
    const drip = setInterval(() => peer.write('a'), 50);
    await peer.closed;
    clearInterval(drip);
    expect(peer.received).toMatch(/^HTTP\/1\.1 408 /);
    expect(peer.received).toContain('"code":"408-001"');
  });

  it('closes a connection that never sends a request', async () => {
    const peer = await Peer.open(server.url);
    await peer.closed;
    expect(peer.isClosed).toBe(true);
  });

  it('cuts a body sent slowly with no session with a 408 problem', async () => {
    const peer = await Peer.open(server.url);
    peer.write(
      head('POST', '/api/session', { 'Content-Type': 'application/json', 'Content-Length': '10000' }),
    );
    const drip = setInterval(() => peer.write(' '), 50);
    await peer.closed;
    clearInterval(drip);
    expect(peer.received).toMatch(/^HTTP\/1\.1 408 /);
    expect(peer.received).toContain('"code":"408-001"');
  });

  it("lets a signed-in operator's body take longer while it keeps moving", async () => {
    const body = `${' '.repeat(40)}{"version":1,"corrections":[]}`;
    const peer = await Peer.open(server.url);
    peer.write(
      head('PUT', '/api/review/documents/00000000-0000-4000-8000-000000000000/corrections', {
        Cookie: cookie,
        'X-CSRF-Token': csrf,
        'Content-Type': 'application/json',
        'Content-Length': String(body.length),
      }),
    );
    // One byte every 50 ms: the body takes six times the unauthenticated body time, never idle.
    for (const char of body) {
      peer.write(char);
      await pause(50);
      expect(peer.isClosed).toBe(false);
    }
    const answer = await peer.answer();
    // The route's own answer to the whole body (not what corrections take), not a 408.
    expect(answer).toMatch(/^HTTP\/1\.1 422 /);
    expect(answer).toContain('"code":"422-008"');
    peer.destroy();
  });

  it("cuts a signed-in operator's body once it stops moving", async () => {
    const peer = await Peer.open(server.url);
    peer.write(
      head('PUT', '/api/review/documents/00000000-0000-4000-8000-000000000000/corrections', {
        Cookie: cookie,
        'X-CSRF-Token': csrf,
        'Content-Type': 'application/json',
        'Content-Length': '100',
      }),
    );
    peer.write('{"version":');
    await peer.closed;
    expect(peer.received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it(`holds ${MAX_CONNECTIONS} connections at most: ${EXTRA_CONNECTIONS} more are closed, the others served`, async () => {
    // Earlier tests' connections (fetch keeps them alive a few seconds) are gone first.
    await connectionsDropTo(0);
    const peers: Peer[] = [];
    for (let i = 0; i < MAX_CONNECTIONS + EXTRA_CONNECTIONS; i += 1) peers.push(await Peer.open(server.url));
    // Each open connection gets a request at once: the ones the server kept answer it.
    for (const peer of peers) peer.write(head('GET', '/api/health', {}));
    const answers = await Promise.all(peers.map((peer) => peer.answer()));
    const served = answers.filter((answer) => answer.startsWith('HTTP/1.1 200 '));
    const closed = peers.filter((peer, i) => peer.isClosed && answers[i] === '');
    expect(served).toHaveLength(MAX_CONNECTIONS);
    expect(closed).toHaveLength(EXTRA_CONNECTIONS);
    for (const peer of peers) peer.destroy();
    await connectionsDropTo(0);
    // Once they are gone, a new connection is served again.
    const again = await fetch(`${server.url}/api/health`);
    expect(again.status).toBe(200);
  });
});
