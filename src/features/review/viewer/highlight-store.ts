import { createContext, useCallback, useContext, useSyncExternalStore } from 'react';

/**
 * The hovered and selected field, for polygons. A page may carry thousands of polygons: a hover must
 * re-render the two whose state changed, not all of them, so each polygon subscribes to its own path
 * (pdf.js's draw layer likewise touches only the outlines it changes).
 */
export interface HighlightStore {
  set(hovered: string | null, selected: string | null): void;
  subscribe(path: string, listener: () => void): () => void;
  /** Any change of either. */
  subscribeAll(listener: () => void): () => void;
  /** The same object until either changes. */
  current(): { hovered: string | null; selected: string | null };
  /** `hovered` and/or `selected`, or '' (a string, so that React compares it by value). */
  get(path: string): Highlight;
}

export type Highlight = '' | 'hovered' | 'selected' | 'hovered selected';

export function createHighlightStore(): HighlightStore {
  let current = { hovered: null as string | null, selected: null as string | null };
  const listeners = new Map<string, Set<() => void>>();
  const everyChange = new Set<() => void>();

  const notify = (path: string | null): void => {
    if (path === null) return;
    for (const listener of listeners.get(path) ?? []) listener();
  };

  return {
    set(hovered, selected) {
      if (hovered === current.hovered && selected === current.selected) return;
      const touched = new Set([current.hovered, current.selected, hovered, selected]);
      current = { hovered, selected };
      for (const path of touched) notify(path);
      for (const listener of everyChange) listener();
    },
    subscribeAll(listener) {
      everyChange.add(listener);
      return () => everyChange.delete(listener);
    },
    current: () => current,
    subscribe(path, listener) {
      let set = listeners.get(path);
      if (!set) listeners.set(path, (set = new Set()));
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0) listeners.delete(path);
      };
    },
    get(path) {
      const h = current.hovered === path;
      const s = current.selected === path;
      return h && s ? 'hovered selected' : h ? 'hovered' : s ? 'selected' : '';
    },
  };
}

export const HighlightContext = createContext<HighlightStore | null>(null);

/** This field's highlight; re-renders only when it changes. */
export function useHighlight(path: string): Highlight {
  const store = useContext(HighlightContext);
  const subscribe = useCallback(
    (listener: () => void) => store?.subscribe(path, listener) ?? (() => {}),
    [store, path],
  );
  return useSyncExternalStore(subscribe, () => store?.get(path) ?? '');
}

const NOTHING = { hovered: null, selected: null };
const noSubscription = () => () => {};

/** The hovered and selected fields, for the one layer per page that draws their highlight. */
export function useHighlighted(): { hovered: string | null; selected: string | null } {
  const store = useContext(HighlightContext);
  return useSyncExternalStore(store?.subscribeAll ?? noSubscription, () => store?.current() ?? NOTHING);
}
