import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { operatorsQueryOptions } from '../../api/review/queries';
import type { OperatorView } from '@extraction-review/contract/review/schemas';
import { ME } from '../../lib/queue-filters';

interface Props {
  /** `me`, an operator id, or undefined for anyone. */
  value: string | undefined;
  onChange: (value: string | undefined) => void;
  /** The signed-in operator. */
  operator: Pick<OperatorView, 'id' | 'role'> | undefined;
}

/** Whose documents: anyone's, mine, or (admins) another operator's, as holder or decider. */
export function OperatorSelect({ value, onChange, operator }: Props) {
  const id = useId();
  const isAdmin = operator?.role === 'admin';
  // Only admins may list the operators (GET /api/operators).
  const operators = useQuery({ ...operatorsQueryOptions(), enabled: isAdmin });
  const others = (operators.data?.operators ?? []).filter((o) => o.id !== operator?.id);
  // A link may name an operator this list does not hold (not an admin, or the list still loading).
  const unknown = value !== undefined && value !== ME && !others.some((o) => o.id === value);

  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        Held or decided by
      </label>
      <select
        id={id}
        value={value ?? ''}
        onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
        aria-describedby={operators.isError ? `${id}-error` : undefined}
        className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm"
      >
        <option value="">Anyone</option>
        <option value={ME}>Me</option>
        {others.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
        {unknown && <option value={value}>Another operator ({value})</option>}
      </select>
      {operators.isError && (
        <p id={`${id}-error`} className="text-xs text-red-800">
          The list of operators could not be loaded: only “Anyone” and “Me” are offered.
        </p>
      )}
    </div>
  );
}
