/**
 * The review's keys, in one table: the help overlay lists it, `commandForKey` reads it. Single keys
 * without modifiers (Ctrl, Alt, Meta stay the browser's), never while the operator types in a control.
 */

export type ReviewCommand =
  | 'nextField'
  | 'previousField'
  | 'nextToReview'
  | 'previousToReview'
  | 'edit'
  | 'nextPage'
  | 'previousPage'
  | 'zoomIn'
  | 'zoomOut'
  | 'zoomReset'
  | 'rotate'
  | 'pick'
  | 'help';

export interface Shortcut {
  command: ReviewCommand;
  /** `KeyboardEvent.key` values. */
  keys: readonly string[];
  /** How the keys are shown in the help overlay. */
  label: string;
  description: string;
}

export const SHORTCUTS: readonly Shortcut[] = [
  { command: 'nextField', keys: ['j', 'ArrowDown'], label: 'j or ↓', description: 'Next field' },
  { command: 'previousField', keys: ['k', 'ArrowUp'], label: 'k or ↑', description: 'Previous field' },
  { command: 'nextToReview', keys: ['n'], label: 'n', description: 'Next field needing review' },
  {
    command: 'previousToReview',
    keys: ['N'],
    label: 'Shift+n',
    description: 'Previous field needing review',
  },
  { command: 'edit', keys: ['Enter'], label: 'Enter', description: 'Edit the selected field' },
  { command: 'nextPage', keys: ['PageDown', ']'], label: 'Page Down or ]', description: 'Next page' },
  { command: 'previousPage', keys: ['PageUp', '['], label: 'Page Up or [', description: 'Previous page' },
  { command: 'zoomIn', keys: ['+', '='], label: '+', description: 'Zoom in' },
  { command: 'zoomOut', keys: ['-', '−'], label: '−', description: 'Zoom out' },
  { command: 'zoomReset', keys: ['0'], label: '0', description: 'Fit the page to the width' },
  { command: 'rotate', keys: ['r'], label: 'r', description: 'Rotate the page a quarter turn' },
  {
    command: 'pick',
    keys: ['p'],
    label: 'p',
    description:
      'Pick the selected value from the page (click a word, Shift+click, drag a box; or ← → ↑ ↓ with Shift to extend, Enter to take, Escape to stop)',
  },
  { command: 'help', keys: ['?'], label: '?', description: 'Show these keys' },
];

/** Keys that act inside a value's editor, listed in the help overlay. */
export const EDITOR_KEYS = [
  { label: 'Enter', description: 'Confirm the value (marks it checked) and leave the editor' },
  { label: 'Escape', description: 'Leave the editor (the value is kept, not marked checked)' },
] as const;

/**
 * Keys of the line-item grid (grid/grid-keys.ts, grid/line-item-grid.tsx), listed in the help overlay:
 * as a spreadsheet's, on a cell; its editors keep the value editor's Enter and Escape.
 */
export const GRID_KEYS = [
  { label: '← ↑ → ↓', description: 'Move to the next cell' },
  { label: 'Home or End', description: "The row's first or last cell (with Ctrl: the grid's)" },
  { label: 'Ctrl+↑ or Ctrl+↓', description: 'The first or last row' },
  { label: 'Enter or F2', description: 'Edit the cell' },
  { label: '↑ or ↓ while editing', description: 'Edit the cell above or below' },
  { label: 'Tab or Shift+Tab', description: "Through the cells' editors and the row buttons" },
  { label: 'Escape', description: 'Leave the editor; on a cell, close the grid' },
  { label: '↑ or ↓ on its top edge', description: 'Make the grid taller or shorter' },
] as const;

const byKey = new Map(SHORTCUTS.flatMap((s) => s.keys.map((k) => [k, s.command] as const)));

export interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  isComposing?: boolean;
  target: EventTarget | null;
}

export function commandForKey(event: KeyLike): ReviewCommand | null {
  if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return null;
  if (isTypingTarget(event.target)) return null;
  const command = byKey.get(event.key) ?? null;
  // Enter and the arrows keep their own meaning on buttons, links, tabs and the like.
  if ((command === 'edit' || event.key.startsWith('Arrow')) && isInteractive(event.target)) return null;
  return command;
}

const NOT_TYPING_INPUTS = new Set([
  'checkbox',
  'radio',
  'button',
  'submit',
  'reset',
  'file',
  'image',
  'color',
]);

/** An element where keys type text or move a value: a text input, a select, a text area, an editor. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  if (target instanceof HTMLInputElement) return !NOT_TYPING_INPUTS.has(target.type);
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return (
    (target instanceof HTMLElement && target.isContentEditable) ||
    target.closest('[contenteditable]:not([contenteditable="false"])') != null
  );
}

function isInteractive(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  return (
    target.closest(
      'button, a[href], summary, input, select, textarea, [role="tab"], [role="button"], dialog',
    ) != null
  );
}
