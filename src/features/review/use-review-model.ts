import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { modelSchemaQueryOptions } from '../../api/v2/model-schema';
import type { ExtractionResponse } from '@extraction-review/contract/v2/schemas';
import { needsReview } from './confidence';
import { countChanges } from '@extraction-review/review-domain/fields/corrections-reducer';
import {
  buildReviewTree,
  leavesOf,
  NO_EDITS,
  simpleNodes,
  type SimpleNode,
} from '@extraction-review/review-domain/fields/review-tree';
import { schemaHints } from '@extraction-review/review-domain/fields/schema-hints';
import { useCorrections, type CorrectionsOptions } from './fields/use-corrections';

export interface ReviewModelOptions extends CorrectionsOptions {
  /** A saved result opened from files: no request at all, the values are typed as returned. */
  offline?: boolean | undefined;
}

/**
 * Everything the review derives from the result: the model's schema (for typed editors and the
 * classification values), the operator's corrections, the field tree with them applied, the leaves the
 * viewer draws, and which values still need review.
 */
export function useReviewModel(
  jobId: string,
  result: ExtractionResponse,
  { offline = false, ...correctionOptions }: ReviewModelOptions = {},
) {
  const { inference } = result;
  // A replaced data schema is not the model's: its fields would be typed by the wrong schema.
  const replaced = inference.active_options.data_schema.replace;
  // Offline (a saved result opened from files): no request at all, the values are typed as returned.
  const schema = useQuery({ ...modelSchemaQueryOptions(inference.model.id), enabled: !replaced && !offline });
  const hints = useMemo(() => schemaHints(schema.data?.data_schema.fields), [schema.data]);
  const { corrections, dispatch, storageError, ready } = useCorrections(jobId, result, correctionOptions);
  const fields = inference.result.fields;

  const nodes = useMemo(() => buildReviewTree(fields, corrections, hints), [fields, corrections, hints]);
  // The viewer redraws when the leaves change: they change with the list items, not with every keystroke.
  // Regions picked on the page replace the extracted ones: they change with a pick, not a keystroke.
  const { removed, added, locations } = corrections;
  const leaves = useMemo(
    () => leavesOf(buildReviewTree(fields, { ...NO_EDITS, removed, added, locations }, hints)),
    [fields, removed, added, locations, hints],
  );
  const values = useMemo(() => simpleNodes(nodes), [nodes]);

  return {
    schema,
    nodes,
    leaves,
    values,
    corrections,
    correct: dispatch,
    ready,
    storageError,
    changes: countChanges(corrections),
  };
}

/** Extracted values whose confidence calls for a person: Medium, Low, or unknown. */
export function isForReview(node: SimpleNode): boolean {
  return !node.added && needsReview(node.confidence);
}

/** Still to do: for review, and neither corrected nor confirmed yet. */
export function isStillToReview(node: SimpleNode): boolean {
  return isForReview(node) && !node.edited && !node.reviewed;
}
