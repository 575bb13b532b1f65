import { useEffect, useRef } from 'react';

/**
 * Ctrl+Enter (⌘+Enter on a Mac) anywhere in the review, even in a value's editor (whose Enter marks
 * the value checked first): the review's own keys are single keys without modifiers (keymap.ts), so
 * this one meets none of them. Not inside a dialog, not on a held-down key's repeats.
 */
export function useConfirmShortcut(onConfirm: () => void, enabled: boolean): void {
  const handler = useRef(onConfirm);
  useEffect(() => {
    handler.current = onConfirm;
  });
  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Enter' || !(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey)
        return;
      if (event.repeat || event.isComposing) return;
      if (event.target instanceof Element && event.target.closest('dialog[open]')) return;
      event.preventDefault();
      handler.current();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [enabled]);
}
