import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { operatorsQueryOptions } from '../../api/review/queries';
import type { OperatorView } from '@extraction-review/contract/review/schemas';
import { ASSIGNED_TO_ANYONE, ASSIGNED_TO_NOBODY, ME } from '../../lib/queue-filters';

interface Props {
  /** `me`, `anyone`, `nobody`, an operator id, or undefined for every document. */
  value: string | undefined;
  onChange: (value: string | undefined) => void;
  /** The signed-in operator. */
  operator: Pick<OperatorView, 'id' | 'role'> | undefined;
}

/**
 * Whose assignment: to me, to anyone, to nobody (the team's), or (admins) to one operator. Operators
 * see their own assigned documents first anyway ("next" gives them first); this finds them.
 */
export function AssignedSelect({ value, onChange, operator }: Props) {
  const id = useId();
  const isAdmin = operator?.role === 'admin';
  // Only admins may list the operators (GET /api/operators); the query is shared with the other selects.
  const operators = useQuery({ ...operatorsQueryOptions(), enabled: isAdmin });
  const others = (operators.data?.operators ?? []).filter((o) => o.id !== operator?.id);
  const named = [ME, ASSIGNED_TO_ANYONE, ASSIGNED_TO_NOBODY];
  // A link may name an operator this list does not hold (not an admin, or the list still loading).
  const unknown = value !== undefined && !named.includes(value) && !others.some((o) => o.id === value);

  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        Assigned
      </label>
      <select
        id={id}
        value={value ?? ''}
        onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
        className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm"
      >
        <option value="">Any document</option>
        <option value={ME}>To me</option>
        <option value={ASSIGNED_TO_ANYONE}>To anyone</option>
        <option value={ASSIGNED_TO_NOBODY}>To nobody (the team’s)</option>
        {others.map((o) => (
          <option key={o.id} value={o.id}>
            To {o.name}
          </option>
        ))}
        {unknown && <option value={value}>To another operator ({value})</option>}
      </select>
    </div>
  );
}
