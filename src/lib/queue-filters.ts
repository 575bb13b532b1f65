/**
 * The queue's filters live in the URL's query string, so a link or a reload shows the same view. The
 * URL holds what the operator chose (`operator=me`, dates as the date inputs give them); the API query
 * is derived from it at the last moment (`toQueueQuery`), when who "me" is and the local midnight are
 * known.
 *
 * The review of a document taken from the queue keeps them in its own URL (`/review/{id}?state=…`):
 * "Confirm and next", Reject and Postpone take the next document of the same filters, and Release or
 * "Back to the queue" come back to the same view (issue 21). Shared by the queue and the review, so it
 * lives here, not in either feature.
 */
import { useCallback, useMemo } from 'react';
import { useLocation, useSearch } from 'wouter';
import {
  DocumentState,
  QueueSort,
  type QueueFilterQuery,
  type QueueQuery,
} from '@extraction-review/contract/review/schemas';

export interface QueueFilters {
  state?: DocumentState | undefined;
  /** v2: the model id; v1: `account/name/vN`. */
  model?: string | undefined;
  /** `me`, or an operator id. */
  operator?: string | undefined;
  /** Received on or after this local day (`YYYY-MM-DD`, as a date input gives it). */
  from?: string | undefined;
  /** Received on or before this local day (`YYYY-MM-DD`). */
  to?: string | undefined;
  /** Searched in file names and aliases. */
  q?: string | undefined;
  /** The list's order (`name`, `-received`…); not a filter: kept by the URL, left by "Clear the filters". */
  sort?: QueueSort | undefined;
  /** The document's total amount at least / at most this (a plain number, as typed: `10000`). */
  minAmount?: string | undefined;
  maxAmount?: string | undefined;
  /** Whose assignment: `me`, `anyone`, `nobody`, or an operator id (the API reads `me` itself). */
  assigned?: string | undefined;
}

export const ME = 'me';
/** The "Assigned" filter's values beside an operator's id. */
export const ASSIGNED_TO_ANYONE = 'anyone';
export const ASSIGNED_TO_NOBODY = 'nobody';

/** Every filter unset: pass to the setter to show the whole queue (in the order chosen). */
export const NO_FILTERS: { [K in Exclude<keyof QueueFilters, 'sort'>]-?: undefined } = {
  state: undefined,
  model: undefined,
  operator: undefined,
  from: undefined,
  to: undefined,
  q: undefined,
  minAmount: undefined,
  maxAmount: undefined,
  assigned: undefined,
};
export const PAGE_SIZE = 50;

const FILTER_KEYS = [
  'state',
  'model',
  'operator',
  'from',
  'to',
  'q',
  'minAmount',
  'maxAmount',
  'assigned',
] as const;
const KEYS = [...FILTER_KEYS, 'sort'] as const;

/** A calendar day as `YYYY-MM-DD`, checked to exist (no 30 February). */
function parseDay(value: string | null): string | undefined {
  const match = value?.match(/^(\d{4})-(\d{2})-(\d{2})$/);
  if (!match || value == null) return undefined;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(y, m - 1, d);
  return date.getFullYear() === y && date.getMonth() === m - 1 && date.getDate() === d ? value : undefined;
}

const text = (value: string | null): string | undefined =>
  value == null || value === '' ? undefined : value;

const asNumber = (amount: string | undefined) => (amount === undefined ? undefined : Number(amount));

/** An amount as the API takes it (`10000`, `-5.5`); anything else is dropped. */
export function parseAmount(value: string | null | undefined): string | undefined {
  const trimmed = value?.trim().replace(/,/g, '');
  return trimmed && /^-?\d{1,15}(\.\d{1,6})?$/.test(trimmed) ? trimmed : undefined;
}

/** Reads the filters from a query string (`?state=to_review&q=acme`); anything unknown or invalid is dropped. */
export function parseQueueFilters(search: string): QueueFilters {
  const params = new URLSearchParams(search);
  const state = DocumentState.safeParse(params.get('state'));
  const sort = QueueSort.safeParse(params.get('sort'));
  const filters: QueueFilters = {
    state: state.success ? state.data : undefined,
    model: text(params.get('model')),
    operator: text(params.get('operator')),
    from: parseDay(params.get('from')),
    to: parseDay(params.get('to')),
    q: text(params.get('q')),
    sort: sort.success ? sort.data : undefined,
    minAmount: parseAmount(params.get('minAmount')),
    maxAmount: parseAmount(params.get('maxAmount')),
    assigned: text(params.get('assigned')),
  };
  return withoutEmpty(filters);
}

