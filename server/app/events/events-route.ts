/**
 * `GET /api/events`: the job events as Server-Sent Events (app-event-hub.ts has the stream's content).
 *
 * Headers for a stream that must not sit in a buffer: `no-store, no-transform` (no cache, no
 * compressing proxy), `X-Accel-Buffering: no` (nginx and the proxies that follow it pass each event
 * on at once). The body is written as it comes (@hono/node-server flushes the headers, then each
 * chunk); when the browser goes away the stream is cancelled and its subscriber dropped.
 */
import type { Context } from 'hono';
import type { AppEventHub } from './app-event-hub';

const HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-store, no-transform',
  'X-Accel-Buffering': 'no',
};

export function eventsHandler(hub: AppEventHub): (c: Context) => Response {
  return (c) =>
    // A HEAD (Hono routes it here with the GET) reads no body: no subscriber for it.
    c.req.method === 'HEAD'
      ? new Response(null, { status: 200, headers: HEADERS })
      : new Response(hub.subscribe(c.req.header('last-event-id'), c.req.raw.signal), {
          status: 200,
          headers: HEADERS,
        });
}
