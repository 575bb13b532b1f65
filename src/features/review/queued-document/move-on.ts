import { useSyncExternalStore } from 'react';
import type { ReviewDocument } from '@extraction-review/contract/review/schemas';

/** The decisions that move on to the next document of the queue. */
export type MoveOnKind = 'confirm' | 'reject' | 'postpone';

/**
 * Where a move on shown ahead stands, for the pages it passes through (each route remounts, so it
 * lives beside them, not in one of them).
 */
export interface MoveOnState {
  /**
   * The document shown ahead while its take is on its way: drawn, read-only, "Taking…"; once given,
   * until its review holds it.
   */
  taking: string | null;
  /** The decision failed after the review had moved on: the decided document's review says why. */
  failed: { documentId: string; error: unknown } | null;
  /** Said on the document the take gave instead of the one shown ahead. */
  notice: { documentId: string; text: string } | null;
  /** Decided, but the take failed: said on the document shown ahead, not taken. */
  takeFailed: { documentId: string; error: unknown } | null;
}

const IDLE: MoveOnState = { taking: null, failed: null, notice: null, takeFailed: null };

export interface MoveOnStore {
  get(): MoveOnState;
  set(patch: Partial<MoveOnState>): void;
  subscribe(listener: () => void): () => void;
  /** The queued document whose page is open now, if any (not a state: nobody re-renders for it). */
  showing(): string | null;
  /** Said by that page when it opens (its id) and closes (null, if still its own). */
  show(documentId: string | null): void;
}

export function createMoveOnStore(): MoveOnStore {
  let state = IDLE;
  let showing: string | null = null;
  const listeners = new Set<() => void>();
  return {
    showing: () => showing,
    show: (documentId) => void (showing = documentId),
    get: () => state,
    set(patch) {
      state = { ...state, ...patch };
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The app's one: a move on outlives the review it started from. */
export const moveOnStore = createMoveOnStore();

export function useMoveOn(store: MoveOnStore = moveOnStore): MoveOnState {
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}

/** The steps of a move on, given by the review (use-decisions.ts); injected, so tests see their order. */
export interface MoveOnSteps {
  /** The document decided, and the one shown ahead (the peeked next, its data in the cache). */
  from: string;
  to: string;
  /** The decision on `from` (its corrections already saved). */
  decide: () => Promise<{ document: ReviewDocument }>;
  /** Decided: the draft goes, the lists are read again, the decided document is shown decided. */
  decided: (document: ReviewDocument) => void;
  /** Takes the next document of the review's filters; null when none is waiting. */
  take: () => Promise<ReviewDocument | null>;
  /** The document taken, into the cache (what was being read of it meanwhile is let go of). */
  taken: (document: ReviewDocument) => Promise<void> | void;
  /** Opens a document's review: a new entry, or in place of the current one. */
  open: (documentId: string, how: { replace: boolean }) => void;
  /** Back to the decided document, its review as it was (the entry pushed by `open` let go of). */
  back: (documentId: string) => void;
  /** Nothing left to take: to the queue, saying so. */
  queueEmpty: () => void;
  /** The document shown now: a page left meanwhile (Back, a link) is not moved under the operator. */
  showing: () => string | null;
  /** The document shown ahead as it is now (who took it), or null when it cannot be read. */
  reread: (documentId: string) => Promise<ReviewDocument | null>;
  /** What the document shown ahead was known as (its file name), for the notice. */
  nameOf: (documentId: string) => string;
}

/**
 * "Confirm and next", Reject or Postpone when the next document is ready in the cache: its review
 * opens at once, not editable, while the decision and then the take run. The take giving it makes
 * it editable; another (taken meanwhile by a colleague, a new urgent one) replaces it, said so; none
 * goes to the queue; a decision refused goes back to the document decided, its review as it was, with
 * the server's problem (its review reads `failed`). Resolves once all is settled.
 */
export async function moveOnAhead(steps: MoveOnSteps, store: MoveOnStore = moveOnStore): Promise<void> {
  const { from, to } = steps;
  store.set({ taking: to, failed: null, notice: null, takeFailed: null });
  // The decision is sent first: opening the next review renders it at once (the router's update is
  // synchronous), and the request need not wait for that.
  const decision = steps.decide();
  steps.open(to, { replace: false });
  let decided: { document: ReviewDocument };
  try {
    decided = await decision;
  } catch (error) {
    store.set({ taking: null, failed: { documentId: from, error } });
    if (steps.showing() === to) steps.back(from);
    return;
  }
  steps.decided(decided.document);
  let next: ReviewDocument | null;
  try {
    next = await steps.take();
  } catch (error) {
    store.set({ taking: null, takeFailed: { documentId: to, error } });
    return;
  }
  if (next === null) {
    store.set({ taking: null });
    if (steps.showing() === to) steps.queueEmpty();
    return;
  }
  await steps.taken(next);
  // The one shown: `taking` stays until its review holds it (queue-review.tsx lets it go then), so
  // that it is never shown as neither taken nor being taken.
  if (next.id === to) return;
  const name = steps.nameOf(to);
  store.set({ taking: null, notice: { documentId: next.id, text: takenMeanwhile(name, null) } });
  if (steps.showing() === to) steps.open(next.id, { replace: true });
  // Who took it: read once the operator has the next one in front of them.
  const now = await steps.reread(to).catch(() => null);
  if (store.get().notice?.documentId === next.id)
    store.set({ notice: { documentId: next.id, text: takenMeanwhile(name, now) } });
}

/** The notice on the document given instead of the one shown ahead. */
export function takenMeanwhile(name: string, now: ReviewDocument | null): string {
  if (now?.holder) return `${now.holder.name ?? 'A colleague'} took ${name} meanwhile; here is the next one.`;
  if (now && now.state !== 'to_review' && now.state !== 'postponed')
    return `${name} was taken meanwhile; here is the next one.`;
  if (now) return `${name} is no longer next (another document came first); here is the next one.`;
  return `${name} was taken meanwhile; here is the next one.`;
}
