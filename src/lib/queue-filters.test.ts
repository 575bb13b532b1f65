import { describe, expect, it } from 'vitest';
import {
  hasFilters,
  parseQueueFilters,
  queueHref,
  reviewHref,
  serialiseQueueFilters,
  toNextQuery,
  toQueueQuery,
  type QueueFilters,
} from './queue-filters';

describe('the queue filters in the URL', () => {
  it('survive a round trip through the query string', () => {
    const filters: QueueFilters = {
      state: 'rejected',
      model: 'mindee/invoices/v4',
      operator: 'me',
      from: '2026-01-01',
      to: '2026-01-31',
      q: 'acme & co #3',
    };
    const search = serialiseQueueFilters(filters);
    expect(search).toBe(
      'state=rejected&model=mindee%2Finvoices%2Fv4&operator=me&from=2026-01-01&to=2026-01-31&q=acme+%26+co+%233',
    );
    expect(parseQueueFilters(search)).toEqual(filters);
    expect(parseQueueFilters(`?${search}`)).toEqual(filters);
    expect(serialiseQueueFilters(parseQueueFilters(search))).toBe(search);
  });

  it('leave out empty filters, so no filter is an empty query string', () => {
    expect(serialiseQueueFilters({})).toBe('');
    expect(serialiseQueueFilters({ q: '', model: undefined, state: 'to_review' })).toBe('state=to_review');
    expect(parseQueueFilters('')).toEqual({});
    expect(hasFilters({})).toBe(false);
    expect(hasFilters({ q: 'x' })).toBe(true);
  });

  it('drop what is unknown or invalid: a state that does not exist, a day that does not exist', () => {
    expect(
      parseQueueFilters('state=done&from=2026-02-30&to=31/01/2026&q=&model=m&page=3&operator=op-bob'),
    ).toEqual({ model: 'm', operator: 'op-bob' });
    expect(parseQueueFilters('from=2024-02-29')).toEqual({ from: '2024-02-29' });
  });
});

describe('toQueueQuery', () => {
  it('names the signed-in operator for "me", and asks for pages of 50 from a cursor', () => {
    expect(toQueueQuery({ operator: 'me', state: 'in_review' }, { me: 'op-alice', cursor: 'c2' })).toEqual({
      state: 'in_review',
      operator: 'op-alice',
      cursor: 'c2',
      limit: 50,
    });
    expect(toQueueQuery({ operator: 'op-bob' }, { me: 'op-alice' })).toEqual({
      operator: 'op-bob',
      limit: 50,
    });
  });

  it('turns the received days into local midnights, the "to" day included whole', () => {
    const query = toQueueQuery({ from: '2026-03-28', to: '2026-03-29' });
    expect(query.from).toBe(new Date(2026, 2, 28).toISOString());
    expect(query.to).toBe(new Date(2026, 2, 30).toISOString());
  });

  it('trims the typed text and sends nothing for blank text', () => {
    expect(toQueueQuery({ q: '  acme ', model: '   ' })).toEqual({ q: 'acme', limit: 50 });
  });
});

describe('the filters on the way to a review and back (issue 21)', () => {
  it('ask the next document with the list’s filters, without its paging', () => {
    expect(toNextQuery({ state: 'to_review', operator: 'me', q: ' acme ' }, 'op-alice')).toEqual({
      state: 'to_review',
      operator: 'op-alice',
      q: 'acme',
    });
    expect(toNextQuery({}, undefined)).toEqual({});
  });

  it('travel in the review’s address and back to the queue’s', () => {
    const filters: QueueFilters = { state: 'to_review', model: 'receipts' };
    expect(reviewHref('D 1', filters)).toBe('/review/D%201?state=to_review&model=receipts');
    expect(queueHref(parseQueueFilters('?state=to_review&model=receipts'))).toBe(
      '/queue?state=to_review&model=receipts',
    );
    expect(queueHref({})).toBe('/queue');
  });
});

describe('the queue’s order in the URL (issue 21)', () => {
  it('keeps a known order, is no filter, and is left out of "next"', () => {
    expect(parseQueueFilters('?q=acme&sort=-priority')).toEqual({ q: 'acme', sort: '-priority' });
    expect(parseQueueFilters('?sort=colour')).toEqual({});
    expect(serialiseQueueFilters({ sort: 'name', state: 'to_review' })).toBe('state=to_review&sort=name');
    expect(hasFilters({ sort: 'name' })).toBe(false);
    expect(toQueueQuery({ sort: 'name' })).toMatchObject({ sort: 'name' });
    expect(toNextQuery({ sort: 'name', q: 'acme' }, undefined)).toEqual({ q: 'acme' });
  });
});
