import { describe, expect, it, vi } from 'vitest';
import { createHighlightStore } from './highlight-store';

describe('highlight store', () => {
  it('tells only the fields whose highlight changed', () => {
    const store = createHighlightStore();
    const listeners = Object.fromEntries(['a', 'b', 'c'].map((p) => [p, vi.fn()]));
    for (const [path, listener] of Object.entries(listeners)) store.subscribe(path, listener);

    store.set('a', null);
    expect(listeners.a).toHaveBeenCalledTimes(1);
    expect(listeners.b).not.toHaveBeenCalled();
    expect(store.get('a')).toBe('hovered');

    store.set('b', 'a');
    expect(listeners.a).toHaveBeenCalledTimes(2);
    expect(listeners.b).toHaveBeenCalledTimes(1);
    expect(listeners.c).not.toHaveBeenCalled();
    expect(store.get('a')).toBe('selected');
    expect(store.get('b')).toBe('hovered');

    store.set('a', 'a');
    expect(store.get('a')).toBe('hovered selected');
    store.set('a', 'a');
    expect(listeners.a).toHaveBeenCalledTimes(3);
  });

  it('stops telling a listener once unsubscribed', () => {
    const store = createHighlightStore();
    const listener = vi.fn();
    const unsubscribe = store.subscribe('a', listener);
    unsubscribe();
    store.set('a', null);
    expect(listener).not.toHaveBeenCalled();
  });
});
