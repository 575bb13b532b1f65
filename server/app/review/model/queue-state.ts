/**
 * The review queue as a state machine, in one file (packages/contract/src/review/schemas.ts draws it). Pure: the
 * store (store/queue-store.ts) writes each transition as one conditional statement, and these rules
 * say which rows that statement may touch and how to explain a refusal.
 *
 * Leases are a time in the row, never a timer: a document `in_review` whose lease has run out counts
 * as `to_review` from that instant, for every reader, with nothing to sweep it back.
 */
import type { DocumentState } from './review-types';

export interface QueueFacts {
  state: DocumentState;
  holder_id: string | null;
  lease_expires_at: number | null;
  version: number;
  /** A postponed document's return to the queue (null or absent: none). */
  postponed_until?: number | null;
}

/** An idle review gives its document back after this long (REVIEW_LEASE_MS). */
export const DEFAULT_LEASE_MS = 10 * 60 * 1000;

export function leaseLive(doc: QueueFacts, now: number): boolean {
  return doc.state === 'in_review' && doc.lease_expires_at !== null && doc.lease_expires_at > now;
}

/** A postponed document whose "until" has come: back in the queue. */
export function postponementOver(doc: QueueFacts, now: number): boolean {
  return doc.state === 'postponed' && doc.postponed_until != null && doc.postponed_until <= now;
}

/**
 * The state every reader sees: an expired lease is `to_review` again, and so is a document postponed
 * until a time that has come.
 */
export function effectiveState(doc: QueueFacts, now: number): DocumentState {
  if (doc.state === 'in_review' && !leaseLive(doc, now)) return 'to_review';
  return postponementOver(doc, now) ? 'to_review' : doc.state;
}

/** Whether anybody may take it now ("next" takes only `to_review`; opening a postponed one takes it too). */
export function isFree(doc: QueueFacts, now: number, includePostponed = true): boolean {
  const state = effectiveState(doc, now);
  return state === 'to_review' || (includePostponed && state === 'postponed');
}

export function heldBy(doc: QueueFacts, operatorId: string, now: number): boolean {
  return leaseLive(doc, now) && doc.holder_id === operatorId;
}

/** Why a write on a held document was refused, from the row as it is now. */
export type Refusal<T extends QueueFacts = QueueFacts> =
  | { reason: 'not_found' }
  | { reason: 'stale'; current: T }
  | { reason: 'not_holder'; current: T }
  | { reason: 'wrong_state'; current: T };

/**
 * Explains a conditional write on a document the caller must hold (corrections, decisions) that
 * touched no row: not there, held by nobody or another, or changed since the caller read it.
 */
export function explainHolderRefusal<T extends QueueFacts>(
  current: T | undefined,
  operatorId: string,
  baseVersion: number,
  now: number,
): Refusal<T> {
  if (current === undefined) return { reason: 'not_found' };
  if (!heldBy(current, operatorId, now)) {
    return effectiveState(current, now) === 'in_review' || isFree(current, now)
      ? { reason: 'not_holder', current }
      : { reason: 'wrong_state', current };
  }
  if (current.version !== baseVersion) return { reason: 'stale', current };
  // Held, same version, yet not written: it changed between the write and this read.
  return { reason: 'stale', current };
}

/** States an admin may reopen into `to_review`. */
export const REOPENABLE: readonly DocumentState[] = ['confirmed', 'rejected', 'postponed', 'in_review'];
