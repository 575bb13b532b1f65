import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { reviewKeys } from '../../api/keys';
import { ProblemAlert } from '../../components/problem-alert';
import { Button } from '../../components/ui/button';
import { documentStoreKeys, listJobs } from '../../lib/document-store';
import { describeSkips, importKeptJobs, type ImportProgress, type ImportReport } from './import-kept-jobs';
import {
  dismissImportOffer,
  jobsToOffer,
  newImportOffer,
  readImportOffer,
  rememberFirstLook,
  settleImportedJob,
  type ImportOffer,
} from './import-offer';

type Run =
  | { phase: 'idle' }
  | { phase: 'running'; progress: ImportProgress }
  | { phase: 'done'; report: ImportReport }
  | { phase: 'failed'; error: unknown };

const jobs = (n: number) => `${n} job${n === 1 ? '' : 's'}`;

/**
 * On the queue page: the jobs this browser kept before the team queue existed (IndexedDB,
 * src/lib/document-store.ts), offered for import once — "Import them" brings each into the queue with
 * its result and file, showing how far it has got and then what came of it; "Not now" never asks
 * again. What was offered and dealt with is remembered in this browser (import-offer.ts).
 */
export function ImportBanner() {
  const queryClient = useQueryClient();
  const kept = useQuery({ queryKey: documentStoreKeys.list(), queryFn: listJobs });
  // Undefined when this browser's storage cannot be used: nothing can then be offered "once".
  const [offer, setOffer] = useState<ImportOffer | undefined>(() => {
    const remembered = readImportOffer();
    return remembered === null ? newImportOffer() : remembered;
  });
  const [run, setRun] = useState<Run>({ phase: 'idle' });
  const abort = useRef<AbortController | null>(null);

  // The first look at this page (its kept jobs read) sets which jobs are "from before".
  useEffect(() => {
    if (kept.isSuccess && offer !== undefined) rememberFirstLook(offer);
  }, [kept.isSuccess, offer]);
  // Leaving the page stops the import; what was not dealt with is offered next time.
  useEffect(() => () => abort.current?.abort(), []);

  const toOffer = jobsToOffer(kept.data ?? [], offer);

  const start = () => {
    if (offer === undefined) return;
    const controller = new AbortController();
    abort.current = controller;
    setRun({ phase: 'running', progress: { done: 0, total: toOffer.length } });
    importKeptJobs(toOffer, {
      signal: controller.signal,
      onProgress: (progress) => setRun({ phase: 'running', progress }),
      onSettled: (jobId) => setOffer(settleImportedJob(offer, jobId)),
    })
      .then((report) => setRun({ phase: 'done', report }))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setRun({ phase: 'failed', error });
      })
      .finally(() => {
        void queryClient.invalidateQueries({ queryKey: reviewKeys.queues() });
      });
  };

  const dismiss = () => {
    if (offer !== undefined) setOffer(dismissImportOffer(offer));
  };
  const close = () => {
    setOffer(readImportOffer() ?? offer);
    setRun({ phase: 'idle' });
  };

  if (run.phase === 'idle' && toOffer.length === 0) return null;

  return (
    <section
      aria-label="Jobs kept in this browser"
      className="flex flex-col gap-3 rounded-md border border-blue-300 bg-blue-50 p-4 text-sm text-slate-800"
    >
      {run.phase === 'idle' && (
        <>
          <p>
            <strong className="font-semibold">
              {jobs(toOffer.length)} from this browser {toOffer.length === 1 ? 'is' : 'are'} not in the team
              queue.
            </strong>{' '}
            The earlier version of the app kept them here only. Importing brings each into the queue, with its
            result and its file when this browser kept it.
          </p>
          <div className="flex flex-wrap gap-2">
            <Button onClick={start}>Import them</Button>
            <Button variant="secondary" onClick={dismiss}>
              Not now (never ask again)
            </Button>
          </div>
        </>
      )}
      {run.phase === 'running' && (
        <div className="flex flex-col gap-2">
          {/* The job under way: "3 of 12" while the third is imported. */}
          <p role="status">
            Importing {Math.min(run.progress.done + 1, run.progress.total)} of {run.progress.total}…
          </p>
          <progress
            className="w-full max-w-md"
            aria-label="Import"
            value={run.progress.done}
            max={Math.max(run.progress.total, 1)}
          />
        </div>
      )}
      {run.phase === 'done' && <Outcome report={run.report} onClose={close} />}
      {run.phase === 'failed' && (
        <>
          <ProblemAlert
            error={run.error}
            action="The import stopped; the jobs not imported yet are offered again."
          />
          <div>
            <Button variant="secondary" onClick={close}>
              Close
            </Button>
          </div>
        </>
      )}
    </section>
  );
}

function Outcome({ report, onClose }: { report: ImportReport; onClose: () => void }) {
  const { total, imported, alreadyThere, skipped } = report;
  const skips = describeSkips(skipped);
  return (
    <>
      <div role="status" className="flex flex-col gap-1">
        <p className="font-semibold">
          Imported {imported} of {jobs(total)} into the team queue.
        </p>
        {alreadyThere > 0 && (
          <p>
            {alreadyThere} {alreadyThere === 1 ? 'was' : 'were'} in the queue already.
          </p>
        )}
        {skips !== null && <p>{skips}</p>}
      </div>
      {skipped.length > 0 && (
        <details>
          <summary className="cursor-pointer text-slate-700">Which ones were skipped</summary>
          <ul className="mt-1 list-disc pl-6">
            {skipped.map((job) => (
              <li key={job.jobId}>
                <span className="break-all">{job.fileName || job.jobId}</span>
                {job.detail !== null && <span className="text-slate-600"> — {job.detail}</span>}
              </li>
            ))}
          </ul>
        </details>
      )}
      <div>
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
      </div>
    </>
  );
}
