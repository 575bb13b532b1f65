import { useRuleMarks } from './rule-marks';

/**
 * Under a value: why a business rule fails on it, in words (a symbol and a border too, never colour
 * alone). Compact, in a table cell: the symbol, the messages for screen readers and as a tooltip.
 */
export function RuleMark({ path, compact = false }: { path: string; compact?: boolean }) {
  const messages = useRuleMarks(path);
  if (messages.length === 0) return null;
  if (compact) {
    return (
      <span title={messages.join('\n')} className="font-semibold text-red-800">
        <span aria-hidden="true">⚠</span>
        <span className="sr-only">Rule fails: {messages.join('; ')}</span>
      </span>
    );
  }
  return (
    <ul
      aria-label={`Rules failing on ${path}`}
      className="mt-1 flex flex-col gap-0.5 border-l-4 border-red-700 pl-2"
    >
      {messages.map((message) => (
        <li key={message} className="text-xs text-red-900">
          <span aria-hidden="true">⚠ </span>Rule fails: {message}
        </li>
      ))}
    </ul>
  );
}
