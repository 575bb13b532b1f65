import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { reviewKeys } from '../../api/keys';
import { parseQueueFilters, serialiseQueueFilters, toNextQuery, toQueueQuery } from '../../lib/queue-filters';
import { AssignedSelect } from './assigned-select';
import { assignedText } from './queue-row';
import { savedToUrl, urlToSaved } from './saved-queues';
import { ALICE, BOB, queueDocument } from './testing/fixtures';

const operator = (o: { id: string; name: string }) => ({
  ...o,
  role: 'operator' as const,
  hasPassword: true,
  createdAt: '2026-12-01T09:00:00.000Z',
  deactivatedAt: null,
});

describe('the queue’s "Assigned" filter', () => {
  it('offers me, anyone, nobody and (admins) each other operator, and sets the URL’s filter', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
    client.setQueryData(reviewKeys.operators(), { operators: [operator(ALICE), operator(BOB)] });
    const onChange = vi.fn();
    render(
      <QueryClientProvider client={client}>
        <AssignedSelect value={undefined} onChange={onChange} operator={{ id: ALICE.id, role: 'admin' }} />
      </QueryClientProvider>,
    );
    const select = screen.getByLabelText('Assigned');
    expect([...select.querySelectorAll('option')].map((o) => o.textContent)).toEqual([
      'Any document',
      'To me',
      'To anyone',
      'To nobody (the team’s)',
      'To Bob',
    ]);
    await userEvent.selectOptions(select, 'To Bob');
    expect(onChange).toHaveBeenLastCalledWith(BOB.id);
    await userEvent.selectOptions(select, 'To me');
    expect(onChange).toHaveBeenLastCalledWith('me');
  });

  it('travels in the URL, the API query (with `me` for the server to read) and a saved queue', () => {
    const filters = parseQueueFilters('?assigned=me&state=to_review');
    expect(filters).toEqual({ assigned: 'me', state: 'to_review' });
    expect(serialiseQueueFilters(filters)).toBe('state=to_review&assigned=me');
    expect(toQueueQuery(filters, { me: ALICE.id })).toMatchObject({ assigned: 'me' });
    expect(toNextQuery({ assigned: 'nobody' }, ALICE.id)).toEqual({ assigned: 'nobody' });
    expect(urlToSaved({ assigned: 'anyone' })).toEqual({ assigned: 'anyone' });
    expect(savedToUrl({ assigned: BOB.id })).toMatchObject({ assigned: BOB.id });
  });
});

describe('an assigned row', () => {
  it('says whose it is: you, or the operator by name', () => {
    expect(assignedText(queueDocument({ assignedTo: { id: ALICE.id, name: 'Alice' } }), BOB.id)).toBe(
      'Assigned to Alice',
    );
    expect(assignedText(queueDocument({ assignedTo: { id: ALICE.id, name: 'Alice' } }), ALICE.id)).toBe(
      'Assigned to you',
    );
    expect(assignedText(queueDocument({ assignedTo: { id: 'gone', name: null } }), ALICE.id)).toBe(
      'Assigned to a removed operator',
    );
    expect(assignedText(queueDocument({ assignedTo: null }), ALICE.id)).toBeNull();
    expect(assignedText(queueDocument(), ALICE.id)).toBeNull();
  });
});
