import { useQuery } from '@tanstack/react-query';
import { useCallback, useRef, useState, type ReactNode } from 'react';
import { useSearchParams } from 'wouter';
import { uncheckedGateQueryOptions } from '../../../api/review/unchecked-gate-endpoints';
import type { ApiVersion } from '@extraction-review/contract/review/schemas';
import type { FieldMap } from '@extraction-review/contract/v2/schemas';
import { buildReviewTree, type Edits } from '@extraction-review/review-domain/fields/review-tree';
import { uncheckedNodes } from '@extraction-review/review-domain/rules/unchecked-values';
import { FIELD_PARAM } from '../use-field-url';
import { UncheckedDialog, type UncheckedValue } from './unchecked-dialog';

interface Options {
  apiVersion: ApiVersion;
  model: string;
  fields: FieldMap;
  /** The corrections the review starts from. */
  initial: Edits;
}

/** Confirms, with how many unchecked values the operator was told of (none: undefined). */
export type Proceed = (uncheckedConfirmed?: number) => void;

export interface UncheckedGate {
  /** Every change of the corrections (kept, not rendered: counted when confirming). */
  onEdits: (edits: Edits) => void;
  /**
   * Before a confirmation (a button, Ctrl+Enter, "Confirm and next"): with no unchecked value,
   * `proceed()` at once; else the question, and `proceed(n)` on "Confirm anyway".
   */
  guard: (proceed: Proceed) => void;
  /** The question, to render once. */
  dialog: ReactNode;
}

/**
 * The unchecked-values gate of the review (packages/contract/src/review/unchecked-gate.ts): confirming
 * a document whose values at Medium, Low or no confidence nobody confirmed or corrected asks once,
 * "N values not checked: Review them / Confirm anyway"; "Review them" selects the first. Strict (the
 * model's admin said so), "Confirm anyway" is not offered; the server refuses such a confirmation
 * too (422-014). While the gate is not read yet it asks (the safer reading).
 */
export function useUncheckedGate({ apiVersion, model, fields, initial }: Options): UncheckedGate {
  const gate = useQuery(uncheckedGateQueryOptions(apiVersion, model));
  const strict = gate.data?.strict ?? false;
  const edits = useRef(initial);
  const [asking, setAsking] = useState<{ values: UncheckedValue[]; proceed: Proceed } | null>(null);
  const [, setParams] = useSearchParams();

  const onEdits = useCallback((next: Edits) => {
    edits.current = next;
  }, []);

  const guard = useCallback(
    (proceed: Proceed) => {
      // By path: the dialog names them as the review's rows do (field-titles.ts).
      const values = uncheckedNodes(buildReviewTree(fields, edits.current)).map((n) => ({ path: n.path }));
      if (values.length === 0) proceed();
      else setAsking({ values, proceed });
    },
    [fields],
  );

  const first = asking?.values[0]?.path;
  const dialog = (
    <UncheckedDialog
      values={asking?.values ?? null}
      strict={strict}
      onClose={() => setAsking(null)}
      onReview={() => {
        if (first === undefined) return;
        // The review follows the URL's field (use-field-url.ts): selected, scrolled to, its page shown.
        setParams(
          (previous) => {
            const next = new URLSearchParams(previous);
            next.set(FIELD_PARAM, first);
            return next;
          },
          { replace: true },
        );
      }}
      onConfirmAnyway={() => asking?.proceed(asking.values.length)}
    />
  );
  return { onEdits, guard, dialog };
}
