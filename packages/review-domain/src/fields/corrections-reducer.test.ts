import { describe, expect, it } from 'vitest';
import {
  correctionsReducer,
  countChanges,
  initialCorrections,
  type CorrectionsState,
} from './corrections-reducer';

const loaded: CorrectionsState = { ...initialCorrections, loaded: true };

describe('correctionsReducer', () => {
  it('records a correction and drops it when the value goes back to the extracted one', () => {
    const edited = correctionsReducer(loaded, { type: 'set', path: 'total', value: '12.50', original: 12.5 });
    expect(edited.values).toEqual({ total: '12.50' });
    const back = correctionsReducer(edited, { type: 'set', path: 'total', value: '12.5', original: 12.5 });
    expect(back.values).toEqual({});
    // Kept as typed on the way to a number: `12.` over 12 is a correction, not snapped back to 12.
    expect(correctionsReducer(loaded, { type: 'set', path: 'q', value: '12.', original: 12 }).values).toEqual(
      { q: '12.' },
    );
    // Emptying a value is a correction to null.
    expect(correctionsReducer(loaded, { type: 'set', path: 'a', value: null, original: 'x' }).values).toEqual(
      { a: null },
    );
  });

  it('keeps edits made before the stored draft arrived, and loads once', () => {
    const early = correctionsReducer(initialCorrections, {
      type: 'set',
      path: 'a',
      value: 'new',
      original: 'old',
    });
    const after = correctionsReducer(early, {
      type: 'loaded',
      draft: { values: { a: 'stored', b: 'kept' }, removed: ['t[0]'], added: { t: 1 }, reviewed: ['c'] },
    });
    expect(after).toEqual({
      loaded: true,
      values: { a: 'new', b: 'kept' },
      removed: ['t[0]'],
      added: { t: 1 },
      reviewed: ['c'],
    });
    expect(correctionsReducer(after, { type: 'loaded', draft: null })).toBe(after);
  });

  it('reverts one value or everything, keeping what was confirmed', () => {
    let state = correctionsReducer(loaded, { type: 'set', path: 'a', value: '1', original: '0' });
    state = correctionsReducer(state, { type: 'set', path: 'b', value: '2', original: '0' });
    state = correctionsReducer(state, { type: 'confirm', path: 'c' });
    state = correctionsReducer(state, { type: 'addItem', list: 'rows' });
    expect(correctionsReducer(state, { type: 'revert', path: 'a' }).values).toEqual({ b: '2' });
    expect(correctionsReducer(state, { type: 'revertAll' })).toMatchObject({
      values: {},
      removed: [],
      added: {},
      reviewed: ['c'],
    });
  });

  it('marks an extracted item removed (restorable) and deletes an added one, moving the later ones up', () => {
    let state = correctionsReducer(loaded, { type: 'removeItem', list: 'rows', index: 1, extractedCount: 2 });
    expect(state.removed).toEqual(['rows[1]']);
    expect(correctionsReducer(state, { type: 'restoreItem', path: 'rows[1]' }).removed).toEqual([]);

    state = correctionsReducer(state, { type: 'addItem', list: 'rows' });
    state = correctionsReducer(state, { type: 'addItem', list: 'rows' });
    state = correctionsReducer(state, {
      type: 'set',
      path: 'rows[2].a',
      value: 'first added',
      original: null,
    });
    state = correctionsReducer(state, {
      type: 'set',
      path: 'rows[3].a',
      value: 'second added',
      original: null,
    });
    state = correctionsReducer(state, { type: 'addItem', list: 'rows[3].tags' });
    state = correctionsReducer(state, { type: 'removeItem', list: 'rows', index: 2, extractedCount: 2 });
    expect(state.added).toEqual({ rows: 1, 'rows[2].tags': 1 });
    expect(state.values).toEqual({ 'rows[2].a': 'second added' });
    expect(state.removed).toEqual(['rows[1]']);
    expect(countChanges(state)).toEqual({ values: 1, removed: 1, added: 2, total: 4 });
  });

  it('duplicates a row as an added item after the added ones, with its values as corrections', () => {
    let state = correctionsReducer(loaded, { type: 'addItem', list: 'rows' });
    state = correctionsReducer(state, {
      type: 'duplicateItem',
      list: 'rows',
      extractedCount: 2,
      values: { '.a': 'bolts', '.n': 3 },
    });
    // Two extracted rows and one added: the copy is rows[3].
    expect(state.added).toEqual({ rows: 2 });
    expect(state.values).toEqual({ 'rows[3].a': 'bolts', 'rows[3].n': 3 });
    expect(countChanges(state)).toEqual({ values: 2, removed: 0, added: 2, total: 4 });
    // The copy is an added item like any other: removing it takes its values with it.
    state = correctionsReducer(state, { type: 'removeItem', list: 'rows', index: 3, extractedCount: 2 });
    expect(state.added).toEqual({ rows: 1 });
    expect(state.values).toEqual({});
  });
});
