import type { ReactNode } from 'react';
import { describeError } from './describe-error';

interface Props {
  error: unknown;
  /** What the operator can do next, when the caller knows better than the generic hint. */
  action?: ReactNode;
}

/**
 * Shows a failure in words: the server's title and detail, its code, each pointer into the request,
 * and what to do next. Extracted or server-sent text is rendered as text, never as HTML.
 */
export function ProblemAlert({ error, action }: Props) {
  const d = describeError(error);
  return (
    <div role="alert" className="rounded-md border border-red-300 bg-red-50 p-4 text-sm text-red-950">
      <p className="font-semibold">
        {d.title}
        {d.code && <span className="ml-2 font-mono text-xs font-normal text-red-800">({d.code})</span>}
      </p>
      {d.detail && <p className="mt-1">{d.detail}</p>}
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
      <p className="mt-2 text-red-900">{action ?? d.hint}</p>
    </div>
  );
}
