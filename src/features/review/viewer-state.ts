import { useReducer, type Dispatch } from 'react';
import { toRotation, type Rotation } from '@extraction-review/review-domain/viewer/geometry';

/**
 * The review's UI state, in one reducer (server data lives in React Query, corrections in their own
 * reducer): what the operator points at and where the viewer stands. Hover is transient; selection is
 * where the keyboard focus and the scroll follow, and it sits in the URL (the route's concern).
 */
export interface ViewerState {
  hovered: string | null;
  selected: string | null;
  /** The page in view, 0-based. */
  page: number;
  /** 1 = the widest page fills the viewer's width. */
  zoom: number;
  /** The operator's clockwise view rotation (the document itself is never changed). */
  rotation: Rotation;
  /** Pages of the document once the viewer has opened it; page moves are clamped to it. */
  pageCount: number | null;
  /**
   * A move the viewer has still to make on screen: set by page moves and by selecting a field,
   * cleared by the viewer (`requestDone`) once made. A new object each time, even for the same
   * target, so that selecting the same field again scrolls back to it.
   */
  request: ViewRequest | null;
}

export type ViewRequest = { kind: 'page'; page: number } | { kind: 'field'; path: string };

export type ViewerAction =
  | { type: 'hover'; path: string | null }
  /** `page`: where the field is, when the caller knows; `reveal: false` when it is already in view. */
  | { type: 'select'; path: string | null; page?: number; reveal?: boolean }
  | { type: 'goToPage'; page: number }
  | { type: 'nextPage' }
  | { type: 'previousPage' }
  | { type: 'zoomIn' }
  | { type: 'zoomOut' }
  | { type: 'zoomTo'; zoom: number }
  | { type: 'fitWidth' }
  | { type: 'rotate'; by: 90 | -90 }
  // Reported by the viewer.
  | { type: 'documentLoaded'; pageCount: number }
  | { type: 'pageInView'; page: number }
  | { type: 'requestDone'; request: ViewRequest; page: number };

export const MIN_ZOOM = 0.25;
export const MAX_ZOOM = 4;
const ZOOM_STEP = 1.25;

export const initialViewerState: ViewerState = {
  hovered: null,
  selected: null,
  page: 0,
  zoom: 1,
  rotation: 0,
  pageCount: null,
  request: null,
};

export function clampZoom(zoom: number): number {
  if (!Number.isFinite(zoom)) return 1;
  return Math.round(Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, zoom)) * 1000) / 1000;
}

/** One step in or out; a step that would cross 100% (fit width) stops there. */
function stepZoom(zoom: number, direction: 1 | -1): number {
  const next = direction > 0 ? zoom * ZOOM_STEP : zoom / ZOOM_STEP;
  if ((zoom < 1 && next > 1) || (zoom > 1 && next < 1)) return 1;
  return clampZoom(next);
}

function clampPage(state: ViewerState, page: number): number {
  const last = state.pageCount == null ? Infinity : state.pageCount - 1;
  return Math.max(0, Math.min(last, Math.trunc(page)));
}

function goTo(state: ViewerState, page: number): ViewerState {
  const target = clampPage(state, page);
  return { ...state, page: target, request: { kind: 'page', page: target } };
}

export function viewerReducer(state: ViewerState, action: ViewerAction): ViewerState {
  switch (action.type) {
    case 'hover':
      return state.hovered === action.path ? state : { ...state, hovered: action.path };
    case 'select': {
      const reveal = action.reveal ?? true;
      if (action.path === null) return state.selected === null ? state : { ...state, selected: null };
      if (!reveal && state.selected === action.path) return state;
      return {
        ...state,
        selected: action.path,
        page: action.page === undefined ? state.page : clampPage(state, action.page),
        request: reveal ? { kind: 'field', path: action.path } : state.request,
      };
    }
    case 'goToPage':
      return goTo(state, action.page);
    case 'nextPage':
      return goTo(state, state.page + 1);
    case 'previousPage':
      return goTo(state, state.page - 1);
    case 'zoomIn':
      return withZoom(state, stepZoom(state.zoom, 1));
    case 'zoomOut':
      return withZoom(state, stepZoom(state.zoom, -1));
    case 'zoomTo':
      return withZoom(state, clampZoom(action.zoom));
    case 'fitWidth':
      return withZoom(state, 1);
    case 'rotate':
      return { ...state, rotation: toRotation(state.rotation + action.by) };
    case 'documentLoaded': {
      const pageCount = Math.max(0, Math.trunc(action.pageCount));
      const page = Math.min(state.page, Math.max(0, pageCount - 1));
      return state.pageCount === pageCount && state.page === page ? state : { ...state, pageCount, page };
    }
    case 'pageInView': {
      const page = clampPage(state, action.page);
      return state.page === page ? state : { ...state, page };
    }
    case 'requestDone':
      // A newer request made meanwhile stays to be done.
      if (state.request !== action.request) return state;
      return { ...state, request: null, page: clampPage(state, action.page) };
  }
}

function withZoom(state: ViewerState, zoom: number): ViewerState {
  return state.zoom === zoom ? state : { ...state, zoom };
}

/** Typed action creators, for keyboard shortcuts, buttons and the fields panel. */
export const viewerActions = {
  hover: (path: string | null): ViewerAction => ({ type: 'hover', path }),
  select: (path: string | null, options: { page?: number; reveal?: boolean } = {}): ViewerAction => ({
    type: 'select',
    path,
    ...options,
  }),
  goToPage: (page: number): ViewerAction => ({ type: 'goToPage', page }),
  nextPage: (): ViewerAction => ({ type: 'nextPage' }),
  previousPage: (): ViewerAction => ({ type: 'previousPage' }),
  zoomIn: (): ViewerAction => ({ type: 'zoomIn' }),
  zoomOut: (): ViewerAction => ({ type: 'zoomOut' }),
  zoomTo: (zoom: number): ViewerAction => ({ type: 'zoomTo', zoom }),
  fitWidth: (): ViewerAction => ({ type: 'fitWidth' }),
  rotate: (by: 90 | -90): ViewerAction => ({ type: 'rotate', by }),
} as const;

/** Where a review starts: a field selected from the URL is scrolled to once the document is open. */
export function initViewerState(
  init: Partial<Pick<ViewerState, 'selected' | 'page' | 'zoom' | 'rotation'>> = {},
) {
  const state: ViewerState = { ...initialViewerState, ...init };
  if (init.selected) return { ...state, request: { kind: 'field', path: init.selected } as const };
  if (init.page) return { ...state, request: { kind: 'page', page: init.page } as const };
  return state;
}

export type ViewerDispatch = Dispatch<ViewerAction>;

export function useViewerState(
  init?: Partial<Pick<ViewerState, 'selected' | 'page' | 'zoom' | 'rotation'>>,
): readonly [ViewerState, ViewerDispatch] {
  return useReducer(viewerReducer, init, initViewerState);
}
