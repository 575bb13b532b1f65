import type { ReviewCommand } from './keyboard/keymap';
import { isNavCommand, navigate, type NavField } from './keyboard/navigation';
import { useReviewShortcuts } from './keyboard/use-review-shortcuts';
import { viewerActions, type ViewerDispatch } from './viewer-state';

interface Options {
  /** The values in the order shown, with whether each still needs review. */
  fields: readonly NavField[];
  selected: string | null;
  /** Select a value and put the keyboard focus on its row (or in its editor). */
  onSelect: (path: string, target: 'row' | 'editor') => void;
  dispatchViewer: ViewerDispatch;
  onHelp: () => void;
  /** `p`: pick the selected value from the page; false when it cannot be. */
  onPick?: (() => boolean) | undefined;
  onAnnounce: (message: string) => void;
  enabled: boolean;
}

/** The review's keys, wired: fields through the selection, pages, zoom and rotation through the viewer. */
export function useReviewKeys({
  fields,
  selected,
  onSelect,
  dispatchViewer,
  onHelp,
  onPick,
  onAnnounce,
  enabled,
}: Options) {
  useReviewShortcuts((command: ReviewCommand) => {
    if (isNavCommand(command)) {
      const next = navigate(fields, selected, command);
      if (next) onSelect(next, 'row');
      else onAnnounce(fields.length === 0 ? 'No value to move to.' : 'Nothing left to review.');
      return true;
    }
    switch (command) {
      case 'edit':
        if (!selected) return false;
        onSelect(selected, 'editor');
        return true;
      case 'nextPage':
        dispatchViewer(viewerActions.nextPage());
        return true;
      case 'previousPage':
        dispatchViewer(viewerActions.previousPage());
        return true;
      case 'zoomIn':
        dispatchViewer(viewerActions.zoomIn());
        return true;
      case 'zoomOut':
        dispatchViewer(viewerActions.zoomOut());
        return true;
      case 'zoomReset':
        dispatchViewer(viewerActions.fitWidth());
        return true;
      case 'rotate':
        dispatchViewer(viewerActions.rotate(90));
        return true;
      case 'help':
        onHelp();
        return true;
      case 'pick':
        return onPick?.() ?? false;
    }
    return false;
  }, enabled);
}
