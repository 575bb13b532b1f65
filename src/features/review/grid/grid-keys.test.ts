import { describe, expect, it } from 'vitest';
import { gridMove } from './grid-keys';

const size = { rows: 3, cols: 4 };
const at = (row: number, col: number) => ({ row, col });

describe('gridMove', () => {
  it('moves between cells with the arrows, Home and End, staying inside the grid', () => {
    const on = 'cell' as const;
    expect(gridMove({ key: 'ArrowDown', on }, at(0, 1), size)).toEqual({
      kind: 'move',
      to: at(1, 1),
      target: 'cell',
    });
    expect(gridMove({ key: 'ArrowUp', on }, at(0, 1), size)).toEqual({
      kind: 'move',
      to: at(0, 1),
      target: 'cell',
    });
    expect(gridMove({ key: 'ArrowRight', on }, at(1, 3), size)).toEqual({
      kind: 'move',
      to: at(1, 3),
      target: 'cell',
    });
    expect(gridMove({ key: 'ArrowLeft', on }, at(1, 3), size)).toEqual({
      kind: 'move',
      to: at(1, 2),
      target: 'cell',
    });
    expect(gridMove({ key: 'Home', on }, at(2, 2), size)).toEqual({
      kind: 'move',
      to: at(2, 0),
      target: 'cell',
    });
    expect(gridMove({ key: 'End', on, ctrlKey: true }, at(0, 0), size)).toEqual({
      kind: 'move',
      to: at(2, 3),
      target: 'cell',
    });
  });

  it('edits a cell with Enter or F2, and closes the grid with Escape', () => {
    expect(gridMove({ key: 'Enter', on: 'cell' }, at(0, 0), size)).toEqual({ kind: 'edit' });
    expect(gridMove({ key: 'F2', on: 'cell' }, at(0, 0), size)).toEqual({ kind: 'edit' });
    expect(gridMove({ key: 'Escape', on: 'cell' }, at(0, 0), size)).toEqual({ kind: 'close' });
    // Ctrl+Enter is the review's (confirming the document), never the grid's.
    expect(gridMove({ key: 'Enter', on: 'cell', ctrlKey: true }, at(0, 0), size)).toBeNull();
  });

  it('moves up and down from a text editor into the next editor, and leaves other keys to the editor', () => {
    expect(gridMove({ key: 'ArrowDown', on: 'textEditor' }, at(0, 2), size)).toEqual({
      kind: 'move',
      to: at(1, 2),
      target: 'editor',
    });
    expect(gridMove({ key: 'ArrowLeft', on: 'textEditor' }, at(0, 2), size)).toBeNull();
    expect(gridMove({ key: 'Enter', on: 'textEditor' }, at(0, 2), size)).toBeNull();
    expect(gridMove({ key: 'Escape', on: 'textEditor' }, at(0, 2), size)).toBeNull();
    // A select or a date input uses the arrows itself.
    expect(gridMove({ key: 'ArrowDown', on: 'otherEditor' }, at(0, 2), size)).toBeNull();
    expect(gridMove({ key: 'Tab', on: 'cell' }, at(0, 2), size)).toBeNull();
  });
});
