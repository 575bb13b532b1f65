import { describe, expect, it } from 'vitest';
import { correctionsReducer } from './use-corrections';

describe('correctionsReducer', () => {
  const empty = { loaded: false, values: {} };

  it('records a correction and drops it when the value goes back to the extracted one', () => {
    const edited = correctionsReducer(
      { loaded: true, values: {} },
      { type: 'set', path: 'total', value: '12.50', original: 12.5 },
    );
    expect(edited.values).toEqual({ total: '12.50' });
    const back = correctionsReducer(edited, { type: 'set', path: 'total', value: '12.5', original: 12.5 });
    expect(back.values).toEqual({});
  });

  it('keeps edits made before the stored draft arrived', () => {
    const early = correctionsReducer(empty, { type: 'set', path: 'a', value: 'new', original: 'old' });
    const loaded = correctionsReducer(early, { type: 'loaded', values: { a: 'stored', b: 'kept' } });
    expect(loaded).toEqual({ loaded: true, values: { a: 'new', b: 'kept' } });
    expect(correctionsReducer(loaded, { type: 'loaded', values: {} })).toBe(loaded);
  });
});
