import { parseAmount, type QueueFilters, type SetQueueFilters } from '../../lib/queue-filters';
import { DebouncedTextInput } from './debounced-text-input';

interface Props {
  filters: QueueFilters;
  onChange: SetQueueFilters;
}

/**
 * The queue's amount filter: the document's total amount (its `total_amount`, docs/review-store.md)
 * from and to, each committed to the URL once typing pauses; a value that is not a number is left out.
 */
export function AmountInputs({ filters, onChange }: Props) {
  return (
    <div className="grid grid-cols-2 gap-2">
      <DebouncedTextInput
        label="Amount from"
        placeholder="e.g. 10000"
        value={filters.minAmount ?? ''}
        onCommit={(value) => onChange({ minAmount: parseAmount(value) }, { replace: true })}
      />
      <DebouncedTextInput
        label="Amount to"
        value={filters.maxAmount ?? ''}
        onCommit={(value) => onChange({ maxAmount: parseAmount(value) }, { replace: true })}
      />
    </div>
  );
}
