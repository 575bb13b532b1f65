import { useId, useMemo, useState } from 'react';
import { ApiError, InvalidRequestError, NetworkError } from '../../../api/errors';
import { ProblemAlert } from '../../../components/problem-alert';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { useTitleOf } from '../field-titles';
import type { ReviewNode } from '@extraction-review/review-domain/fields/review-tree';
import {
  isAlreadyStored,
  storedFields,
  toV1Feedback,
  type FeedbackMethod,
} from '@extraction-review/review-domain/feedback/to-v1-feedback';
import { useSendFeedback } from './use-send-feedback';

interface Props {
  nodes: ReviewNode[];
  /** The v1 document the prediction made (not the async job's id). */
  documentId: string;
  /** `account/name/vN`, to name the product in what the operator reads. */
  product: string;
}

const METHODS: readonly { method: FeedbackMethod; label: string; hint: string }[] = [
  {
    method: 'PATCH',
    label: 'Send my changes',
    hint: 'PATCH: the fields you changed, merged into what the service already stores.',
  },
  {
    method: 'PUT',
    label: 'Send every field I validated',
    hint: 'PUT: the fields you changed or confirmed (Enter in a value); replaces what the service stores.',
  },
];

/**
 * v1 feedback (spec §4.2, API-FACTS v1): the operator's validated values sent back for the document,
 * shown first exactly as they will be sent. Sending the same thing twice cannot give two outcomes: the
 * button is off while a send is under way, PUT and PATCH are idempotent at the service, and once the
 * service stores exactly this payload the button stays off until the draft changes. A failure keeps the
 * draft (it lives in this browser) and says what to do.
 */
export function FeedbackPanel({ nodes, documentId, product }: Props) {
  const [method, setMethod] = useState<FeedbackMethod>('PATCH');
  const previewId = useId();
  const titleOf = useTitleOf();
  const { stored, send } = useSendFeedback(documentId);
  const plan = useMemo(() => toV1Feedback(nodes, method), [nodes, method]);
  const body = { feedback: plan.feedback };
  const fieldCount = Object.keys(plan.feedback).length;
  const storedNow = stored.data?.feedback;
  const sent = storedNow !== undefined && isAlreadyStored(method, plan.feedback, storedNow);
  const blocked = fieldCount === 0 || plan.invalid.length > 0 || sent;
  const lastSent = send.variables;
  const submit = () => {
    // The button is disabled while pending; a key repeat in between must not send twice either.
    if (send.isPending || blocked) return;
    send.mutate({ method, feedback: plan.feedback });
  };

  return (
    <section
      aria-label="Send feedback to the service"
      className="border-t border-slate-200 pt-2"
      data-feedback-state={send.isPending ? 'sending' : sent ? 'sent' : send.isError ? 'failed' : 'draft'}
    >
      {/* Folded until wanted: open, the preview would take the height the values list needs. */}
      <details>
        <summary className="cursor-pointer text-sm font-semibold text-slate-900 focus-visible:outline-2 focus-visible:outline-blue-700">
          Send feedback to the service{' '}
          <span className="font-normal text-slate-700">({summaryOf(fieldCount, sent, method)})</span>
        </summary>
        <div className="mt-2 flex flex-col gap-2">
          <fieldset className="flex flex-col gap-1">
            <legend className="sr-only">What to send</legend>
            {METHODS.map((m) => (
              <label key={m.method} className="flex items-start gap-2 text-sm">
                <input
                  type="radio"
                  name={`feedback-method-${documentId}`}
                  value={m.method}
                  checked={method === m.method}
                  onChange={() => setMethod(m.method)}
                  className="mt-1"
                />
                <span>
                  {m.label} <span className="text-xs text-slate-700">({m.hint})</span>
                </span>
              </label>
            ))}
          </fieldset>

          <p id={previewId} className="text-xs text-slate-700">
            {fieldCount === 0 ? (
              method === 'PATCH' ? (
                'Nothing to send yet: change a value first.'
              ) : (
                'Nothing to send yet: change or confirm a value first (Enter in a value confirms it).'
              )
            ) : (
              <>
                Will be sent as <code className="font-mono">{method}</code> to{' '}
                <code className="font-mono break-all">/v1/documents/{documentId}/feedback</code> ({fieldCount}{' '}
                field{fieldCount === 1 ? '' : 's'}):
              </>
            )}
          </p>
          {fieldCount > 0 && (
            // Focusable so that a keyboard can scroll it (axe: scrollable-region-focusable).
            <pre
              role="region"
              aria-label="Feedback preview"
              aria-describedby={previewId}
              tabIndex={0}
              data-feedback-preview={method}
              className="max-h-32 overflow-auto rounded border border-slate-300 bg-slate-50 p-2 font-mono text-xs text-slate-900"
            >
              {JSON.stringify(body, null, 2)}
            </pre>
          )}
          {plan.unsent.length > 0 && (
            <div className="text-xs text-amber-900">
              <p>Not in the feedback (v1 cannot carry them):</p>
              <ul className="list-disc pl-5">
                {plan.unsent.map((u) => (
                  <li key={u.path}>
                    {titleOf(u.path)} (<code className="font-mono">{u.path}</code>): {u.reason}
                  </li>
                ))}
              </ul>
            </div>
          )}
          {plan.invalid.length > 0 && (
            <p className="text-sm text-red-800">
              Not a number: {plan.invalid.map(titleOf).join(', ')}. Fix{' '}
              {plan.invalid.length === 1 ? 'it' : 'them'} before sending.
            </p>
          )}

          <div className="flex flex-wrap items-center gap-2">
            <Button onClick={submit} disabled={blocked || send.isPending}>
              Send feedback
            </Button>
            {send.isPending && <Spinner label="Sending the feedback…" />}
            {sent && !send.isPending && (
              <p role="status" className="text-sm text-emerald-900">
                Sent: the service stores exactly this. Change or confirm a value to send again.
              </p>
            )}
          </div>

          {send.isError && !send.isPending && (
            <ProblemAlert
              error={send.error}
              action={feedbackAction(send.error, product)}
              onRetry={lastSent && worthRetrying(send.error) ? () => send.mutate(lastSent) : undefined}
            />
          )}
          {storedNow !== undefined && <StoredFeedback stored={storedNow} justSent={send.isSuccess} />}
        </div>
      </details>
    </section>
  );
}

