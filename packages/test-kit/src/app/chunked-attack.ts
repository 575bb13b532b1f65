/**
 * For attack tests: a request whose body streams from the client in chunked encoding (no length
 * declared), written until the server answers or closes, or the whole size is sent. Raw TCP, so that
 * nothing in the client buffers, retries or waits for the body to be taken.
 */
import { once } from 'node:events';
import net from 'node:net';

export interface AttackAnswer {
  /** The answer's status, or undefined when the server closed without one. */
  status: number | undefined;
  /** The answer's headers (lower-case names) and body text. */
  headers: Record<string, string>;
  body: string;
  /** Body bytes the client managed to write before the answer or the close. */
  sent: number;
}

const MiB = 1024 * 1024;
const FILLER = Buffer.alloc(MiB, 0x20); // spaces: JSON whitespace, so only the size can be refused

export async function sendChunked(
  url: string,
  request: {
    method: string;
    path: string;
    headers?: Record<string, string>;
    bytes: number;
    chunkBytes?: number;
  },
): Promise<AttackAnswer> {
  const { hostname, port } = new URL(url);
  const socket = net.connect({ host: hostname, port: Number(port) });
  await once(socket, 'connect');
  const chunk = FILLER.subarray(0, request.chunkBytes ?? MiB);
  let received = Buffer.alloc(0);
  let answered = false;
  let closed = false;
  const answer = new Promise<void>((resolve) => {
    socket.on('data', (data: Buffer) => {
      received = Buffer.concat([received, data]);
      if (complete(received)) {
        answered = true;
        resolve();
      }
    });
    socket.on('close', () => {
      closed = true;
      resolve();
    });
    // A reset while writing ends the attempt; what arrived before it is still read.
    socket.on('error', () => undefined);
  });

  const head =
    `${request.method} ${request.path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n` +
    Object.entries({ 'Content-Type': 'application/json', ...request.headers })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('') +
    'Transfer-Encoding: chunked\r\n\r\n';
  socket.write(head);
  let sent = 0;
  while (sent < request.bytes && !answered && !closed) {
    const frame = Buffer.concat([
      Buffer.from(`${chunk.length.toString(16)}\r\n`),
      chunk,
      Buffer.from('\r\n'),
    ]);
    sent += chunk.length;
    if (!socket.write(frame)) {
      await Promise.race([once(socket, 'drain').catch(() => undefined), answer]);
    }
  }
  if (!answered && !closed) socket.write('0\r\n\r\n');
  await answer;
  socket.destroy();
  return { ...parse(received), sent };
}

/** Whether the bytes hold a whole answer: its head, and as much body as its Content-Length says. */
function complete(bytes: Buffer): boolean {
  const end = bytes.indexOf('\r\n\r\n');
  if (end === -1) return false;
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(bytes.subarray(0, end).toString('latin1'))?.[1];
  return length === undefined || bytes.length >= end + 4 + Number(length);
}

function parse(bytes: Buffer): Omit<AttackAnswer, 'sent'> {
  const end = bytes.indexOf('\r\n\r\n');
  if (end === -1) return { status: undefined, headers: {}, body: '' };
  const [statusLine = '', ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return {
    status: Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1]) || undefined,
    headers,
    body: bytes.subarray(end + 4).toString('utf8'),
  };
}
