import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { extractionFixture } from '@extraction-review/test-kit/recorded-results';
import { FieldActionsContext } from './field-actions';
import { FieldList } from './field-list';
import { buildReviewTree } from '@extraction-review/review-domain/fields/review-tree';
import { schemaHints } from '@extraction-review/review-domain/fields/schema-hints';
import { mockFieldActions as actions } from '../testing/field-actions';
import { valueOf } from '../testing/value-of';

/** As the app renders it: under its query client (a typed value's page check reads the page's words). */
function renderInApp(ui: ReactElement) {
  return render(<QueryClientProvider client={new QueryClient()}>{ui}</QueryClientProvider>);
}

describe('FieldList', () => {
  const fields = extractionFixture('standard_field_types.json').inference.result.fields;

  it('names every control by its title and marks it with its path, tables included', () => {
    renderInApp(
      <FieldActionsContext value={actions()}>
        <FieldList nodes={buildReviewTree(fields)} filtered={null} />
      </FieldActionsContext>,
    );
    const text = screen.getByRole('textbox', { name: 'Field simple string' });
    expect(text).toHaveValue('field_simple_string-value');
    expect(text).toBe(valueOf('field_simple_string'));
    // The visible label is the title; the API path shows on hover.
    expect(screen.getByText('Field simple string', { selector: 'label' })).toHaveAttribute(
      'title',
      'field_simple_string',
    );
    expect(screen.getByRole('checkbox', { name: 'Field simple bool' })).toBeChecked();
    expect(screen.getByRole('textbox', { name: 'Field simple list 2' })).toHaveValue(
      'field_simple_list-1-value',
    );
    expect(valueOf('field_simple_list[1]')).toHaveAccessibleName('Field simple list 2');
    expect(valueOf('field_object.subfield_2')).toHaveAccessibleName('Subfield 2');
    const table = screen.getByRole('table', { name: 'Field object list' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['#', 'Subfield 1', 'Subfield 2', 'Row actions']);
    const cell = within(table).getByRole('textbox', { name: 'Subfield 1, Field object list 2' });
    expect(cell).toHaveValue('field_object_list-1-subfield_1-value');
    expect(cell).toBe(valueOf('field_object_list[1].subfield_1'));
    expect(screen.getByRole('button', { name: 'Add a row to Field object list' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Remove Field object list 1' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add an item to Field simple list' })).toBeInTheDocument();
    // Confidence is named, not only coloured.
    expect(screen.getAllByText('Medium').length).toBeGreaterThan(0);
  });

  it('titles values, sections and rows from the data schema; list items in the singular', () => {
    const hints = schemaHints([
      {
        name: 'supplier_address',
        title: 'Supplier Address',
        type: 'nested_object',
        nested_fields: [{ name: 'street_number', title: 'Street Number', type: 'string' }],
      },
      {
        name: 'line_items',
        title: 'Line Items',
        type: 'nested_object',
        is_array: true,
        nested_fields: [{ name: 'unit_price', title: 'Unit Price', type: 'number' }],
      },
    ]);
    const nodes = buildReviewTree(
      {
        supplier_address: {
          fields: { street_number: { value: '12', locations: [], confidence: 'High' } },
          locations: [],
          confidence: null,
        },
        line_items: {
          items: [
            {
              fields: { unit_price: { value: 4.5, locations: [], confidence: 'Low' } },
              locations: [],
              confidence: null,
            },
          ],
          confidence: null,
        },
      },
      undefined,
      hints,
    );
    renderInApp(
      <FieldActionsContext value={actions()}>
        <FieldList nodes={nodes} filtered={null} />
      </FieldActionsContext>,
    );
    const section = screen.getByRole('button', { name: /Supplier Address/ });
    expect(section).toHaveAttribute('title', 'supplier_address');
    expect(within(screen.getByRole('list', { name: 'Supplier Address' })).getByRole('textbox')).toBe(
      valueOf('supplier_address.street_number'),
    );
    expect(valueOf('supplier_address.street_number')).toHaveAccessibleName('Street Number');
    expect(valueOf('line_items[0].unit_price')).toHaveAccessibleName('Unit Price, Line Item 1');
    expect(screen.getByRole('columnheader', { name: 'Unit Price' })).toHaveAttribute('title', 'unit_price');
    expect(screen.getByRole('button', { name: 'Remove Line Item 1' })).toBeInTheDocument();
  });

  it('reports edits, Enter to confirm and Escape to leave, and offers a select for classifications', async () => {
    const user = userEvent.setup();
    const a = actions();
    const hints = schemaHints([
      { name: 'kind', type: 'classification', classification_values: ['invoice', 'receipt'] },
    ]);
    const nodes = buildReviewTree(
      {
        kind: { value: 'invoice', locations: [], confidence: 'Low' },
        note: { value: 'x', locations: [], confidence: 'High' },
      },
      undefined,
      hints,
    );
    renderInApp(
      <FieldActionsContext value={a}>
        <FieldList nodes={nodes} filtered={null} />
      </FieldActionsContext>,
    );
    const select = screen.getByRole('combobox', { name: 'Kind' });
    await user.selectOptions(select, 'receipt');
    expect(a.onFieldChange).toHaveBeenCalledWith(expect.objectContaining({ path: 'kind' }), 'receipt');
    const note = screen.getByRole('textbox', { name: 'Note' });
    await user.click(note);
    expect(a.onFieldSelect).toHaveBeenCalledWith('note');
    await user.keyboard('{Enter}');
    expect(a.onConfirm).toHaveBeenCalledWith('note');
    await user.keyboard('{Escape}');
    expect(a.onLeaveEditor).toHaveBeenCalledWith('note');
  });

  it('selects the whole value when its editor opens from the keyboard, not on a click', async () => {
    const user = userEvent.setup();
    const nodes = buildReviewTree({ note: { value: 'ACME Ltd', locations: [], confidence: 'High' } });
    renderInApp(
      <FieldActionsContext value={actions()}>
        <FieldList nodes={nodes} filtered={null} />
      </FieldActionsContext>,
    );
    const note = screen.getByRole<HTMLInputElement>('textbox', { name: 'Note' });
    // As Enter on the value's row opens it (use-field-focus.ts): focus() with no pointer.
    note.focus();
    expect([note.selectionStart, note.selectionEnd]).toEqual([0, 'ACME Ltd'.length]);
    note.blur();
    await user.pointer({ keys: '[MouseLeft]', target: note, offset: 2 });
    expect(note.selectionStart).toBe(note.selectionEnd);
  });

  it('shows the filtered values as one work list', () => {
    const nodes = buildReviewTree(fields);
    renderInApp(
      <FieldActionsContext value={actions()}>
        <FieldList nodes={nodes} filtered={[]} />
      </FieldActionsContext>,
    );
    expect(screen.getByText(/No value needs review/)).toBeInTheDocument();
  });

  it('nests tables in objects and objects in table cells (deep_nested_fields.json)', () => {
    const nodes = buildReviewTree(extractionFixture('deep_nested_fields.json').inference.result.fields);
    renderInApp(
      <FieldActionsContext value={actions()}>
        <FieldList nodes={nodes} filtered={null} />
      </FieldActionsContext>,
    );
    const inner = screen.getByRole('table', { name: 'Sub object list' });
    expect(
      valueOf('field_object.sub_object_list[1].sub_object_list_sub_list_object_subobject_2', inner),
    ).toHaveValue('value_5');
    // The items do not share their sub-fields: a missing one says so rather than offering an editor.
    expect(within(inner).getAllByText('not returned')).toHaveLength(3);
    const deep = screen.getByRole('table', { name: 'Sub object object sub object list' });
    expect(
      valueOf(
        'field_object.sub_object_object.sub_object_object_sub_object_list[0].sub_object_object_sub_object_list_object.sub_object_object_sub_object_list_object_subobject_1',
        deep,
      ),
    ).toHaveValue('value_10');
    // An object is a section under its title, its path on hover.
    const section = screen.getByTitle('field_object.sub_object_object.sub_object_object_sub_object_object');
    expect(section).toHaveAccessibleName(/Sub object object sub object object/i);
    expect(section).toHaveAttribute('aria-expanded', 'true');
  });
});
