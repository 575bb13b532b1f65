import { useHighlight, type Highlight } from '../viewer/highlight-store';
import { FIELD_ATTRIBUTE, useFieldActions, type FieldActions } from './field-actions';

/**
 * What makes an element a value's place in the list (a row, a table cell): it is found by its path
 * (keyboard moves, scrolling to the selection), focusable, marked while hovered or selected, and
 * hovering or clicking it hovers or selects the field, as its polygon does.
 */
export function useFieldTarget(path: string): {
  actions: FieldActions;
  highlight: Highlight;
  targetProps: Record<string, unknown>;
} {
  const actions = useFieldActions();
  const highlight = useHighlight(path);
  return {
    actions,
    highlight,
    targetProps: {
      [FIELD_ATTRIBUTE]: path,
      tabIndex: -1,
      'aria-current': highlight.includes('selected') ? 'true' : undefined,
      'data-active': highlight !== '' ? 'true' : undefined,
      onPointerEnter: () => actions.onFieldHover(path),
      onPointerLeave: () => actions.onFieldHover(null),
      onClick: () => actions.onFieldSelect(path),
    },
  };
}
