import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { modelSettingsQueryOptions } from '../../../api/review/model-settings-endpoints';
import type { RuleFailure } from '@extraction-review/contract/review/model-settings';
import type { ApiVersion } from '@extraction-review/contract/review/schemas';
import type { FieldMap } from '@extraction-review/contract/v2/schemas';
import { buildReviewTree, type Edits } from '@extraction-review/review-domain/fields/review-tree';
import { evaluateRules } from '@extraction-review/review-domain/rules/evaluate-rules';
import { ruleMarks, type RuleMarks } from './rule-marks';

interface Options {
  apiVersion: ApiVersion;
  model: string;
  fields: FieldMap;
  /** The corrections the review starts from. */
  initial: Edits;
}

/**
 * The business rules of the document's model, checked as the operator corrects: `onEdits` takes
 * every change of the corrections; the failures (and the marks by field) change only when the rules'
 * verdict does, so a keystroke that changes nothing here re-renders nothing. Without settings (still
 * loading, or unreadable) nothing fails here: the server checks again on confirmation.
 */
export function useRuleFailures({ apiVersion, model, fields, initial }: Options) {
  const settings = useQuery(modelSettingsQueryOptions(apiVersion, model));
  const rules = settings.data?.rules;
  // The latest corrections: read when the rules change, never rendered.
  const edits = useRef(initial);
  const [failures, setFailures] = useState<RuleFailure[]>([]);

  const check = useCallback(
    (next: Edits) => {
      const found = rules && rules.length > 0 ? evaluateRules(buildReviewTree(fields, next), rules) : [];
      setFailures((previous) => (JSON.stringify(previous) === JSON.stringify(found) ? previous : found));
    },
    [fields, rules],
  );

  // The rules arrived or changed: check the corrections as they are.
  useEffect(() => check(edits.current), [check]);

  const onEdits = useCallback(
    (next: Edits) => {
      edits.current = next;
      check(next);
    },
    [check],
  );
  const marks: RuleMarks = useMemo(() => ruleMarks(failures), [failures]);
  return { failures, marks, onEdits };
}
