import type { ReactNode } from 'react';
import { describeError } from './describe-error';

interface Props {
  error: unknown;
  /** What the operator can do next, when the caller knows better than the generic hint. */
  action?: ReactNode;
  /** Offers "Try again" (a failed query's refetch, say). */
  onRetry?: () => void;
}

/**
 * Shows a failure in words: the server's title and detail, its code, each pointer into the request,
 * and what to do next. Extracted or server-sent text is rendered as text, never as HTML.
 */
export function ProblemAlert({ error, action, onRetry }: Props) {
  const d = describeError(error);
  return (
    <div role="alert" className="rounded-md border border-red-300 bg-red-50 p-4 text-sm text-red-950">
      <p className="font-semibold">
        {d.title}
        {d.code && <span className="ml-2 font-mono text-xs font-normal text-red-900">({d.code})</span>}
      </p>
      {d.detail && <p className="mt-1 break-words">{d.detail}</p>}
      {d.pointers.length > 0 && (
        <ul className="mt-2 list-disc pl-5">
          {d.pointers.map((p, i) => (
            <li key={i}>
              {p.pointer && <code className="mr-1 font-mono text-xs">{p.pointer}</code>}
              {p.detail}
            </li>
          ))}
        </ul>
      )}
      <p className="mt-2 text-red-950">{action ?? d.hint}</p>
      {onRetry && d.retryable && (
        <button
          type="button"
          onClick={onRetry}
          className="mt-2 rounded-md border border-red-800 bg-white px-3 py-1 text-sm font-medium text-red-950 hover:bg-red-100 focus-visible:outline-2 focus-visible:outline-blue-700"
        >
          Try again
        </button>
      )}
    </div>
  );
}
