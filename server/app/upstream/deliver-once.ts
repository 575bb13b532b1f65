/**
 * One delivery attempt of the way back (review/deliveries/delivery-worker.ts): v1 feedback, a v2 RAG
 * document, or a pipeline's webhook. The rules are the reference dispatcher's (shared/post-webhook.ts):
 * - redirects are never followed (a 3xx is an answer like any other, and not a 2xx);
 * - the body is one Buffer written once, the same bytes at every attempt;
 * - the time-out covers the exchange up to the answer's status line, connection included; the
 *   answer's body is drained, for no longer than another time-out;
 * - a fresh connection per attempt (`agent: false`): a retry never reuses a socket the receiver may
 *   have left in a bad state;
 * - a pipeline's webhook connects only to the address its check allowed (`pinned`,
 *   shared/webhook-address.ts), so a name that resolves elsewhere by now cannot redirect it.
 */
import type { AttemptOutcome } from '@extraction-review/server-kit/retry-policy';
import { retryAfterMs } from '@extraction-review/server-kit/retry-policy';
import { pinnedLookup, type ResolvedAddress } from '@extraction-review/server-kit/webhook-address';
import { sendUpstream } from './send-upstream';

export interface DeliverInit {
  method: 'POST' | 'PUT' | 'PATCH';
  headers: Record<string, string>;
  timeoutMs: number;
  /** Aborted when the worker stops: the attempt ends as `aborted`, its outcome unknown. */
  signal: AbortSignal;
  /** The address vetted for this attempt: the connection goes there and nowhere else. */
  pinned?: ResolvedAddress | undefined;
}

class AttemptTimeout extends Error {
  override readonly name = 'AttemptTimeout';
}

export async function deliverOnce(url: URL, body: Buffer, init: DeliverInit): Promise<AttemptOutcome> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new AttemptTimeout()), init.timeoutMs);
  const onAbort = (): void => controller.abort(init.signal.reason);
  if (init.signal.aborted) onAbort();
  else init.signal.addEventListener('abort', onAbort, { once: true });
  const headers = new Headers(init.headers);
  headers.set('content-length', String(body.length));
  try {
    const response = await sendUpstream(url.href, {
      method: init.method,
      headers,
      body,
      signal: controller.signal,
      agent: false,
      lookup: init.pinned === undefined ? undefined : pinnedLookup(init.pinned),
    });
    clearTimeout(timer);
    const answer = response.body;
    if (answer !== null) {
      // The answer's body is not needed: drained, but not for longer than an attempt may take.
      const drain = setTimeout(() => answer.destroy(), init.timeoutMs);
      answer.on('error', () => undefined);
      answer.once('close', () => clearTimeout(drain));
      answer.resume();
    }
    const { status } = response;
    return status >= 200 && status < 300
      ? { kind: 'delivered', status }
      : {
          kind: 'status',
          status,
          statusText: response.statusText,
          location: response.headers.get('location'),
          retryAfterMs: retryAfterMs(response.headers.get('retry-after')),
        };
  } catch (error) {
    if (controller.signal.reason instanceof AttemptTimeout) return { kind: 'timeout' };
    if (init.signal.aborted) return { kind: 'aborted' };
    return { kind: 'network', message: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
    init.signal.removeEventListener('abort', onAbort);
  }
}