/** The query string of these filters, without the `?`; empty ones are left out, the order is fixed. */
export function serialiseQueueFilters(filters: QueueFilters): string {
  const params = new URLSearchParams();
  for (const key of KEYS) {
    const value = filters[key];
    if (value !== undefined && value !== '') params.set(key, value);
  }
  return params.toString();
}

function withoutEmpty(filters: QueueFilters): QueueFilters {
  const out: QueueFilters = {};
  for (const key of KEYS) {
    const value = filters[key];
    if (value !== undefined && value !== '') Object.assign(out, { [key]: value });
  }
  return out;
}

export function hasFilters(filters: QueueFilters): boolean {
  return FILTER_KEYS.some((key) => filters[key] !== undefined && filters[key] !== '');
}

/** The ISO time of a local day's midnight, `days` later. */
function localMidnight(day: string, days = 0): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y ?? 0, (m ?? 1) - 1, (d ?? 1) + days).toISOString();
}

/**
 * The API query for a page of these filters. `me` becomes the signed-in operator's id; the `to` day is
 * included whole (the API's `to` is exclusive: the next local midnight).
 */
export function toQueueQuery(
  filters: QueueFilters,
  { me, cursor }: { me?: string | undefined; cursor?: string | undefined } = {},
): Partial<QueueQuery> {
  const operator = filters.operator === ME ? me : filters.operator;
  const query: Partial<QueueQuery> = {
    state: filters.state,
    model: filters.model?.trim() || undefined,
    operator,
    from: filters.from === undefined ? undefined : localMidnight(filters.from),
    to: filters.to === undefined ? undefined : localMidnight(filters.to, 1),
    q: filters.q?.trim() || undefined,
    sort: filters.sort,
    minAmount: asNumber(parseAmount(filters.minAmount)),
    maxAmount: asNumber(parseAmount(filters.maxAmount)),
    // Sent as it is: the server reads `me` as the caller (the same whoever's saved queue it comes from).
    assigned: filters.assigned,
    cursor,
    limit: PAGE_SIZE,
  };
  // No `undefined` members: the query key stays the same object shape for the same view.
  return Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined));
}

/** The API query of the next document of these filters ("Start reviewing", "Confirm and next"). */
export function toNextQuery(filters: QueueFilters, me: string | undefined): Partial<QueueFilterQuery> {
  const { cursor: _cursor, limit: _limit, sort: _sort, ...filterQuery } = toQueueQuery(filters, { me });
  return filterQuery;
}

/** `?state=to_review&…`, or nothing without filters: what a link appends to keep them. */
export function filtersSearch(filters: QueueFilters): string {
  const search = serialiseQueueFilters(filters);
  return search === '' ? '' : `?${search}`;
}

/** The queue showing these filters. */
export const queueHref = (filters: QueueFilters): string => `/queue${filtersSearch(filters)}`;

/** A document's review, which keeps these filters for the next document and the way back. */
export const reviewHref = (documentId: string, filters: QueueFilters): string =>
  `/review/${encodeURIComponent(documentId)}${filtersSearch(filters)}`;

export type SetQueueFilters = (patch: Partial<QueueFilters>, options?: { replace?: boolean }) => void;

/** The filters of the current URL, and a setter that writes a change back into it. */
export function useQueueFilters(): [QueueFilters, SetQueueFilters] {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const filters = useMemo(() => parseQueueFilters(search), [search]);
  const setFilters = useCallback<SetQueueFilters>(
    (patch, options) => {
      const next = serialiseQueueFilters({ ...parseQueueFilters(search), ...patch });
      if (next === search.replace(/^\?/, '')) return;
      navigate(next === '' ? location : `${location}?${next}`, { replace: options?.replace ?? false });
    },
    [search, location, navigate],
  );
  return [filters, setFilters];
}
