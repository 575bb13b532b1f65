import type { RuleFailure } from '@extraction-review/contract/review/model-settings';

/**
 * The business rules of the document's model that fail with the values as they are now, above the
 * decision bar: confirming with one still failing asks for a reason.
 */
export function RuleFailures({ failures }: { failures: readonly RuleFailure[] }) {
  if (failures.length === 0) return null;
  return (
    <section
      aria-label="Business rules"
      className="flex flex-col gap-1 rounded-md border-2 border-red-700 bg-red-50 p-3 text-sm text-slate-900"
    >
      <h2 className="font-semibold text-red-900">
        <span aria-hidden="true">⚠ </span>
        {failures.length === 1 ? 'A business rule fails' : `${String(failures.length)} business rules fail`}
      </h2>
      <ul className="flex flex-col gap-1">
        {failures.map((failure) => (
          <li key={failure.ruleId}>
            <span className="font-mono text-xs">{failure.ruleId}</span>: {failure.message}
          </li>
        ))}
      </ul>
      <p className="text-xs text-slate-700">
        Correct the values, or confirm with a reason, which the history keeps.
      </p>
    </section>
  );
}
