/**
 * The values nobody checked: extracted at Medium, Low or no confidence (what is meant for a human's
 * look, src/features/review/confidence.ts `needsReview`) and neither confirmed (`reviewed`) nor
 * corrected or picked (`edited`) by the operator. Values of removed list items are not counted (they
 * go nowhere), nor those of items the operator added (they typed them). The review asks before
 * confirming a document with some, and the app server refuses one when the model's gate is strict:
 * both count them here, on the same tree (rules/document-nodes.ts on the server).
 */
import type { FieldConfidence } from '@extraction-review/contract/v2/schemas';
import type { ReviewNode, SimpleNode } from '../fields/review-tree';

function needsLook(confidence: FieldConfidence | null): boolean {
  return confidence == null || confidence === 'Medium' || confidence === 'Low';
}

/** The unchecked values, in the order the review shows them. */
export function uncheckedNodes(nodes: readonly ReviewNode[]): SimpleNode[] {
  const out: SimpleNode[] = [];
  const visit = (node: ReviewNode) => {
    if (node.added) return;
    if (node.kind === 'simple') {
      if (needsLook(node.confidence) && !node.reviewed && !node.edited) out.push(node);
    } else if (node.kind === 'object') node.children.forEach(visit);
    else for (const item of node.items) if (!item.removed) visit(item.node);
  };
  nodes.forEach(visit);
  return out;
}

/** The paths of the unchecked values, in the order the review shows them. */
export function uncheckedValues(nodes: readonly ReviewNode[]): string[] {
  return uncheckedNodes(nodes).map((node) => node.path);
}
