import { useTitleOf } from '../field-titles';
import { useRuleMarks } from './rule-marks';
import { ruleMessageInWords } from './rule-words';

/**
 * Under a value: why a business rule fails on it, in words (a symbol and a border too, never colour
 * alone), the fields named by their titles. Compact, in a table cell: the symbol, the messages for
 * screen readers and as a tooltip.
 */
export function RuleMark({ path, compact = false }: { path: string; compact?: boolean }) {
  const failures = useRuleMarks(path);
  const titleOf = useTitleOf();
  if (failures.length === 0) return null;
  const messages = failures.map((failure) => ruleMessageInWords(failure, titleOf));
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
      aria-label={`Rules failing on ${titleOf(path)}`}
      data-field-path={path}
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
