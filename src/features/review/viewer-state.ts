import { useReducer } from 'react';

/**
 * What the operator is pointing at: UI state only (server data lives in React Query). Hover is
 * transient; selection is where the keyboard focus and the scroll follow.
 */
export interface ViewerState {
  hovered: string | null;
  selected: string | null;
}

export type ViewerAction = { type: 'hover'; path: string | null } | { type: 'select'; path: string | null };

export function viewerReducer(state: ViewerState, action: ViewerAction): ViewerState {
  switch (action.type) {
    case 'hover':
      return state.hovered === action.path ? state : { ...state, hovered: action.path };
    case 'select':
      return state.selected === action.path ? state : { ...state, selected: action.path };
  }
}

export function useViewerState() {
  return useReducer(viewerReducer, { hovered: null, selected: null });
}
