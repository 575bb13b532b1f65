import { useCallback, useEffect, useState, type RefObject } from 'react';
import { FIELD_ATTRIBUTE } from './fields/field-actions';
import { isWithin } from '@extraction-review/review-domain/fields/review-tree';

type Target = 'row' | 'editor';

/**
 * Moves the keyboard focus to a value's row (where the review's keys act) or into its editor, once
 * React has drawn it: a group may have to open, a tab to show, an added item to appear first. A path
 * that names a list item or an object goes to the first value inside it.
 */
export function useFieldFocus(root: RefObject<HTMLElement | null>) {
  const [request, setRequest] = useState<{ path: string; target: Target } | null>(null);

  useEffect(() => {
    if (!request || !root.current) return;
    const candidates = root.current.querySelectorAll<HTMLElement>(`[${FIELD_ATTRIBUTE}]`);
    const element = [...candidates].find((el) =>
      isWithin(el.getAttribute(FIELD_ATTRIBUTE) ?? '', request.path),
    );
    if (!element) return;
    const editor = element.querySelector<HTMLElement>(
      'input:not([disabled]), select:not([disabled]), textarea',
    );
    if (request.target === 'editor' && editor) editor.focus();
    else element.focus();
    element.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [request, root]);

  return useCallback((path: string, target: Target) => setRequest({ path, target }), []);
}
