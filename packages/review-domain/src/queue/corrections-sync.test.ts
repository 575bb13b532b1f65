import { describe, expect, it } from 'vitest';
import { NO_EDITS, type Edits } from '../fields/review-tree';
import {
  applyCorrections,
  changesToSend,
  differences,
  draftFromServer,
  mergeEdits,
  REVERTED,
  sameEdits,
} from './corrections-sync';

const edits = (partial: Partial<Edits>): Edits => ({ ...NO_EDITS, ...partial });

/** What the server holds after taking `changes` on top of `acked`: its latest value per path. */
function serverAfter(acked: Record<string, unknown>, changes: ReturnType<typeof changesToSend>) {
  const next = { ...acked };
  for (const { path, value } of changes) next[path] = value;
  return next;
}

describe('draftFromServer', () => {
  it('reads values, reverts and the three list edits', () => {
    expect(
      draftFromServer({
        total_amount: 12.5,
        supplier_name: 'ACME',
        date: { $reverted: true },
        paid: false,
        note: null,
        '#removed': ['line_items[2]'],
        '#added': { line_items: 1, taxes: 0 },
        '#reviewed': ['date', 'total_amount'],
      }),
    ).toEqual({
      values: { total_amount: 12.5, supplier_name: 'ACME', paid: false, note: null },
      removed: ['line_items[2]'],
      added: { line_items: 1 },
      reviewed: ['date', 'total_amount'],
    });
  });

  it('leaves out what it does not understand instead of failing', () => {
    expect(
      draftFromServer({
        weird: { nested: 1 },
        '#removed': 'line_items[0]',
        '#added': { line_items: -1 },
        '#future': [1],
      }),
    ).toEqual(NO_EDITS);
  });
});

describe('changesToSend', () => {
  it('sends nothing when the server has everything', () => {
    const state = edits({ values: { a: '1' }, removed: ['l[0]'], added: { l: 2 }, reviewed: ['a'] });
    expect(changesToSend(state, { ...state, removed: ['l[0]'], reviewed: ['a'] })).toEqual([]);
    expect(sameEdits(state, state)).toBe(true);
  });

  it('sends the corrected values, and a revert for a correction undone', () => {
    const acked = edits({ values: { a: '1', b: 2 } });
    const current = edits({ values: { a: '1', b: 3, c: true } });
    expect(changesToSend(acked, current)).toEqual([
      { path: 'b', value: 3 },
      { path: 'c', value: true },
    ]);
    expect(changesToSend(current, edits({ values: { b: 3 } }))).toEqual([
      { path: 'a', value: REVERTED },
      { path: 'c', value: REVERTED },
    ]);
  });

  it('tells a number from the same digits typed as text, and null from no correction', () => {
    expect(changesToSend(edits({ values: { a: 12 } }), edits({ values: { a: '12' } }))).toEqual([
      { path: 'a', value: '12' },
    ]);
    expect(changesToSend(NO_EDITS, edits({ values: { a: null } }))).toEqual([{ path: 'a', value: null }]);
  });

  it('sends each list edit whole when it changed, whatever the order of its items', () => {
    const acked = edits({ removed: ['l[0]', 'l[1]'], reviewed: ['a'], added: { l: 1 } });
    expect(
      changesToSend(acked, edits({ removed: ['l[1]', 'l[0]'], reviewed: ['a'], added: { l: 1, m: 0 } })),
    ).toEqual([]);
    expect(changesToSend(acked, edits({ removed: ['l[1]'], reviewed: ['a', 'b'], added: {} }))).toEqual([
      { path: '#removed', value: ['l[1]'] },
      { path: '#added', value: {} },
      { path: '#reviewed', value: ['a', 'b'] },
    ]);
  });

  it('round-trips: what is sent, applied by the server, reads back as the operator’s corrections', () => {
    const start = { a: 'old', b: 1, '#removed': ['l[3]'] };
    const acked = draftFromServer(start);
    const steps: Edits[] = [
      edits({ values: { a: 'new', b: 1, 'l[4].x': 'added row' }, removed: ['l[3]'], added: { l: 1 } }),
      edits({ values: { b: 1 }, removed: [], added: {}, reviewed: ['b'] }),
      edits({ values: { a: 'again' }, removed: ['l[0]'], reviewed: ['b', 'a'] }),
      NO_EDITS,
    ];
    let server: Record<string, unknown> = start;
    let known = acked;
    for (const current of steps) {
      const changes = changesToSend(known, current);
      server = serverAfter(server, changes);
      known = draftFromServer(server);
      expect(sameEdits(known, current)).toBe(true);
    }
    expect(applyCorrections(acked, [])).toEqual(acked);
  });
});

describe('mergeEdits and differences', () => {
  const base = edits({ values: { a: '1', b: '1' }, removed: ['l[0]'], reviewed: ['a'] });

  it('keeps what only one side changed, and the preferred side where both did', () => {
    const mine = edits({ values: { a: 'mine', b: '1', c: 'mine' }, removed: [], reviewed: ['a'] });
    const theirs = edits({ values: { a: 'theirs', b: 'theirs' }, removed: ['l[0]', 'l[1]'], reviewed: [] });
    expect(mergeEdits(base, mine, theirs, 'mine')).toEqual({
      values: { a: 'mine', b: 'theirs', c: 'mine' },
      removed: ['l[1]'],
      added: {},
      reviewed: [],
    });
    expect(mergeEdits(base, mine, theirs, 'theirs').values).toEqual({ a: 'theirs', b: 'theirs', c: 'mine' });
  });

  it('keeps a revert made on either side', () => {
    const mine = edits({ values: { b: '1' }, removed: ['l[0]'], reviewed: ['a'] });
    expect(mergeEdits(base, mine, base, 'theirs').values).toEqual({ b: '1' });
    expect(mergeEdits(base, base, mine, 'mine').values).toEqual({ b: '1' });
  });

  it('lists what the server changed that differs from the operator’s, with both values', () => {
    const mine = edits({ values: { a: 'mine', b: '1' }, removed: ['l[0]'], reviewed: ['a'] });
    const theirs = edits({
      values: { a: 'theirs', b: '1', d: 'new' },
      removed: ['l[0]'],
      reviewed: ['a', 'd'],
      added: { l: 1 },
    });
    expect(differences(base, mine, theirs)).toEqual([
      { path: 'a', mine: 'mine', theirs: 'theirs' },
      { path: 'd', mine: undefined, theirs: 'new' },
      { path: '#reviewed', mine: ['a'], theirs: ['a', 'd'] },
      { path: '#added', mine: {}, theirs: { l: 1 } },
    ]);
    // The same change on both sides is no difference; neither is the operator's own unsent one.
    expect(differences(base, theirs, theirs)).toEqual([]);
    expect(differences(base, mine, base)).toEqual([]);
  });
});
