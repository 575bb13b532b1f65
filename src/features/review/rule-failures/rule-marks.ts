/**
 * The business rules failing in the review, by field: each field a failing rule concerns shows the
 * rule's message, its fields named by their titles (fields/field-row.tsx, fields/table-cell.tsx). Handed down the field tree through
 * context, as the field actions are; no marks outside a queue review.
 */
import { createContext, useContext } from 'react';
import type { RuleFailure } from '@extraction-review/contract/review/model-settings';

/** The failing rules by the fields they concern (a rule concerning two fields marks both). */
export type RuleMarks = ReadonlyMap<string, readonly RuleFailure[]>;

export const NO_MARKS: RuleMarks = new Map();

export const RuleMarksContext = createContext<RuleMarks>(NO_MARKS);

/** The failing rules that concern this field (none: an empty list). */
export function useRuleMarks(path: string): readonly RuleFailure[] {
  return useContext(RuleMarksContext).get(path) ?? NONE;
}

const NONE: readonly RuleFailure[] = [];

export function ruleMarks(failures: readonly RuleFailure[]): RuleMarks {
  const marks = new Map<string, RuleFailure[]>();
  for (const failure of failures)
    for (const field of new Set(failure.fields)) marks.set(field, [...(marks.get(field) ?? []), failure]);
  return marks;
}