function summaryOf(fieldCount: number, sent: boolean, method: FeedbackMethod): string {
  if (sent) return 'sent';
  if (fieldCount === 0) return 'nothing to send yet';
  return `${method}: ${fieldCount} field${fieldCount === 1 ? '' : 's'} to send`;
}

function StoredFeedback({ stored, justSent }: { stored: Record<string, unknown>; justSent: boolean }) {
  const filled = storedFields(stored);
  const count = Object.keys(filled).length;
  const total = Object.keys(stored).length;
  if (count === 0 && !justSent) return null;
  return (
    <div
      role="region"
      aria-label="Stored feedback"
      className="rounded border border-emerald-700 bg-emerald-50 p-2 text-sm text-slate-900"
    >
      <p>
        {justSent ? 'The service answered: it now stores' : 'The service stores'} feedback for {count} of{' '}
        {total} fields{count > 0 ? ':' : '.'}
      </p>
      {count > 0 && (
        <pre
          tabIndex={0}
          aria-label="Stored feedback values"
          data-stored-feedback
          className="mt-1 max-h-32 overflow-auto font-mono text-xs"
        >
          {JSON.stringify(filled, null, 2)}
        </pre>
      )}
    </div>
  );
}

/** The same request may pass later: no answer, or the service failing; not a refusal of the request. */
function worthRetrying(error: unknown): boolean {
  if (error instanceof NetworkError) return true;
  return (
    error instanceof ApiError && error.status !== undefined && (error.status >= 500 || error.status === 429)
  );
}

/** What to do next, per status of the feedback endpoint (spec §7.2); the draft is always kept. */
export function feedbackAction(error: unknown, product: string): string | undefined {
  const kept = 'Your corrections are kept in this browser.';
  if (error instanceof InvalidRequestError) return undefined;
  if (error instanceof NetworkError)
    return `The feedback did not reach the service. ${kept} Check the connection, then try again.`;
  if (!(error instanceof ApiError)) return undefined;
  switch (error.status) {
    case 400:
      return `The service refused the payload for the reason above (a value it cannot take, or a field ${product} does not have). ${kept} Correct the value, or leave the field out, then send again.`;
    case 401:
      return `The service refused the app server’s v1 API key. Whoever runs the app server must check its v1 key (UPSTREAM_V1_API_KEY, or the embedded reference service’s key), then send again. ${kept}`;
    case 403:
      return `${product} does not take feedback: the service has not enabled the feedback endpoint for this product (the hosted service no longer enables it for new accounts). Sending again will not help; export the corrections (JSON or CSV) to keep them.`;
    case 404:
      return `The service no longer has this document (deleted, or another account or service), so it cannot take feedback for it. Predict the document again and send the feedback of the new prediction; export the corrections to keep them meanwhile.`;
    default:
      return undefined;
  }
}
