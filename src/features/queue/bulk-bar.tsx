import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { BulkRequest, BulkResponse } from '@extraction-review/contract/review/bulk';
import type { QueueDocument } from '@extraction-review/contract/review/schemas';
import { bulkDocuments } from '../../api/review/bulk-endpoints';
import { operatorsQueryOptions } from '../../api/review/queries';
import { reviewKeys } from '../../api/keys';
import { ProblemAlert } from '../../components/problem-alert';
import { Button } from '../../components/ui/button';
import type { Selection } from './use-selection';

interface Props {
  /** The page shown: the file names of the documents an answer names. */
  documents: QueueDocument[];
  selection: Selection;
}

type Open = 'none' | 'reject' | 'delete';

const documentsWord = (n: number) => (n === 1 ? '1 document' : `${String(n)} documents`);

const DONE: Record<BulkResponse['action'], string> = {
  assign: 'Assigned',
  unassign: 'Unassigned',
  priority: 'Priority set on',
  reject: 'Rejected',
  delete: 'Deleted',
};

const field = 'rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm';

/**
 * Admins: what to do with the documents ticked on the page. Assign them to an operator (until they
 * are decided) or back to the team, set their
 * priority, reject them with a reason, or delete them (after a confirmation naming how many). The
 * server changes each on its own and leaves alone one another operator is reviewing: the answer is
 * shown, with each document left as it was and why.
 */
