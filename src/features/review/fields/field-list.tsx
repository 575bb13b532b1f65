import { memo } from 'react';
import { FieldNode } from './field-node';
import { FieldRow } from './field-row';
import type { ReviewNode, SimpleNode } from '@extraction-review/review-domain/fields/review-tree';

interface Props {
  nodes: ReviewNode[];
  /** When given, only these values, as one flat work list (the "needs review" filter). */
  filtered: SimpleNode[] | null;
}

/**
 * Every extracted value as a labelled control, grouped as the result nests them, or the filtered list.
 * Memoised: a hover or a selection elsewhere does not redraw the list (rows follow the highlight store).
 */
export const FieldList = memo(function FieldList({ nodes, filtered }: Props) {
  if (nodes.length === 0) {
    return <p className="text-sm text-slate-700">The model returned no fields for this document.</p>;
  }
  if (filtered) {
    if (filtered.length === 0) {
      return <p className="text-sm text-slate-700">No value needs review: every one is Certain or High.</p>;
    }
    return (
      <ul aria-label="Fields needing review" className="flex flex-col gap-1">
        {filtered.map((node) => (
          <FieldRow key={node.path} node={node} />
        ))}
      </ul>
    );
  }
  return (
    <ul aria-label="Fields" className="flex flex-col gap-1">
      {nodes.map((node) => (
        <FieldNode key={node.path} node={node} />
      ))}
    </ul>
  );
});
