import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import type { DeliveryKind, DeliveryState } from '@extraction-review/contract/review/deliveries';
import { deliveriesQueryOptions } from '../../api/review/delivery-queries';
import { sessionQueryOptions } from '../../api/review/queries';
import { ProblemAlert } from '../../components/problem-alert';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { DeliveryTable } from './delivery-table';
import { KIND_LABEL, STATE_LABEL, STATE_ORDER } from './describe-delivery';

const PAGE = 50;
const toggle =
  'inline-flex items-center gap-2 rounded-md border px-3 py-1.5 text-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700';
const pressed = 'border-blue-800 bg-blue-800 font-semibold text-white';
const unpressed = 'border-slate-300 bg-white text-slate-800 hover:bg-slate-100';

/**
 * `/deliveries` (admins): what confirmed documents send on the way back (integrations' webhooks, v1
 * feedback, v2 RAG), newest first, by state and kind; each delivery's attempts; "Retry" on a failed one.
 */
export function DeliveriesPage() {
  const session = useQuery(sessionQueryOptions());
  const [state, setState] = useState<DeliveryState | undefined>();
  const [kind, setKind] = useState<DeliveryKind | undefined>();
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const admin = session.data?.operator.role === 'admin';
  const page = useQuery({
    ...deliveriesQueryOptions({ state, kind, cursor, limit: PAGE }),
    placeholderData: keepPreviousData,
    enabled: admin,
  });

  if (session.isPending)
    return (
      <Main>
        <Spinner label="Checking who is signed in…" />
      </Main>
    );
  if (!admin)
    return (
      <Main>
        <p className="text-sm text-slate-700">Only admins see the deliveries. Ask an admin to check one.</p>
      </Main>
    );

  const filter = (next: { state?: DeliveryState | undefined; kind?: DeliveryKind | undefined }) => {
    if ('state' in next) setState(next.state);
    if ('kind' in next) setKind(next.kind);
    setCursors([]);
  };
  const counts = page.data?.counts;
  return (
    <Main>
      <div role="group" aria-label="Show deliveries by state" className="flex flex-wrap items-center gap-2">
        {[undefined, ...STATE_ORDER].map((s) => (
          <button
            key={s ?? 'all'}
            type="button"
            aria-pressed={state === s}
            onClick={() => filter({ state: s })}
            className={`${toggle} ${state === s ? pressed : unpressed}`}
          >
            {s === undefined ? 'All' : STATE_LABEL[s]}{' '}
            {s !== undefined && counts !== undefined && <span className="tabular-nums">{counts[s]}</span>}
          </button>
        ))}
        <label className="ml-2 flex items-center gap-2 text-sm">
          Kind
          <select
            value={kind ?? ''}
            onChange={(event) =>
              filter({ kind: (event.target.value || undefined) as DeliveryKind | undefined })
            }
            className="rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm"
          >
            <option value="">All kinds</option>
            {(Object.keys(KIND_LABEL) as DeliveryKind[]).map((k) => (
              <option key={k} value={k}>
                {KIND_LABEL[k]}
              </option>
            ))}
          </select>
        </label>
      </div>
      {page.isPending && <Spinner label="Loading the deliveries…" />}
      {page.isError && <ProblemAlert error={page.error} onRetry={() => void page.refetch()} />}
      {page.isSuccess && page.data.deliveries.length === 0 && (
        <p className="text-sm text-slate-700">
          {state === undefined && kind === undefined
            ? 'Nothing has been sent yet: deliveries appear when a document is confirmed.'
            : 'No delivery matches these filters.'}
        </p>
      )}
      {page.isSuccess && page.data.deliveries.length > 0 && (
        <DeliveryTable deliveries={page.data.deliveries} />
      )}
      {(cursors.length > 0 || page.data?.nextCursor) && (
        <div className="flex gap-2">
          <Button
            variant="secondary"
            disabled={cursors.length === 0}
            onClick={() => setCursors((c) => c.slice(0, -1))}
          >
            Newer
          </Button>
          <Button
            variant="secondary"
            disabled={!page.data?.nextCursor}
            onClick={() => {
              const next = page.data?.nextCursor;
              if (next) setCursors((c) => [...c, next]);
            }}
          >
            Older
          </Button>
        </div>
      )}
    </Main>
  );
}

function Main({ children }: { children: ReactNode }) {
  return (
    <main className="mx-auto flex w-full max-w-screen-2xl flex-col gap-6 p-6">
      <div>
        <h1 className="text-2xl font-semibold">Deliveries</h1>
        <p className="mt-1 text-sm text-slate-600">
          What confirmed documents send on the way back: webhooks to integrations, v1 feedback and RAG
          upstream. Each is retried until delivered; a failed one can be retried here.
        </p>
      </div>
      {children}
    </main>
  );
}
