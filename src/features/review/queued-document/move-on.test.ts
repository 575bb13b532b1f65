/**
 * A decision that moves on with the next document ready ahead (move-on.ts): the next review opens
 * before the decision and the take answer; then, by what they answer, it stays (the take gave it),
 * is replaced by the one given (said so), goes to the queue (none left), or the review goes back to
 * the document decided (the decision refused), with the problem kept for it.
 */
import { describe, expect, it } from 'vitest';
import type { ReviewDocument } from '@extraction-review/contract/review/schemas';
import { createMoveOnStore, moveOnAhead, takenMeanwhile, type MoveOnSteps } from './move-on';

function deferred<T>() {
  let resolve: (value: T) => void = () => undefined;
  let reject: (error: unknown) => void = () => undefined;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const doc = (id: string, overrides: Partial<ReviewDocument> = {}) =>
  ({
    id,
    fileName: `${id}.pdf`,
    state: 'in_review',
    holder: { id: 'me', name: 'Ada' },
    ...overrides,
  }) as ReviewDocument;

/** The steps, each recording itself; the decision, take and re-read answer when the test says. */
function setUp() {
  const events: string[] = [];
  const decision = deferred<{ document: ReviewDocument }>();
  const take = deferred<ReviewDocument | null>();
  const reread = deferred<ReviewDocument | null>();
  let showing: string | null = 'A';
  const store = createMoveOnStore();
  const steps: MoveOnSteps = {
    from: 'A',
    to: 'B',
    decide: () => {
      events.push('decide');
      return decision.promise;
    },
    decided: (document) => events.push(`decided ${document.id} ${document.state}`),
    take: () => {
      events.push('take');
      return take.promise;
    },
    taken: (document) => void events.push(`taken ${document.id}`),
    open: (id, { replace }) => {
      events.push(`${replace ? 'replace' : 'open'} ${id}`);
      showing = id;
    },
    back: (id) => {
      events.push(`back ${id}`);
      showing = id;
    },
    queueEmpty: () => {
      events.push('queue empty');
      showing = null;
    },
    showing: () => showing,
    reread: (id) => {
      events.push(`reread ${id}`);
      return reread.promise;
    },
    nameOf: (id) => `${id}.pdf`,
  };
  const leave = (id: string | null) => (showing = id);
  return { events, decision, take, reread, store, steps, leave };
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('moving on to the next document shown ahead', () => {
  it('opens it before the decision answers, not editable until the take gives it', async () => {
    const { events, decision, take, store, steps } = setUp();
    const done = moveOnAhead(steps, store);

    // At once: the decision sent, B's review open, being taken; nothing has answered yet.
    expect(events).toEqual(['decide', 'open B']);
    expect(store.get().taking).toBe('B');

    decision.resolve({ document: doc('A', { state: 'confirmed', holder: null }) });
    await settled();
    expect(events).toEqual(['decide', 'open B', 'decided A confirmed', 'take']);
    expect(store.get().taking).toBe('B');

    take.resolve(doc('B'));
    await done;
    // The same document: it stays, with no other entry; its review, holding it, lets `taking` go.
    expect(events).toEqual(['decide', 'open B', 'decided A confirmed', 'take', 'taken B']);
    expect(store.get()).toMatchObject({ taking: 'B', failed: null, notice: null, takeFailed: null });
  });

  it('replaces it by the document the take gave instead, and says who took it', async () => {
    const { events, decision, take, reread, store, steps } = setUp();
    const done = moveOnAhead(steps, store);
    decision.resolve({ document: doc('A', { state: 'rejected', holder: null }) });
    take.resolve(doc('C'));
    await settled();
    await settled();

    // C is opened in B's place (no entry added: Back leads to A), and said so on it at once.
    expect(events).toEqual([
      'decide',
      'open B',
      'decided A rejected',
      'take',
      'taken C',
      'replace C',
      'reread B',
    ]);
    expect(store.get().taking).toBeNull();
    expect(store.get().notice).toEqual({
      documentId: 'C',
      text: 'B.pdf was taken meanwhile; here is the next one.',
    });

    reread.resolve(doc('B', { holder: { id: 'bob', name: 'Bob' } }));
    await done;
    expect(store.get().notice).toEqual({
      documentId: 'C',
      text: 'Bob took B.pdf meanwhile; here is the next one.',
    });
  });

  it('goes back to the document decided when the decision is refused, the problem kept for its review', async () => {
    const { events, decision, store, steps } = setUp();
    const done = moveOnAhead(steps, store);
    const refused = new Error('409 stale');
    decision.reject(refused);
    await done;

    // Nothing taken; back to A (the entry pushed for B let go of), which shows the problem.
    expect(events).toEqual(['decide', 'open B', 'back A']);
    expect(store.get()).toMatchObject({ taking: null, failed: { documentId: 'A', error: refused } });
  });

  it('goes to the queue when nothing is left to take', async () => {
    const { events, decision, take, store, steps } = setUp();
    const done = moveOnAhead(steps, store);
    decision.resolve({ document: doc('A', { state: 'postponed', holder: null }) });
    take.resolve(null);
    await done;
    expect(events).toEqual(['decide', 'open B', 'decided A postponed', 'take', 'queue empty']);
    expect(store.get().taking).toBeNull();
  });

  it('leaves an operator who went elsewhere meanwhile where they are', async () => {
    const refusedRun = setUp();
    const refused = moveOnAhead(refusedRun.steps, refusedRun.store);
    refusedRun.leave('A'); // Back, while the decision was on its way
    refusedRun.decision.reject(new Error('422'));
    await refused;
    expect(refusedRun.events).toEqual(['decide', 'open B']);
    expect(refusedRun.store.get().failed?.documentId).toBe('A');

    const otherRun = setUp();
    const other = moveOnAhead(otherRun.steps, otherRun.store);
    otherRun.leave(null); // to the queue
    otherRun.decision.resolve({ document: doc('A', { state: 'confirmed' }) });
    otherRun.take.resolve(doc('C'));
    otherRun.reread.resolve(null);
    await other;
    expect(otherRun.events).not.toContain('replace C');
  });

  it('keeps the take’s failure for the document shown, the decision made', async () => {
    const { events, decision, take, store, steps } = setUp();
    const done = moveOnAhead(steps, store);
    decision.resolve({ document: doc('A', { state: 'confirmed' }) });
    const offline = new Error('network');
    take.reject(offline);
    await done;
    expect(events).toEqual(['decide', 'open B', 'decided A confirmed', 'take']);
    expect(store.get()).toMatchObject({ taking: null, takeFailed: { documentId: 'B', error: offline } });
  });
});

describe('takenMeanwhile', () => {
  it('names who took it, or says it is no longer next', () => {
    expect(takenMeanwhile('b.pdf', doc('B', { holder: { id: 'x', name: null } }))).toBe(
      'A colleague took b.pdf meanwhile; here is the next one.',
    );
    expect(takenMeanwhile('b.pdf', doc('B', { state: 'to_review', holder: null }))).toBe(
      'b.pdf is no longer next (another document came first); here is the next one.',
    );
    expect(takenMeanwhile('b.pdf', doc('B', { state: 'confirmed', holder: null }))).toBe(
      'b.pdf was taken meanwhile; here is the next one.',
    );
  });
});
