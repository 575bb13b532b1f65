import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ShortcutsDialog } from './shortcuts-dialog';

describe('ShortcutsDialog', () => {
  it("lists the review's keys, the editor's and the line-item grid's", () => {
    HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
      this.setAttribute('open', '');
    };
    render(<ShortcutsDialog open onClose={() => {}} />);
    const dialog = screen.getByText('Keyboard shortcuts').closest('dialog');
    const tables = [...(dialog?.querySelectorAll('table') ?? [])];
    expect(tables.map((t) => t.querySelector('caption')?.textContent)).toEqual([
      'Review',
      "In a value's editor",
      'In the line-item grid (Open as grid)',
    ]);
    const rows = [...(tables[2]?.querySelectorAll('tbody tr') ?? [])].map((r) => r.textContent);
    expect(rows).toEqual(
      expect.arrayContaining([
        'Enter or F2Edit the cell',
        '← ↑ → ↓Move to the next cell',
        'EscapeLeave the editor; on a cell, close the grid',
      ]),
    );
  });
});
