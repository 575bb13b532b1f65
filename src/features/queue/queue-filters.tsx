import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { modelsQueryOptions } from '../../api/review/model-settings-endpoints';
import { ModelSelect } from '../../components/model-select';
import type { OperatorView } from '@extraction-review/contract/review/schemas';
import { Button } from '../../components/ui/button';
import { DebouncedTextInput } from './debounced-text-input';
import { OperatorSelect } from './operator-select';
import { AssignedSelect } from './assigned-select';
import { AmountInputs } from './amount-inputs';
import { hasFilters, NO_FILTERS, type QueueFilters, type SetQueueFilters } from '../../lib/queue-filters';

interface Props {
  filters: QueueFilters;
  onChange: SetQueueFilters;
  operator: Pick<OperatorView, 'id' | 'role'> | undefined;
}

/** The filters behind "More filters": each one set counts on its button, and opens it by itself. */
export const MORE_FILTERS = [
  'operator',
  'assigned',
  'from',
  'to',
  'minAmount',
  'maxAmount',
] as const satisfies readonly (keyof QueueFilters)[];

/** How many of the filters behind "More filters" are set. */
export function moreFiltersSet(filters: QueueFilters): number {
  return MORE_FILTERS.filter((key) => filters[key] !== undefined && filters[key] !== '').length;
}

const orUndefined = (value: string): string | undefined => (value === '' ? undefined : value);

const field = 'rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm';

/**
 * The queue's filters; each change goes to the URL (typed text once typing pauses). Compact, so the
 * table starts high: the common ones (search, model; the states are the counts above) in one row,
 * the rest behind "More filters", which says how many of them are set and opens by itself when one
 * is (a link, a saved queue, the back button).
 */
export function QueueFiltersForm({ filters, onChange, operator }: Props) {
  const modelId = useId();
  const moreId = useId();
  // The models the review store has documents of, named (not their ids: issue 21).
  const models = useQuery(modelsQueryOptions());
  const setMore = moreFiltersSet(filters);
  const [open, setOpen] = useState(setMore > 0);
  const [seenSet, setSeenSet] = useState(setMore);
  // Adjusting state to a new prop during render (react.dev, "You might not need an effect"): a
  // hidden filter set from outside shows itself; closing it by hand stays closed.
  if (setMore !== seenSet) {
    setSeenSet(setMore);
    if (setMore > seenSet) setOpen(true);
  }

  return (
    <div
      role="search"
      aria-label="Filter the queue"
      className="flex flex-col gap-3 rounded-md border border-slate-200 bg-white px-3 py-2"
    >
      <div className="flex flex-wrap items-end gap-3">
        <DebouncedTextInput
          type="search"
          label="Search"
          placeholder="File names and aliases"
          value={filters.q ?? ''}
          onCommit={(q) => onChange({ q: orUndefined(q) }, { replace: true })}
          className="min-w-48 flex-1 basis-56"
        />
        <div className="flex min-w-48 flex-1 basis-56 flex-col gap-1">
          <label htmlFor={modelId} className="text-sm font-medium">
            Model
          </label>
          <ModelSelect
            id={modelId}
            value={filters.model ?? ''}
            onChange={(model) => onChange({ model: orUndefined(model) })}
            models={models.data?.models ?? []}
            anyLabel={models.isPending ? 'Loading models…' : 'All models'}
            className={field}
          />
        </div>
        <Button
          variant="secondary"
          aria-expanded={open}
          aria-controls={moreId}
          onClick={() => setOpen((o) => !o)}
          className="px-3 py-1.5"
        >
          <span aria-hidden="true">{open ? '▾' : '▸'}</span>
          More filters
          {setMore > 0 && (
            <>
              {' '}
              <span
                aria-hidden="true"
                className="rounded-full bg-blue-800 px-1.5 text-xs text-white tabular-nums"
              >
                {setMore}
              </span>
              <span className="sr-only">{`${String(setMore)} set`}</span>
            </>
          )}
        </Button>
        <Button
          variant="secondary"
          disabled={!hasFilters(filters)}
          onClick={() => onChange(NO_FILTERS)}
          className="px-3 py-1.5"
        >
          Clear the filters
        </Button>
      </div>
      {open && (
        <div
          id={moreId}
          role="group"
          aria-label="More filters"
          // Room for one more select (another filter) beside these at 1280 px and up.
          className="grid grid-cols-[repeat(auto-fill,minmax(11rem,1fr))] items-end gap-3 border-t border-slate-100 pt-2"
        >
          <OperatorSelect
            value={filters.operator}
            onChange={(value) => onChange({ operator: value })}
            operator={operator}
          />
          <AssignedSelect
            value={filters.assigned}
            onChange={(value) => onChange({ assigned: value })}
            operator={operator}
          />
          <ReceivedDates filters={filters} onChange={onChange} />
          <div className="col-span-2">
            <AmountInputs filters={filters} onChange={onChange} />
          </div>
        </div>
      )}
    </div>
  );
}

/** Received between two local days (the second included), side by side. */
function ReceivedDates({ filters, onChange }: Pick<Props, 'filters' | 'onChange'>) {
  const fromId = useId();
  const toId = useId();
  return (
    <div className="col-span-2 grid grid-cols-2 gap-2">
      <div className="flex flex-col gap-1">
        <label htmlFor={fromId} className="text-sm font-medium">
          Received from
        </label>
        <input
          id={fromId}
          type="date"
          value={filters.from ?? ''}
          max={filters.to}
          onChange={(e) => onChange({ from: orUndefined(e.target.value) }, { replace: true })}
          className={field}
        />
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={toId} className="text-sm font-medium">
          Received to (included)
        </label>
        <input
          id={toId}
          type="date"
          value={filters.to ?? ''}
          min={filters.from}
          onChange={(e) => onChange({ to: orUndefined(e.target.value) }, { replace: true })}
          className={field}
        />
      </div>
    </div>
  );
}
