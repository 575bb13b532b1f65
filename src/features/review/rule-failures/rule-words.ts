import type { RuleFailure } from '@extraction-review/contract/review/model-settings';
import type { TitleOf } from '@extraction-review/review-domain/fields/review-tree';

/** A JSON-quoted value in a message (rules/field-values.ts `quote`): the operator's text, left as it is. */
const QUOTED = /("(?:[^"\\]|\\.)*")/;

/**
 * A failing rule's message as the operator reads it: the paths of the fields it concerns (the
 * rules speak the API's paths, as the admins write them and the history keeps them) replaced by
 * their titles. Quoted values are never touched, nor a path that is only part of a longer one.
 */
export function ruleMessageInWords(
  failure: Pick<RuleFailure, 'message' | 'fields'>,
  titleOf: TitleOf,
): string {
  // The longest first: `line_items[0].amount` before `line_items[0]`.
  const paths = [...new Set(failure.fields)].sort((a, b) => b.length - a.length);
  if (paths.length === 0) return failure.message;
  const pattern = new RegExp(
    `(?<![\\w.\\[\\]-])(${paths.map(escape).join('|')})(?![\\w\\[\\]-]|\\.\\w)`,
    'g',
  );
  return failure.message
    .split(QUOTED)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(pattern, (path) => titleOf(path))))
    .join('');
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
