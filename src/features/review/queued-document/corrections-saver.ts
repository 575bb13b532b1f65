/**
 * Sends the operator's corrections to the review store as they are made: debounced, one request in
 * flight at a time, each on the version the last answer gave, what is left sent once the answer is in.
 * A failure the network may get past (no answer, 5xx) keeps the edits and tries again with a growing
 * wait; a refusal (stale version, no longer the holder) stops sending until the review resolves it
 * (`rebase`, `retry`). No React here: use-corrections-sync.ts wires it to the review.
 */
import type { ReviewDocument } from '@extraction-review/contract/review/schemas';
import type { Edits } from '@extraction-review/review-domain/fields/review-tree';
import {
  changesToSend,
  draftFromServer,
  MAX_PER_SAVE,
  sameEdits,
  type ServerCorrection,
} from '@extraction-review/review-domain/queue/corrections-sync';
import { isTransient } from './review-errors';

export type SaverStatus =
  | { kind: 'saved' }
  | { kind: 'pending' }
  | { kind: 'saving' }
  /** The last attempt failed on the way; the next one is under way or waiting. */
  | { kind: 'retrying'; error: unknown; attempt: number }
  /** Refused: nothing more is sent until `rebase` or `retry`. */
  | { kind: 'blocked'; error: unknown };

export interface SaverDeps {
  save: (version: number, corrections: ServerCorrection[]) => Promise<ReviewDocument>;
  /** Every answer (the document as it is now). */
  onAnswer: (document: ReviewDocument) => void;
  onStatus: (status: SaverStatus) => void;
  debounceMs?: number;
  retryDelayMs?: (attempt: number) => number;
}

export const SAVE_DEBOUNCE_MS = 400;
/** 1 s, 2 s, 4 s … up to 30 s between attempts. */
export const retryDelay = (attempt: number): number => Math.min(30_000, 1000 * 2 ** (attempt - 1));

export type CorrectionsSaver = ReturnType<typeof createCorrectionsSaver>;

/** The server answered a save without keeping what was sent (it may have changed the values). */
export class NotKeptError extends Error {
  override readonly name = 'NotKeptError';
  constructor(readonly paths: string[]) {
    super(`The server answered but did not keep these corrections as sent: ${paths.join(', ')}.`);
  }
}

export function createCorrectionsSaver(start: { version: number; acked: Edits }, deps: SaverDeps) {
  const debounceMs = deps.debounceMs ?? SAVE_DEBOUNCE_MS;
  const delay = deps.retryDelayMs ?? retryDelay;
  let { version, acked } = start;
  let current = start.acked;
  let inFlight = false;
  let attempt = 0;
  let refusal: { error: unknown } | null = null;
  let running = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let waiters: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  /** The last request's corrections, to notice an answer that did not keep them. */
  let lastSent = '';

  const pending = () => !sameEdits(acked, current);
  const report = (error?: unknown) =>
    deps.onStatus(
      refusal
        ? { kind: 'blocked', error: refusal.error }
        : attempt > 0
          ? { kind: 'retrying', error, attempt }
          : inFlight
            ? { kind: 'saving' }
            : pending()
              ? { kind: 'pending' }
              : { kind: 'saved' },
    );
  const settle = (error?: unknown) => {
    const done = waiters;
    waiters = [];
    for (const w of done)
      if (error === undefined) w.resolve();
      else w.reject(error);
  };
  const schedule = (ms: number) => {
    clearTimeout(timer);
    timer = setTimeout(() => void send(), ms);
  };

  async function send(): Promise<void> {
    clearTimeout(timer);
    timer = undefined;
    if (inFlight || refusal || !running) return;
    const changes = changesToSend(acked, current).slice(0, MAX_PER_SAVE);
    if (changes.length === 0) {
      lastSent = '';
      report();
      settle();
      return;
    }
    const batch = JSON.stringify(changes);
    if (batch === lastSent) {
      // Answered, but not kept as sent: sending it again would only repeat that. Stop and say so.
      refusal = { error: new NotKeptError(changes.map((c) => c.path)) };
      report();
      settle(refusal.error);
      return;
    }
    lastSent = batch;
    inFlight = true;
    report();
    let document: ReviewDocument;
    try {
      document = await deps.save(version, changes);
    } catch (error) {
      inFlight = false;
      lastSent = '';
      if (!running) return;
      if (isTransient(error)) {
        attempt += 1;
        schedule(delay(attempt));
      } else refusal = { error };
      report(error);
      settle(error);
      return;
    }
    inFlight = false;
    if (!running) return;
    version = document.version;
    acked = draftFromServer(document.corrections);
    attempt = 0;
    deps.onAnswer(document);
    await send();
  }

  return {
    /** The review's corrections now. */
    update(edits: Edits): void {
      current = edits;
      if (!running || refusal) return;
      report();
      // While a request is out its answer sends the rest; while retrying, the retry's timer does.
      if (!inFlight && attempt === 0 && pending()) schedule(debounceMs);
    },
    /** Resolves once the server holds every correction; rejects with what stops that (kept for later). */
    flush(): Promise<void> {
      if (refusal) return Promise.reject(refusal.error);
      if (!inFlight && !pending()) return Promise.resolve();
      const done = new Promise<void>((resolve, reject) => waiters.push({ resolve, reject }));
      if (!inFlight) void send();
      return done;
    },
    /** Back online: a waiting retry goes now. */
    retryNow(): void {
      if (attempt > 0 && !inFlight) void send();
    },
    /** After a refusal the review could not resolve otherwise ("Try again"). */
    retry(): void {
      refusal = null;
      lastSent = '';
      attempt = 0;
      void send();
    },
    /** Someone refused a write of this document (a decision): stop sending until it is resolved. */
    refuse(error: unknown): void {
      refusal = { error };
      clearTimeout(timer);
      report();
      settle(error);
    },
    /** The document as read again after a refusal: go on from it. */
    rebase(nextVersion: number, nextAcked: Edits): void {
      version = nextVersion;
      acked = nextAcked;
      refusal = null;
      lastSent = '';
      attempt = 0;
      report();
      void send();
    },
    start(): void {
      running = true;
      if (pending()) schedule(0);
    },
    stop(): void {
      running = false;
      clearTimeout(timer);
    },
    version: () => version,
    acked: () => acked,
    current: () => current,
  };
}
