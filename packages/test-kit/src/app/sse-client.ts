/**
 * A Server-Sent Events client for tests over node:http: it keeps the raw text, so a test sees what
 * EventSource hides (comments, `retry:`, ids of blocks without data), and can cut the connection.
 */
import http, { type IncomingHttpHeaders } from 'node:http';

/** One block of the stream (up to a blank line). */
export interface SseBlock {
  id?: string;
  event?: string;
  data?: string;
  retry?: string;
  comments: string[];
}

export interface SseClient {
  status: number;
  headers: IncomingHttpHeaders;
  /** The complete blocks received so far. */
  blocks(): SseBlock[];
  /** Resolves with the blocks once `predicate` holds for them; rejects after `timeoutMs`. */
  waitFor(predicate: (blocks: SseBlock[]) => boolean, timeoutMs?: number): Promise<SseBlock[]>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  /** Cuts the connection, as a closed tab does. */
  close(): void;
}

export function openSse(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers: { Accept: 'text/event-stream', ...headers } }, (response) => {
      let text = '';
      const waiters = new Set<() => void>();
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
        for (const check of [...waiters]) check();
      });
      const ended = new Promise<void>((done) => {
        response.on('end', () => done());
        response.on('close', () => done());
      });
      const blocks = (): SseBlock[] => parseBlocks(text);
      resolve({
        status: response.statusCode ?? 0,
        headers: response.headers,
        blocks,
        ended,
        waitFor: (predicate, timeoutMs = 10_000) =>
          new Promise((done, fail) => {
            const check = (): void => {
              const current = blocks();
              if (!predicate(current)) return;
              waiters.delete(check);
              clearTimeout(timer);
              done(current);
            };
            const timer = setTimeout(() => {
              waiters.delete(check);
              fail(new Error(`SSE: condition not met in ${timeoutMs} ms; received:\n${text}`));
            }, timeoutMs);
            waiters.add(check);
            check();
          }),
        close: () => request.destroy(),
      });
    });
    request.on('error', reject);
  });
}

/** The complete blocks of an SSE text (a trailing block without its blank line is left out). */
export function parseBlocks(text: string): SseBlock[] {
  const complete = text.slice(0, text.lastIndexOf('\n\n') + 2);
  return complete
    .split('\n\n')
    .filter((block) => block !== '')
    .map((block) => {
      const parsed: SseBlock = { comments: [] };
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) {
          parsed.comments.push(line.slice(1).trim());
          continue;
        }
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'id' || field === 'event' || field === 'retry') parsed[field] = value;
        else if (field === 'data')
          parsed.data = parsed.data === undefined ? value : `${parsed.data}\n${value}`;
      }
      return parsed;
    });
}
