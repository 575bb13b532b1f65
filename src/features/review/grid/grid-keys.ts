/**
 * The grid's keys, as a spreadsheet's: on a cell, the arrows move to the next cell (Home and End to
 * the row's first and last), Enter or F2 edit it, Escape closes the grid; in a text editor, ↑ and ↓
 * move to the cell above or below and keep editing (a one-line value has no lines to move between),
 * Enter confirms and Escape leaves the editor (value-editor.tsx). Tab and Shift+Tab go through the
 * editors and the row buttons in reading order, as the browser does.
 */

export interface CellAt {
  row: number;
  col: number;
}

export interface GridSize {
  rows: number;
  cols: number;
}

export type GridMove =
  { kind: 'move'; to: CellAt; target: 'cell' | 'editor' } | { kind: 'edit' } | { kind: 'close' };

export interface GridKey {
  key: string;
  /** Where the key was pressed: on a cell, or in its editor (a text box, or another control). */
  on: 'cell' | 'textEditor' | 'otherEditor';
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
  shiftKey?: boolean;
}

/** What a key does at `from`, or null when it is not the grid's (the browser's or the editor's own). */
export function gridMove(event: GridKey, from: CellAt, size: GridSize): GridMove | null {
  if (event.altKey || event.metaKey) return null;
  const clamp = (to: CellAt): CellAt => ({
    row: Math.max(0, Math.min(size.rows - 1, to.row)),
    col: Math.max(0, Math.min(size.cols - 1, to.col)),
  });
  if (event.on === 'textEditor') {
    if (event.ctrlKey || event.shiftKey) return null;
    if (event.key === 'ArrowUp' || event.key === 'ArrowDown') {
      const to = clamp({ row: from.row + (event.key === 'ArrowUp' ? -1 : 1), col: from.col });
      return { kind: 'move', to, target: 'editor' };
    }
    return null;
  }
  if (event.on === 'otherEditor') return null;
  const move = (to: CellAt): GridMove => ({ kind: 'move', to: clamp(to), target: 'cell' });
  switch (event.key) {
    case 'ArrowUp':
      return move(event.ctrlKey ? { row: 0, col: from.col } : { row: from.row - 1, col: from.col });
    case 'ArrowDown':
      return move(
        event.ctrlKey ? { row: size.rows - 1, col: from.col } : { row: from.row + 1, col: from.col },
      );
    case 'ArrowLeft':
      return move({ row: from.row, col: from.col - 1 });
    case 'ArrowRight':
      return move({ row: from.row, col: from.col + 1 });
    case 'Home':
      return move(event.ctrlKey ? { row: 0, col: 0 } : { row: from.row, col: 0 });
    case 'End':
      return move(
        event.ctrlKey ? { row: size.rows - 1, col: size.cols - 1 } : { row: from.row, col: size.cols - 1 },
      );
    case 'Enter':
    case 'F2':
      return event.ctrlKey ? null : { kind: 'edit' };
    case 'Escape':
      return { kind: 'close' };
    default:
      return null;
  }
}
