/**
 * Single sign-on sessions for clients that send no cookie (issue 18: behind the company's proxy every
 * request without a cookie opened a session, 200 requests made 200 rows). The proxy names the person
 * on every request, so a session there only carries the CSRF token and the cookie; a client that
 * drops the cookie (a script, a browser refusing cookies, a first burst of parallel requests) is given
 * the same session again instead of a new one:
 *
 * - "the same browser" is the same person with the same `User-Agent`: there is nothing else to tell
 *   clients apart without a cookie, and both are the same person, vouched for by the proxy each time;
 * - the session is reused while it lives (the store's idle and total limits, sign-out, a new password
 *   or the operator's removal end it, and the next request opens a new one); its cookie is set again;
 * - concurrent requests share one opening (the pending promise is what is kept), so a burst of 200
 *   opens one session;
 * - kept in this process, at most `capacity` people×browsers, least recently used dropped first:
 *   another app-server copy opens its own, and the store's cap on live sessions per operator
 *   (MAX_SESSIONS_PER_OPERATOR, session-store.ts) bounds the rows whatever the number of copies or
 *   user agents.
 *
 * The tokens kept here are the cookie's own: they never leave this process but in the cookie of the
 * person they belong to.
 */
import { createHash } from 'node:crypto';
import type { SessionStore } from './session-store';

export const SIGN_ON_REUSE_CAPACITY = 10_000;
/** A User-Agent is hashed whole, but a header this long is no browser's: cut before hashing. */
const MAX_AGENT_LENGTH = 1024;

export interface SignOnSession {
  token: string;
  csrfToken: string;
  expiresAt: number;
  /** Whether an existing session was given again. */
  reused: boolean;
}

type Opened = Omit<SignOnSession, 'reused'>;

export class SignOnSessions {
  private readonly kept = new Map<string, Promise<Opened>>();

  constructor(
    private readonly sessions: SessionStore,
    private readonly capacity = SIGN_ON_REUSE_CAPACITY,
  ) {}

  /** The live session of this person in this browser, or a new one. */
  async open(operatorId: string, userAgent: string, now: number): Promise<SignOnSession> {
    const key = `${operatorId}\n${createHash('sha256').update(userAgent.slice(0, MAX_AGENT_LENGTH)).digest('base64url')}`;
    // Three rounds at most: a session found ended is replaced once, by whichever request saw it first.
    for (let round = 0; round < 3; round++) {
      const pending = this.kept.get(key);
      if (pending === undefined) return { ...(await this.begin(key, operatorId, now)), reused: false };
      const opened = await pending.catch(() => undefined);
      const live = opened === undefined ? undefined : await this.sessions.find(opened.token, now);
      if (opened !== undefined && live !== undefined && live.operator.id === operatorId) {
        this.refresh(key, pending);
        return { token: opened.token, csrfToken: live.csrfToken, expiresAt: live.expiresAt, reused: true };
      }
      // Ended (or never opened): the first to see it opens the next; the others take that one.
      if (this.kept.get(key) === pending) {
        this.kept.delete(key);
        return { ...(await this.begin(key, operatorId, now)), reused: false };
      }
    }
    return { ...(await this.sessions.create(operatorId, now)), reused: false };
  }

  /** How many people×browsers are kept (tests, and the bound). */
  get size(): number {
    return this.kept.size;
  }

  private begin(key: string, operatorId: string, now: number): Promise<Opened> {
    const opening = this.sessions.create(operatorId, now);
    this.kept.set(key, opening);
    opening.catch(() => {
      if (this.kept.get(key) === opening) this.kept.delete(key);
    });
    while (this.kept.size > this.capacity) {
      const oldest = this.kept.keys().next().value;
      if (oldest === undefined) break;
      this.kept.delete(oldest);
    }
    return opening;
  }

  /** Used now: last to be dropped. */
  private refresh(key: string, pending: Promise<Opened>): void {
    if (this.kept.get(key) !== pending) return;
    this.kept.delete(key);
    this.kept.set(key, pending);
  }
}

const byStore = new WeakMap<SessionStore, SignOnSessions>();

/** One per session store: every request of this process through it shares the sessions kept. */
export function signOnSessionsOf(sessions: SessionStore): SignOnSessions {
  let signOn = byStore.get(sessions);
  if (signOn === undefined) {
    signOn = new SignOnSessions(sessions);
    byStore.set(sessions, signOn);
  }
  return signOn;
}
