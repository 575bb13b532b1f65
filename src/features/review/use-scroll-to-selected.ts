import { useEffect, type RefObject } from 'react';
import { FIELD_ATTRIBUTE } from './fields/field-actions';

/**
 * When the selection changes from elsewhere (a polygon clicked, a link), its value scrolls into view in
 * the list; the keyboard focus is left where it is.
 */
export function useScrollToSelected(root: RefObject<HTMLElement | null>, selected: string | null): void {
  useEffect(() => {
    if (!selected || !root.current) return;
    const element = [...root.current.querySelectorAll<HTMLElement>(`[${FIELD_ATTRIBUTE}]`)].find(
      (el) => el.getAttribute(FIELD_ATTRIBUTE) === selected,
    );
    if (element && !element.contains(document.activeElement)) element.scrollIntoView?.({ block: 'nearest' });
  }, [root, selected]);
}
