/**
 * A webhook receiver for tests, over real HTTP on 127.0.0.1: it reads each call's raw body, checks its
 * `X-Signature` with the secret it was given (as a real receiver must, before parsing), records the
 * call, and answers what the test scripted for that call.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifySignature } from '@extraction-review/server-kit/webhook-signature';

export interface ReceivedCall {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The raw bytes as received. */
  body: Buffer;
  signatureValid: boolean;
  /** Resolves when the exchange is over: `answered` false when the sender closed it before the answer. */
  closed: Promise<{ answered: boolean }>;
}

export interface ScriptedAnswer {
  status: number;
  headers?: Record<string, string>;
  /** Wait this long before answering (a slow receiver). */
  delayMs?: number;
}

/** `n` counts from 1. */
export type AnswerScript = (n: number, call: ReceivedCall) => ScriptedAnswer;

export interface TestReceiver {
  /** The base URL, e.g. `http://127.0.0.1:40123`; any path is accepted. */
  url: string;
  calls: ReceivedCall[];
  close(): Promise<void>;
}

export async function startReceiver(secret: string, script: AnswerScript): Promise<TestReceiver> {
  const calls: ReceivedCall[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const call: ReceivedCall = {
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body,
        signatureValid: verifySignature(secret, body, request.headers['x-signature'] as string | undefined),
        closed: new Promise((resolve) =>
          response.once('close', () => resolve({ answered: response.writableFinished })),
        ),
      };
      calls.push(call);
      const answer = script(calls.length, call);
      const send = (): void => {
        if (response.destroyed) return;
        response.writeHead(answer.status, answer.headers).end(answer.status === 204 ? undefined : 'ok');
      };
      if (!answer.delayMs) return send();
      const timer = setTimeout(() => {
        timers.delete(timer);
        send();
      }, answer.delayMs);
      timers.add(timer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        timers.forEach(clearTimeout);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
