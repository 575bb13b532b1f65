import type { ReviewDocument } from '@extraction-review/contract/review/schemas';
import { ProblemAlert } from '../../../components/problem-alert';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { formatClock, formatWhen } from './format-time';

interface Action {
  mutate: () => void;
  isPending: boolean;
  error: unknown;
}

interface Props {
  document: ReviewDocument;
  me: string;
  isAdmin: boolean;
  take: Action;
  reopen: Action;
}

const DECIDED = { confirmed: 'Confirmed', rejected: 'Rejected', postponed: 'Postponed' } as const;

/**
 * Where a document the operator does not hold stands, and what they may do about it: take a waiting
 * (or postponed) one, see who holds one and until when, who decided one and why, and, for admins,
 * reopen a decided one.
 */
export function DocumentStatus({ document, me, isAdmin, take, reopen }: Props) {
  const { state, holder } = document;
  const takeable =
    state === 'to_review' || state === 'postponed' || (state === 'in_review' && holder?.id === me);
  const decided = state === 'confirmed' || state === 'rejected' || state === 'postponed';

  return (
    <section
      aria-label="Status"
      className="flex flex-col gap-2 rounded-md border border-slate-300 bg-white p-3 text-sm"
    >
      <p className="text-slate-900">
        {state === 'processing' &&
          'The extraction service is still reading this document; this page updates by itself.'}
        {state === 'failed' && 'The extraction failed: there is nothing to review.'}
        {state === 'to_review' &&
          'Nobody is reviewing this document. This is a preview: take it to correct it.'}
        {state === 'in_review' &&
          (holder?.id === me
            ? 'You were reviewing this document, but the server no longer counts it as yours.'
            : `${holder?.name ?? 'Another operator'} is reviewing this document (until ${formatClock(document.leaseExpiresAt)}).`)}
        {decided &&
          `${DECIDED[state]} by ${document.decidedBy?.name ?? 'an operator'} on ${formatWhen(document.decidedAt)}${
            document.reason ? `: ${document.reason}` : '.'
          }`}
      </p>
      {state === 'failed' && (
        <ProblemAlert
          error={document.error ?? { title: 'The extraction failed', detail: 'The upstream gave no reason.' }}
          action="Send the document again from New extraction, or ask an admin to look at the upstream's answer."
        />
      )}
      {(takeable || (isAdmin && decided)) && (
        <div className="flex flex-wrap items-center gap-2">
          {takeable && (
            <Button onClick={() => take.mutate()} disabled={take.isPending}>
              Review this document
            </Button>
          )}
          {isAdmin && decided && (
            <Button variant="secondary" onClick={() => reopen.mutate()} disabled={reopen.isPending}>
              Reopen
            </Button>
          )}
          {(take.isPending || reopen.isPending) && (
            <Spinner label={take.isPending ? 'Taking it…' : 'Reopening…'} />
          )}
        </div>
      )}
      {take.error != null && (
        <ProblemAlert
          error={take.error}
          action="It was not taken: the status above is the document as it is now."
        />
      )}
      {reopen.error != null && <ProblemAlert error={reopen.error} action="It was not reopened." />}
    </section>
  );
}
