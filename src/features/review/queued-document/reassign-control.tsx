/**
 * For admins: hand a waiting, held or postponed document to an operator. It is assigned to them (it
 * stays theirs until decided, whatever the lease) and they hold it under a fresh lease (its former
 * holder's later writes are refused). Recorded in the timeline. A deactivated operator is not offered.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { reviewKeys } from '../../../api/keys';
import { reassignDocument } from '../../../api/review/endpoints';
import { operatorsQueryOptions } from '../../../api/review/queries';
import type { ReviewDocument } from '@extraction-review/contract/review/schemas';
import { ProblemAlert } from '../../../components/problem-alert';
import { Button } from '../../../components/ui/button';

export function ReassignControl({ document }: { document: ReviewDocument }) {
  const queryClient = useQueryClient();
  const operators = useQuery(operatorsQueryOptions());
  const id = useId();
  const [chosen, setChosen] = useState('');
  const reassign = useMutation({
    mutationFn: (operatorId: string) => reassignDocument(document.id, operatorId),
    onSuccess: (answer) => {
      queryClient.setQueryData(reviewKeys.document(document.id), answer);
      void queryClient.invalidateQueries({ queryKey: reviewKeys.queues() });
      void queryClient.invalidateQueries({ queryKey: reviewKeys.timeline(document.id) });
    },
  });
  const others = (operators.data?.operators ?? []).filter(
    (o) => o.id !== document.holder?.id && o.deactivatedAt == null,
  );
  return (
    <form
      className="flex flex-wrap items-end gap-2 text-sm"
      onSubmit={(event) => {
        event.preventDefault();
        if (chosen !== '') reassign.mutate(chosen);
      }}
    >
      <div className="flex flex-col gap-1">
        <label htmlFor={id} className="font-medium">
          Hand to
        </label>
        <select
          id={id}
          value={chosen}
          onChange={(event) => setChosen(event.target.value)}
          className="rounded-md border border-slate-300 bg-white px-2 py-1"
        >
          <option value="">Choose an operator…</option>
          {others.map((operator) => (
            <option key={operator.id} value={operator.id}>
              {operator.name} ({operator.role})
            </option>
          ))}
        </select>
      </div>
      <Button type="submit" variant="secondary" disabled={chosen === '' || reassign.isPending}>
        {reassign.isPending ? 'Handing over…' : 'Reassign'}
      </Button>
      {reassign.isSuccess && (
        <p role="status" className="basis-full text-xs text-slate-700">
          Now assigned to and held by {reassign.data.document.holder?.name ?? 'them'}.
        </p>
      )}
      {operators.error != null && (
        <ProblemAlert error={operators.error} action="The operators could not be listed." />
      )}
      {reassign.error != null && (
        <ProblemAlert error={reassign.error} action="The document was not reassigned." />
      )}
    </form>
  );
}
