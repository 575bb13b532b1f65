import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  initialViewerState,
  initViewerState,
  MAX_ZOOM,
  MIN_ZOOM,
  useViewerState,
  viewerActions as a,
  viewerReducer,
  type ViewerAction,
  type ViewerState,
} from './viewer-state';

const run = (actions: ViewerAction[], from: ViewerState = initialViewerState) =>
  actions.reduce(viewerReducer, from);
const opened = (pageCount: number) => run([{ type: 'documentLoaded', pageCount }]);

describe('viewer state: hover and selection', () => {
  it('hovers and un-hovers, keeping the same object when nothing changes', () => {
    const hovered = viewerReducer(initialViewerState, a.hover('total'));
    expect(hovered.hovered).toBe('total');
    expect(viewerReducer(hovered, a.hover('total'))).toBe(hovered);
    expect(viewerReducer(hovered, a.hover(null)).hovered).toBeNull();
  });

  it('selecting a field asks the viewer to bring it into view, every time', () => {
    const once = viewerReducer(initialViewerState, a.select('total'));
    expect(once.selected).toBe('total');
    expect(once.request).toEqual({ kind: 'field', path: 'total' });
    const again = viewerReducer({ ...once, request: null }, a.select('total'));
    expect(again.request).toEqual({ kind: 'field', path: 'total' });
  });

  it('jumps to the field’s page at once when the caller knows it', () => {
    expect(viewerReducer(opened(10), a.select('total', { page: 2 })).page).toBe(2);
  });

  it('selects a polygon already in view without scrolling', () => {
    const state = viewerReducer(initialViewerState, a.select('date', { reveal: false }));
    expect(state).toMatchObject({ selected: 'date', request: null });
    expect(viewerReducer(state, a.select('date', { reveal: false }))).toBe(state);
  });

  it('clears the selection', () => {
    const state = viewerReducer(initialViewerState, a.select('total'));
    expect(viewerReducer(state, a.select(null)).selected).toBeNull();
    expect(viewerReducer(initialViewerState, a.select(null))).toBe(initialViewerState);
  });
});

describe('viewer state: pages', () => {
  it('moves between pages within the document, asking the viewer to scroll', () => {
    const state = run([a.goToPage(3), a.nextPage(), a.nextPage()], opened(5));
    expect(state.page).toBe(4);
    expect(state.request).toEqual({ kind: 'page', page: 4 });
    expect(run([a.previousPage()], opened(5)).page).toBe(0);
    expect(run([a.goToPage(99)], opened(5)).page).toBe(4);
    expect(run([a.goToPage(-3)], opened(5)).page).toBe(0);
  });

  it('does not clamp forward before the document is open', () => {
    expect(run([a.goToPage(7)]).page).toBe(7);
    // ...and clamps once it is.
    expect(run([a.goToPage(7), { type: 'documentLoaded', pageCount: 3 }]).page).toBe(2);
  });

  it('follows the page the operator scrolled to, without a scroll request', () => {
    const state = run([{ type: 'pageInView', page: 2 }], opened(5));
    expect(state).toMatchObject({ page: 2, request: null });
    expect(viewerReducer(state, { type: 'pageInView', page: 2 })).toBe(state);
  });

  it('clears a request once the viewer made it, unless a newer one came meanwhile', () => {
    const first = viewerReducer(opened(5), a.select('total'));
    const request = first.request;
    if (!request) throw new Error('no request');
    const done = viewerReducer(first, { type: 'requestDone', request, page: 3 });
    expect(done).toMatchObject({ request: null, page: 3 });
    const newer = viewerReducer(first, a.goToPage(1));
    expect(viewerReducer(newer, { type: 'requestDone', request, page: 3 })).toBe(newer);
  });
});

describe('viewer state: zoom and rotation', () => {
  it('zooms in and out by steps, stopping at fit width on the way', () => {
    expect(run([a.zoomIn()]).zoom).toBe(1.25);
    expect(run([a.zoomOut()]).zoom).toBe(0.8);
    expect(run([a.zoomOut(), a.zoomIn()]).zoom).toBe(1);
    expect(run([a.zoomTo(0.9), a.zoomIn()]).zoom).toBe(1);
    expect(run([a.zoomIn(), a.zoomIn(), a.fitWidth()]).zoom).toBe(1);
  });

  it('keeps zoom within its bounds', () => {
    expect(run(Array.from({ length: 30 }, () => a.zoomIn())).zoom).toBe(MAX_ZOOM);
    expect(run(Array.from({ length: 30 }, () => a.zoomOut())).zoom).toBe(MIN_ZOOM);
    expect(run([a.zoomTo(100)]).zoom).toBe(MAX_ZOOM);
    expect(run([a.zoomTo(Number.NaN)]).zoom).toBe(1);
    expect(run([a.zoomTo(1.23456)]).zoom).toBe(1.235);
  });

  it('turns the view a quarter at a time, both ways', () => {
    expect(run([a.rotate(90)]).rotation).toBe(90);
    expect(run([a.rotate(-90)]).rotation).toBe(270);
    expect(run([a.rotate(90), a.rotate(90), a.rotate(90), a.rotate(90)]).rotation).toBe(0);
  });
});

describe('useViewerState', () => {
  it('starts from the URL’s field and scrolls to it once the document opens', () => {
    expect(initViewerState({ selected: 'total' })).toMatchObject({
      selected: 'total',
      request: { kind: 'field', path: 'total' },
    });
    expect(initViewerState({ page: 2 }).request).toEqual({ kind: 'page', page: 2 });
    expect(initViewerState()).toEqual(initialViewerState);
  });

  it('returns the state and a dispatch', () => {
    const { result } = renderHook(() => useViewerState());
    act(() => result.current[1](a.zoomIn()));
    expect(result.current[0].zoom).toBe(1.25);
  });
});
