import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import { extractionFixture } from '@extraction-review/test-kit/recorded-results';
import { buildReviewTree, type ListNode } from '@extraction-review/review-domain/fields/review-tree';
import { FieldActionsContext, type FieldActions } from '../fields/field-actions';
import { FieldList } from '../fields/field-list';
import { mockFieldActions } from '../testing/field-actions';
import { valueOf } from '../testing/value-of';

function renderInApp(ui: ReactElement, a: FieldActions) {
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <FieldActionsContext value={a}>{ui}</FieldActionsContext>
    </QueryClientProvider>,
  );
}

const nodes = buildReviewTree(extractionFixture('standard_field_types.json').inference.result.fields);
const table = nodes.find((n) => n.path === 'field_object_list') as ListNode;

describe('LineItemGrid', () => {
  it('opens from the value list over it, with titled columns, keys between cells, and closes back', async () => {
    const user = userEvent.setup();
    const a = mockFieldActions();
    renderInApp(<FieldList nodes={nodes} filtered={null} />, a);
    const opener = screen.getByRole('button', { name: `Open as grid: ${table.title}` });
    await user.click(opener);
    const grid = screen.getByRole('dialog', { name: new RegExp(`^${table.title}`) });
    // The list's own table is left out meanwhile: one copy of each cell.
    expect(screen.queryByRole('table', { name: 'Field object list' })).toBeNull();
    expect(
      document.querySelectorAll('input[data-field-path="field_object_list[0].subfield_1"]'),
    ).toHaveLength(1);
    expect(
      within(grid)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['#', 'Subfield 1', 'Subfield 2', 'Row actions']);

    // Opened on the first cell, which is selected; the arrows move and select, Enter edits.
    const cell = (path: string) => grid.querySelector<HTMLElement>(`td[data-field-path="${path}"]`);
    expect(cell('field_object_list[0].subfield_1')).toHaveFocus();
    expect(a.onFieldSelect).toHaveBeenCalledWith('field_object_list[0].subfield_1');
    await user.keyboard('{ArrowRight}{ArrowDown}');
    expect(cell('field_object_list[1].subfield_2')).toHaveFocus();
    expect(a.onFieldSelect).toHaveBeenLastCalledWith('field_object_list[1].subfield_2');
    await user.keyboard('{Enter}');
    expect(valueOf('field_object_list[1].subfield_2', grid)).toHaveFocus();
    // Escape in the editor goes back to its cell, not out of the grid.
    await user.keyboard('{Escape}');
    expect(cell('field_object_list[1].subfield_2')).toHaveFocus();
    expect(a.onLeaveEditor).not.toHaveBeenCalled();

    await user.click(within(grid).getByRole('button', { name: 'Duplicate Field object list 2' }));
    expect(a.onDuplicateItem).toHaveBeenCalledWith(
      expect.objectContaining({ path: 'field_object_list' }),
      expect.objectContaining({ path: 'field_object_list[1]' }),
    );

    // Escape on a cell closes the grid; the focus goes back to the opener.
    cell('field_object_list[0].subfield_1')?.focus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(opener).toHaveFocus();
    expect(screen.getByRole('table', { name: 'Field object list' })).toBeInTheDocument();
    // A whole journey of keys through the value list: more than the default 5 s on a busy machine.
  }, 20_000);

  it('is read-only in a read-only review: editors disabled, no row actions, still opened and closed', async () => {
    const user = userEvent.setup();
    renderInApp(
      <fieldset disabled>
        <FieldList nodes={nodes} filtered={null} />
      </fieldset>,
      mockFieldActions(),
    );
    // A link in a disabled fieldset is not disabled (only form controls are); user-event's approximation
    // takes anything inside for disabled, so the click is dispatched as the browser would.
    fireEvent.click(screen.getByRole('button', { name: `Open as grid: ${table.title}` }));
    const grid = screen.getByRole('dialog', { name: /read-only/ });
    expect(valueOf('field_object_list[0].subfield_1', grid)).toBeDisabled();
    expect(within(grid).queryByRole('button', { name: /^(Duplicate|Remove|Add)/ })).toBeNull();
    await user.click(within(grid).getByRole('button', { name: /Close grid/ }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
