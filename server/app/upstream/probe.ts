/**
 * Whether an upstream answers HTTP at its base URL, for the readiness report (health/checks.ts): a
 * GET with no key (reachable is what is asked, any status will do), its body left unread, no
 * redirect followed. Resolves with the status; rejects with the transport's error, or the signal's.
 */
import { sendUpstream } from './send-upstream';

export async function probeUpstream(url: string, signal: AbortSignal): Promise<number> {
  const response = await sendUpstream(url, { method: 'GET', headers: new Headers(), body: null, signal });
  response.body?.destroy();
  return response.status;
}
