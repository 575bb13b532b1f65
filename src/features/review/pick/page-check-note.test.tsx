import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { FieldActionsContext, type FieldActions } from '../fields/field-actions';
import { FieldList } from '../fields/field-list';
import { buildReviewTree, type Edits } from '@extraction-review/review-domain/fields/review-tree';
import { extractionFixture } from '@extraction-review/test-kit/recorded-results';
import { PickContext, type PickContextValue } from './pick-context';
import type { WordInput } from './pick-words';
import { mockFieldActions as actions } from '../testing/field-actions';
import { valueOf } from '../testing/value-of';

const fields = extractionFixture('standard_field_types.json').inference.result.fields;

/** One line of words across the top of page 1, left to right. */
function line(texts: string[]): WordInput[] {
  return texts.map((text, i) => ({
    text,
    polygon: [
      [0.05 + i * 0.2, 0.1],
      [0.2 + i * 0.2, 0.1],
      [0.2 + i * 0.2, 0.12],
      [0.05 + i * 0.2, 0.12],
    ],
  }));
}

function pickContext(words: WordInput[]): PickContextValue {
  return {
    source: { key: ['test-words'], read: () => Promise.resolve(words) },
    pageTurns: undefined,
    active: false,
    rotation: 0,
    selection: null,
    pageInView: 0,
    onChooseCandidate: vi.fn(),
    onConfirmAnyway: vi.fn(),
    onPointerPick: vi.fn(),
  };
}

function renderList(edits: Edits, pick: PickContextValue, a: FieldActions): void {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrap = (children: ReactNode) => (
    <QueryClientProvider client={client}>
      <PickContext value={pick}>
        <FieldActionsContext value={a}>{children}</FieldActionsContext>
      </PickContext>
    </QueryClientProvider>
  );
  render(wrap(<FieldList nodes={buildReviewTree(fields, edits)} filtered={null} />));
}

const TYPO_CELL = 'field_object_list[1].subfield_1';
const PRINTED = line(['ACME-4411', 'field_object_list-1-subfield_1-value', 'Total']);

describe('the page check in values and table cells', () => {
  it('warns under a table cell typed with a value not on the page, and offers the nearest printed', async () => {
    const pick = pickContext(PRINTED);
    renderList(
      { values: { [TYPO_CELL]: 'ACME-4441' }, removed: [], added: {}, reviewed: [] },
      pick,
      actions(),
    );
    const table = screen.getByRole('table', { name: 'Field object list' });
    const alert = await within(table).findByRole('alert');
    expect(alert).toHaveTextContent('ACME-4441 is not on page 1. Nearest there:');
    await userEvent.click(
      within(alert).getByRole('button', { name: 'Use ACME-4411 (page 1) for Subfield 1' }),
    );
    expect(pick.onChooseCandidate).toHaveBeenCalledWith(
      expect.objectContaining({ path: TYPO_CELL }),
      expect.objectContaining({ text: 'ACME-4411' }),
    );
  });

  it('the first Enter on a warned value shows the warning, the second confirms it anyway; a value found is confirmed at once', async () => {
    const user = userEvent.setup();
    const pick = pickContext(PRINTED);
    const a = actions();
    renderList(
      {
        values: { [TYPO_CELL]: 'ACME-4441', field_simple_string: 'Total' },
        removed: [],
        added: {},
        reviewed: [],
      },
      pick,
      a,
    );
    const table = screen.getByRole('table', { name: 'Field object list' });
    await within(table).findByRole('alert');
    await user.click(valueOf(TYPO_CELL, table));
    await user.keyboard('{Enter}');
    // Not taken: the warning says what a second Enter does.
    expect(pick.onConfirmAnyway).not.toHaveBeenCalled();
    expect(a.onLeaveEditor).not.toHaveBeenCalled();
    expect(within(table).getByRole('alert')).toHaveTextContent('Press Enter again to confirm it anyway');
    await user.keyboard('{Enter}');
    expect(pick.onConfirmAnyway).toHaveBeenCalledWith(expect.objectContaining({ path: TYPO_CELL }));
    expect(a.onLeaveEditor).toHaveBeenCalledWith(TYPO_CELL);
    expect(a.onConfirm).not.toHaveBeenCalled();

    // `Total` is printed: no warning, Enter confirms it as any value.
    await user.click(valueOf('field_simple_string'));
    await user.keyboard('{Enter}');
    expect(a.onConfirm).toHaveBeenCalledWith('field_simple_string');
    expect(pick.onConfirmAnyway).toHaveBeenCalledTimes(1);
  });

  it('says a value confirmed anyway was, in a cell as in a row, and asks for no words for values not typed', async () => {
    const read = vi.fn(() => Promise.resolve(PRINTED));
    const pick = { ...pickContext(PRINTED), source: { key: ['counted-words'], read } };
    renderList(
      {
        values: { [TYPO_CELL]: 'ACME-4441' },
        removed: [],
        added: {},
        reviewed: [TYPO_CELL],
        notOnPage: { [TYPO_CELL]: 'ACME-4441' },
      },
      pick,
      actions(),
    );
    expect(await screen.findByText('Confirmed, not on page 1.')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
    // One page asked for, once: the only typed value's.
    expect(read).toHaveBeenCalledTimes(1);
  });

  it('never warns on a value picked from the page, however its words join', async () => {
    const user = userEvent.setup();
    const word = (text: string, x: number, y: number): WordInput => ({
      text,
      polygon: [
        [x, y],
        [x + 0.1, y],
        [x + 0.1, y + 0.02],
        [x, y + 0.02],
      ],
    });
    // A box over the left of two lines: in reading order `Invoice` stands between its two words.
    const pick = pickContext([
      word('Northwind', 0.05, 0.1),
      word('Invoice', 0.5, 0.1),
      word('Traders', 0.2, 0.13),
    ]);
    const a = actions();
    const region: [number, number][] = [
      [0.04, 0.09],
      [0.31, 0.09],
      [0.31, 0.16],
      [0.04, 0.16],
    ];
    renderList(
      {
        values: { field_simple_string: 'Northwind Traders' },
        removed: [],
        added: {},
        reviewed: [],
        locations: { field_simple_string: [{ page: 0, polygon: region }] },
      },
      pick,
      a,
    );
    await user.click(valueOf('field_simple_string'));
    await user.keyboard('{Enter}');
    expect(a.onConfirm).toHaveBeenCalledWith('field_simple_string');
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
