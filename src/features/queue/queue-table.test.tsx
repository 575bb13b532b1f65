import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { QueueTable } from './queue-table';
import { ALICE, BOB, queueDocument, renderQueue } from './testing/fixtures';

const now = Date.parse('2026-01-05T08:03:05.000Z');

function rowOf(fileName: string) {
  return screen.getByRole('rowheader', { name: fileName }).closest('tr') as HTMLElement;
}

describe('QueueTable', () => {
  it('is a table with a caption and column headers', () => {
    renderQueue(<QueueTable documents={[queueDocument()]} page={2} me={undefined} now={now} />);
    const table = screen.getByRole('table', { name: 'Documents, newest first: page 2' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual([
      'File',
      'Alias',
      'Model',
      'State',
      'Priority',
      'Held or decided by',
      'Fields to review',
      'Age',
      'Reason',
    ]);
  });

  it('shows who holds a document and until when, its state in words, its share and age', () => {
    const document = queueDocument({
      id: 'D 7',
      fileName: 'held.pdf',
      alias: 'order 7',
      state: 'in_review',
      holder: BOB,
      leaseExpiresAt: new Date(2026, 0, 5, 10, 42).toISOString(),
    });
    renderQueue(<QueueTable documents={[document]} page={1} me={ALICE.id} now={now} />);
    const row = rowOf('held.pdf');
    expect(within(row).getByRole('link', { name: 'held.pdf' })).toHaveAttribute('href', '/review/D%207');
    const cells = within(row)
      .getAllByRole('cell')
      .map((td) => td.textContent);
    expect(cells).toEqual([
      'order 7',
      'b4e6af9b-dfe5-44c8-9ae8-22225d8d2d5a',
      '◐In review',
      '0',
      'Bob, until 10:42',
      '2 of 10 (20%)',
      '3 min',
      '',
    ]);
  });

  it('says "You" for the signed-in operator’s own hold', () => {
    const document = queueDocument({
      state: 'in_review',
      holder: ALICE,
      leaseExpiresAt: new Date(2026, 0, 5, 9, 5).toISOString(),
    });
    renderQueue(<QueueTable documents={[document]} page={1} me={ALICE.id} now={now} />);
    expect(within(rowOf('invoice-1.pdf')).getByText('You, until 09:05')).toBeInTheDocument();
  });

  it('says "you" inside a sentence: a document the signed-in operator decided', () => {
    const confirmed = queueDocument({
      state: 'confirmed',
      decidedBy: ALICE,
      decidedAt: '2026-01-05T08:02:00.000Z',
    });
    renderQueue(<QueueTable documents={[confirmed]} page={1} me={ALICE.id} now={now} />);
    expect(within(rowOf('invoice-1.pdf')).getByText('Decided by you')).toBeInTheDocument();
  });

  it('shows who decided a rejected or postponed document and why; a dash when no field was read', () => {
    const rejected = queueDocument({
      id: 'D2',
      fileName: 'rejected.pdf',
      state: 'rejected',
      decidedBy: BOB,
      decidedAt: '2026-01-05T08:02:00.000Z',
      reason: 'Not an invoice',
      fieldsTotal: 0,
      fieldsToReview: 0,
    });
    const postponed = queueDocument({
      id: 'D3',
      fileName: 'later.pdf',
      state: 'postponed',
      apiVersion: 'v1',
      model: 'mindee/invoices/v4',
      decidedBy: { id: 'gone', name: null },
      reason: 'Waiting for the supplier',
      readyAt: null,
      createdAt: '2025-12-30T08:00:00.000Z',
    });
    renderQueue(<QueueTable documents={[rejected, postponed]} page={1} me={ALICE.id} now={now} />);
    const first = within(rowOf('rejected.pdf'));
    expect(first.getByText('Rejected')).toBeInTheDocument();
    expect(first.getByText('Decided by Bob')).toBeInTheDocument();
    expect(first.getByText('Not an invoice')).toBeInTheDocument();
    // No field read: no share to give.
    expect(first.getAllByRole('cell')[5]).toHaveTextContent(/^—$/);
    const second = within(rowOf('later.pdf'));
    expect(second.getByText('Postponed')).toBeInTheDocument();
    expect(second.getByText('Decided by a removed operator')).toBeInTheDocument();
    expect(second.getByText('Waiting for the supplier')).toBeInTheDocument();
    expect(second.getByText('6 d')).toBeInTheDocument();
    // The model by its name, its key on hover.
    expect(second.getByTitle('mindee/invoices/v4')).toHaveTextContent('Invoices v4');
    expect(second.getAllByRole('cell')[1]).toHaveTextContent(/^Invoices v4\s?\(v1\)$/);
  });

  it('marks a document whose file came before as a duplicate, with a link to the first', () => {
    const duplicate = queueDocument({
      id: 'D9',
      fileName: 'again.pdf',
      duplicateOf: { id: 'D1', fileName: 'first.pdf' },
    });
    renderQueue(<QueueTable documents={[duplicate]} page={1} me={ALICE.id} now={now} />);
    const row = within(rowOf('again.pdf'));
    expect(row.getAllByRole('cell')[0]).toHaveTextContent(/^=\s?Duplicate of\s?first\.pdf$/);
    expect(row.getByRole('link', { name: 'first.pdf' })).toHaveAttribute('href', '/review/D1');
  });
});
