import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
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

const orUndefined = (value: string): string | undefined => (value === '' ? undefined : value);

/** The queue's filters; each change goes to the URL (typed text once typing pauses). */
export function QueueFiltersForm({ filters, onChange, operator }: Props) {
  const fromId = useId();
  const toId = useId();
  const modelId = useId();
  // The models the review store has documents of, named (not their ids: issue 21).
  const models = useQuery(modelsQueryOptions());
  return (
    <div
      role="search"
      aria-label="Filter the queue"
      className="grid gap-4 rounded-md border border-slate-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-3"
    >
      <DebouncedTextInput
        type="search"
        label="Search"
        hint="In file names and aliases."
        value={filters.q ?? ''}
        onCommit={(q) => onChange({ q: orUndefined(q) }, { replace: true })}
      />
      <div className="flex flex-col gap-1">
        <label htmlFor={modelId} className="text-sm font-medium">
          Model
        </label>
        <ModelSelect
          id={modelId}
          value={filters.model ?? ''}
          onChange={(model) => onChange({ model: orUndefined(model) })}
          models={models.data?.models ?? []}
          anyLabel={models.isPending ? 'Loading models…' : 'All models'}
          className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm"
        />
      </div>
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
          className="rounded-md border border-slate-300 px-3 py-1.5 text-sm"
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
          className="rounded-md border border-slate-300 px-3 py-1.5 text-sm"
        />
      </div>
      <AmountInputs filters={filters} onChange={onChange} />
      <div className="flex items-end">
        <Button variant="secondary" disabled={!hasFilters(filters)} onClick={() => onChange(NO_FILTERS)}>
          Clear the filters
        </Button>
      </div>
    </div>
  );
}