export function BulkBar({ documents, selection }: Props) {
  const queryClient = useQueryClient();
  const ids = [...selection.selected];
  const count = ids.length;
  const operators = useQuery(operatorsQueryOptions());
  const [assignee, setAssignee] = useState('');
  const [priority, setPriority] = useState('0');
  const [reason, setReason] = useState('');
  const [open, setOpen] = useState<Open>('none');
  const [answer, setAnswer] = useState<{ result: BulkResponse; names: Map<string, string> } | null>(null);
  const assignId = useId();
  const priorityId = useId();
  const reasonId = useId();

  const run = useMutation({
    mutationFn: (request: BulkRequest) => bulkDocuments(request),
    onSuccess: (result) => {
      setAnswer({ result, names: new Map(documents.map((d) => [d.id, d.fileName])) });
      setOpen('none');
      setReason('');
      selection.clear();
      void queryClient.invalidateQueries({ queryKey: reviewKeys.queues() });
    },
  });
  const send = (request: BulkRequest) => {
    setAnswer(null);
    run.mutate(request);
  };
  const priorityValue = Number(priority);
  const priorityValid =
    priority.trim() !== '' && Number.isInteger(priorityValue) && Math.abs(priorityValue) <= 1000;

  // Nothing selected, nothing to say: no box at all (an empty one added a gap above the table).
  if (count === 0 && run.error == null && answer === null) return null;
  return (
    <div className="flex flex-col gap-2">
      {count > 0 && (
        <section
          aria-label="Bulk actions"
          className="flex flex-wrap items-end gap-x-6 gap-y-3 rounded-md border border-blue-200 bg-blue-50 p-3"
        >
          <div className="flex items-center gap-2 self-center">
            <p className="text-sm font-semibold" aria-live="polite">
              {documentsWord(count)} selected
            </p>
            <Button variant="ghost" className="px-2 py-1" onClick={selection.clear}>
              Clear the selection
            </Button>
          </div>
          <div className="flex items-end gap-2">
            <div className="flex flex-col gap-1">
              <label htmlFor={assignId} className="text-xs font-medium">
                Assign to
              </label>
              <select
                id={assignId}
                value={assignee}
                onChange={(e) => setAssignee(e.target.value)}
                className={field}
              >
                <option value="">Choose an operator…</option>
                {(operators.data?.operators ?? [])
                  .filter((o) => o.deactivatedAt == null)
                  .map((o) => (
                    <option key={o.id} value={o.id}>
                      {o.name}
                    </option>
                  ))}
              </select>
            </div>
            <Button
              variant="secondary"
              disabled={assignee === '' || run.isPending}
              onClick={() => send({ action: 'assign', ids, operator: assignee })}
            >
              Assign
            </Button>
            <Button
              variant="ghost"
              disabled={run.isPending}
              onClick={() => send({ action: 'unassign', ids })}
            >
              Unassign
            </Button>
          </div>
          <div className="flex items-end gap-2">
            <div className="flex flex-col gap-1">
              <label htmlFor={priorityId} className="text-xs font-medium">
                Priority (higher first)
              </label>
              <input
                id={priorityId}
                type="number"
                min={-1000}
                max={1000}
                step={1}
                value={priority}
                onChange={(e) => setPriority(e.target.value)}
                className={`${field} w-24`}
              />
            </div>
            <Button
              variant="secondary"
              disabled={!priorityValid || run.isPending}
              onClick={() => send({ action: 'priority', ids, priority: priorityValue })}
            >
              Set priority
            </Button>
          </div>
          <div className="flex items-end gap-2">
            <Button variant="secondary" disabled={run.isPending} onClick={() => setOpen('reject')}>
              Reject…
            </Button>
            <Button
              variant="secondary"
              disabled={run.isPending}
              className="text-red-800"
              onClick={() => setOpen('delete')}
            >
              Delete…
            </Button>
          </div>
          {open === 'reject' && (
            <form
              className="flex basis-full flex-wrap items-end gap-2"
              onSubmit={(e) => {
                e.preventDefault();
                if (reason.trim() !== '') send({ action: 'reject', ids, reason: reason.trim() });
              }}
            >
              <div className="flex min-w-80 flex-1 flex-col gap-1">
                <label htmlFor={reasonId} className="text-xs font-medium">
                  Why are they rejected? (kept in each document’s history)
                </label>
                <input
                  id={reasonId}
                  required
                  maxLength={2000}
                  value={reason}
                  autoFocus
                  onChange={(e) => setReason(e.target.value)}
                  className={field}
                />
              </div>
              <Button type="submit" disabled={reason.trim() === '' || run.isPending}>
                Reject {documentsWord(count)}
              </Button>
              <Button variant="ghost" onClick={() => setOpen('none')}>
                Cancel
              </Button>
            </form>
          )}
          {open === 'delete' && (
            <div
              role="alertdialog"
              aria-modal="false"
              aria-labelledby={`${reasonId}-delete`}
              className="flex basis-full flex-wrap items-center gap-3 rounded-md border border-red-300 bg-white p-3"
            >
              <p id={`${reasonId}-delete`} className="text-sm">
                Delete {documentsWord(count)}? Their files, corrections and history are removed for good; the
                audit log keeps who deleted what.
              </p>
              <Button
                autoFocus
                className="bg-red-800 hover:bg-red-900"
                disabled={run.isPending}
                onClick={() => send({ action: 'delete', ids })}
              >
                Delete {documentsWord(count)}
              </Button>
              <Button variant="ghost" onClick={() => setOpen('none')}>
                Cancel
              </Button>
            </div>
          )}
        </section>
      )}
      {run.error != null && <ProblemAlert error={run.error} action="Nothing was changed." />}
      {answer !== null && <BulkAnswer {...answer} onDismiss={() => setAnswer(null)} />}
    </div>
  );
}

function BulkAnswer({
  result,
  names,
  onDismiss,
}: {
  result: BulkResponse;
  names: Map<string, string>;
  onDismiss: () => void;
}) {
  const { changed, skipped } = result;
  return (
    <div
      role="status"
      className="flex items-start justify-between gap-3 rounded-md border border-slate-200 bg-white p-3 text-sm"
    >
      <div>
        <p>
          {DONE[result.action]} {documentsWord(changed.length)}.
          {skipped.length > 0 &&
            ` ${documentsWord(skipped.length)} left as ${skipped.length === 1 ? 'it was' : 'they were'}:`}
        </p>
        {skipped.length > 0 && (
          <ul className="mt-1 list-disc pl-5">
            {skipped.map((s) => (
              <li key={s.id}>
                <span className="font-medium">{names.get(s.id) ?? s.id}</span>: {s.detail}
              </li>
            ))}
          </ul>
        )}
      </div>
      <Button variant="ghost" className="px-2 py-1" onClick={onDismiss}>
        Dismiss
      </Button>
    </div>
  );
}
