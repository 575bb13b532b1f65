import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { putUncheckedGate, uncheckedGateQueryOptions } from '../../api/review/unchecked-gate-endpoints';
import type { ApiVersion } from '@extraction-review/contract/review/schemas';
import { ProblemAlert } from '../../components/problem-alert';

interface Props {
  apiVersion: ApiVersion;
  model: string;
  isAdmin: boolean;
}

/**
 * The model's unchecked-values gate (packages/contract/src/review/unchecked-gate.ts), one switch: by
 * default a confirmation with values at Medium, Low or no confidence nobody checked asks the operator;
 * strict, it is refused until they are checked. Admins change it (saved at once, on its own: the rules'
 * form and version are not touched); operators see which it is.
 */
export function UncheckedGateControl({ apiVersion, model, isAdmin }: Props) {
  const id = useId();
  const queryClient = useQueryClient();
  const options = uncheckedGateQueryOptions(apiVersion, model);
  const gate = useQuery(options);
  const save = useMutation({
    mutationFn: (strict: boolean) => putUncheckedGate(apiVersion, model, strict),
    onSuccess: (saved) => queryClient.setQueryData(options.queryKey, saved),
  });
  const strict = save.isPending ? save.variables : (gate.data?.strict ?? false);

  return (
    <section
      aria-labelledby={`${id}-title`}
      className="flex flex-col gap-2 rounded-md border border-slate-300 bg-white p-4"
    >
      <h2 id={`${id}-title`} className="text-lg font-semibold">
        Values not checked
      </h2>
      {gate.isError ? (
        <ProblemAlert error={gate.error} onRetry={() => void gate.refetch()} />
      ) : isAdmin ? (
        <label className="flex items-start gap-2 text-sm">
          <input
            type="checkbox"
            className="mt-0.5 size-4"
            checked={strict}
            disabled={gate.isPending || save.isPending}
            onChange={(e) => save.mutate(e.target.checked)}
            aria-describedby={`${id}-help`}
          />
          <span>Strict: refuse to confirm a document while such values are unchecked</span>
        </label>
      ) : (
        <p className="text-sm">{strict ? 'Strict: ' : 'Asked: '}set by an admin.</p>
      )}
      <p id={`${id}-help`} className="text-sm text-slate-700">
        Values extracted at Medium, Low or no confidence that nobody confirmed or corrected.{' '}
        {strict
          ? 'Operators must check each before confirming.'
          : 'Operators are asked before confirming ("Review them / Confirm anyway"), and the answer is kept in the history.'}
      </p>
      {save.isError && <ProblemAlert error={save.error} action="The gate is as it was." />}
    </section>
  );
}
