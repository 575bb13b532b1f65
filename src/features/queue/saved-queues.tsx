import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import type { SavedQueue, SavedQueueFilters } from '@extraction-review/contract/review/saved-queues';
import {
  createSavedQueue,
  deleteSavedQueue,
  listSavedQueues,
  savedQueuesKey,
  updateSavedQueue,
} from '../../api/review/saved-queue-endpoints';
import { ProblemAlert } from '../../components/problem-alert';
import { Button } from '../../components/ui/button';
import { parseAmount, queueHref, serialiseQueueFilters, type QueueFilters } from '../../lib/queue-filters';

/** A saved queue's filters as the queue's URL holds them. */
export function savedToUrl(filters: SavedQueueFilters): QueueFilters {
  return {
    state: filters.state,
    model: filters.model,
    operator: filters.operator,
    q: filters.q,
    minAmount: filters.minAmount === undefined ? undefined : String(filters.minAmount),
    maxAmount: filters.maxAmount === undefined ? undefined : String(filters.maxAmount),
    assigned: filters.assigned,
  };
}

/** The URL's filters a queue keeps (not the received-between dates: a moment's view, not a queue). */
export function urlToSaved(filters: QueueFilters): SavedQueueFilters {
  const min = parseAmount(filters.minAmount);
  const max = parseAmount(filters.maxAmount);
  const saved: SavedQueueFilters = {
    state: filters.state,
    model: filters.model?.trim() || undefined,
    operator: filters.operator,
    q: filters.q?.trim() || undefined,
    minAmount: min === undefined ? undefined : Number(min),
    maxAmount: max === undefined ? undefined : Number(max),
    assigned: filters.assigned,
  };
  return Object.fromEntries(Object.entries(saved).filter(([, v]) => v !== undefined)) as SavedQueueFilters;
}

const sameFilters = (queue: SavedQueue, filters: QueueFilters) =>
  serialiseQueueFilters(savedToUrl(queue.filters)) === serialiseQueueFilters(filters);

const tab =
  'inline-flex items-center gap-2 rounded-md border px-3 py-1.5 text-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700';

/**
 * The team's saved queues ("Receipts", "Invoices over 10,000"), each a link that puts its filters in
 * the queue's URL, with how many of its documents are waiting; the one whose filters are the URL's is
 * the current one. Admins save the current filters under a name, rename and delete, and save changed
 * filters to the queue they came from (operators do not save: their own view is the URL).
 */
export function SavedQueues({ filters, isAdmin }: { filters: QueueFilters; isAdmin: boolean }) {
  const queues = useQuery({
    queryKey: savedQueuesKey(),
    queryFn: ({ signal }) => listSavedQueues({ signal }),
  });
  const list = queues.data?.queues ?? [];
  const active = list.find((queue) => sameFilters(queue, filters));
  // The queue the operator was last on: its filters changed since, an admin may save them to it.
  const [lastOn, setLastOn] = useState<string | undefined>(undefined);
  if (active !== undefined && active.id !== lastOn) setLastOn(active.id);
  const changedFrom = active === undefined ? list.find((queue) => queue.id === lastOn) : undefined;
  if (list.length === 0 && !isAdmin) return null;
  return (
    <div className="flex flex-wrap items-center gap-2">
      {list.length > 0 && (
        <nav aria-label="Saved queues" className="flex flex-wrap gap-2">
          <Link
            href={queueHref({})}
            aria-current={serialiseQueueFilters(filters) === '' ? 'page' : undefined}
            className={`${tab} ${serialiseQueueFilters(filters) === '' ? 'border-blue-800 bg-blue-800 font-semibold text-white' : 'border-slate-300 bg-white text-slate-800 hover:bg-slate-100'}`}
          >
            All documents
          </Link>
          {list.map((queue) => {
            const current = queue.id === active?.id;
            return (
              <Link
                key={queue.id}
                href={queueHref(savedToUrl(queue.filters))}
                aria-current={current ? 'page' : undefined}
                className={`${tab} ${current ? 'border-blue-800 bg-blue-800 font-semibold text-white' : 'border-slate-300 bg-white text-slate-800 hover:bg-slate-100'}`}
              >
                {queue.name}{' '}
                <span
                  className={`rounded-full px-1.5 text-xs tabular-nums ${current ? 'bg-white text-blue-900' : 'bg-slate-100 text-slate-700'}`}
                >
                  {queue.waiting}
                  <span className="sr-only">{' to review'}</span>
                </span>
              </Link>
            );
          })}
        </nav>
      )}
      {isAdmin && <ManageQueue filters={filters} active={active} changedFrom={changedFrom} />}
    </div>
  );
}

