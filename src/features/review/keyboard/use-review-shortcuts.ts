import { useEffect, useRef } from 'react';
import { commandForKey, type ReviewCommand } from './keymap';

/**
 * Listens for the review's keys on the whole page. `onCommand` returns whether it acted: only then is
 * the browser's own action (scrolling on PageDown, say) prevented. Off while a dialog is open.
 */
export function useReviewShortcuts(onCommand: (command: ReviewCommand) => boolean, enabled = true) {
  const handler = useRef(onCommand);
  useEffect(() => {
    handler.current = onCommand;
  });
  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return;
      if (event.target instanceof Element && event.target.closest('dialog[open]')) return;
      const command = commandForKey(event);
      if (command && handler.current(command)) event.preventDefault();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [enabled]);
}