type Editing = { kind: 'save' } | { kind: 'rename'; queue: SavedQueue } | null;

interface ManageProps {
  filters: QueueFilters;
  /** The saved queue whose filters are the URL's. */
  active: SavedQueue | undefined;
  /** With no such queue: the one the operator was on before changing its filters. */
  changedFrom: SavedQueue | undefined;
}

/**
 * An admin's actions: save the current filters as a queue, or rename or delete the current queue;
 * the filters of the queue they were on changed, save the changes to it (on the version read: a
 * queue another admin changed meanwhile is refused, 409-006, and read again).
 */
function ManageQueue({ filters, active, changedFrom }: ManageProps) {
  const client = useQueryClient();
  const nameId = useId();
  const [editing, setEditing] = useState<Editing>(null);
  const [name, setName] = useState('');
  const [confirmDelete, setConfirmDelete] = useState(false);
  const refresh = () => client.invalidateQueries({ queryKey: savedQueuesKey() });
  const save = useMutation({
    mutationFn: (change: Exclude<Editing, null>) =>
      change.kind === 'save'
        ? createSavedQueue({ name, filters: urlToSaved(filters) })
        : updateSavedQueue(change.queue.id, { version: change.queue.version, name }),
    onSuccess: async () => {
      setEditing(null);
      await refresh();
    },
  });
  const saveChanges = useMutation({
    mutationFn: (queue: SavedQueue) =>
      updateSavedQueue(queue.id, { version: queue.version, filters: urlToSaved(filters) }),
    // Refused or not, the list is read again: a queue changed meanwhile has a new version.
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (queue: SavedQueue) => deleteSavedQueue(queue.id),
    onSettled: async () => {
      setConfirmDelete(false);
      await refresh();
    },
  });
  const saveable = Object.keys(urlToSaved(filters)).length > 0;
  const error = save.error ?? remove.error;
  // The operator's filters stay in the URL whatever the answer: only the saved queue changes.
  const changesError = changedFrom === undefined ? null : saveChanges.error;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (editing !== null) save.mutate(editing);
  };

  if (editing !== null) {
    return (
      <form onSubmit={submit} className="flex flex-wrap items-end gap-2" aria-label="Name the queue">
        <div className="flex flex-col gap-1">
          <label htmlFor={nameId} className="text-sm font-medium">
            Queue name
          </label>
          <input
            id={nameId}
            value={name}
            maxLength={80}
            required
            autoFocus
            onChange={(e) => setName(e.target.value)}
            className="rounded-md border border-slate-300 px-3 py-1.5 text-sm"
          />
        </div>
        <Button type="submit" disabled={save.isPending}>
          {editing.kind === 'save' ? 'Save queue' : 'Rename'}
        </Button>
        <Button
          type="button"
          variant="secondary"
          onClick={() => {
            setEditing(null);
            save.reset();
          }}
        >
          Cancel
        </Button>
        {error && (
          <ProblemAlert error={error} action="Nothing was changed: correct the name, or try again." />
        )}
      </form>
    );
  }
  return (
    <div className="flex flex-wrap items-center gap-2">
      {active === undefined ? (
        saveable && (
          <>
            {changedFrom !== undefined && (
              <Button
                variant="secondary"
                onClick={() => saveChanges.mutate(changedFrom)}
                disabled={saveChanges.isPending}
              >
                Save changes to “{changedFrom.name}”
              </Button>
            )}
            <Button
              variant="secondary"
              onClick={() => {
                setName('');
                setEditing({ kind: 'save' });
              }}
            >
              {changedFrom === undefined ? 'Save as a queue…' : 'Save as a new queue…'}
            </Button>
          </>
        )
      ) : confirmDelete ? (
        <>
          <Button variant="secondary" onClick={() => remove.mutate(active)} disabled={remove.isPending}>
            Delete “{active.name}”
          </Button>
          <Button variant="secondary" onClick={() => setConfirmDelete(false)}>
            Keep it
          </Button>
        </>
      ) : (
        <>
          <Button
            variant="secondary"
            onClick={() => {
              setName(active.name);
              setEditing({ kind: 'rename', queue: active });
            }}
          >
            Rename queue
          </Button>
          <Button variant="secondary" onClick={() => setConfirmDelete(true)}>
            Delete queue
          </Button>
        </>
      )}
      {error && <ProblemAlert error={error} action="Nothing was changed: correct the name, or try again." />}
      {changesError && (
        <ProblemAlert
          error={changesError}
          action={`“${changedFrom?.name ?? ''}” was not changed; your filters are as you set them. Try again, or save them as a new queue.`}
        />
      )}
    </div>
  );
}
