/**
 * The result's `fields` with the operator's corrections applied, in the API's own shape (a `value` for
 * a simple field, `fields` for an object, `items` for a list): what "Export JSON" downloads and what
 * "Send to RAG" sends.
 *
 * - A corrected value replaces the extracted one; its locations and confidence stay as extracted (they
 *   say where the value was read and how sure the service was, which stays true of the place).
 * - Numbers typed by the operator become numbers; text that is not a number stays as typed (the review
 *   flags it, see `invalidValues`). An emptied value is `null`.
 * - Removed list items are left out; added ones come last, with no locations and a null confidence.
 */
import type { FieldMap, FieldResult } from '@extraction-review/contract/v2/schemas';
import {
  isValidValue,
  parseNumber,
  simpleNodes,
  type ReviewNode,
  type SimpleNode,
} from '../fields/review-tree';

export function correctedFields(nodes: readonly ReviewNode[]): FieldMap {
  return Object.fromEntries(nodes.map((node) => [node.name, toField(node)]));
}

function toField(node: ReviewNode): FieldResult {
  switch (node.kind) {
    case 'simple':
      return { value: exportValue(node), locations: node.locations, confidence: node.confidence };
    case 'object':
      return {
        fields: Object.fromEntries(node.children.map((child) => [child.name, toField(child)])),
        locations: node.locations,
        confidence: node.confidence,
      };
    case 'list':
      return {
        items: node.items.filter((item) => !item.removed).map((item) => toField(item.node)),
        confidence: node.confidence,
      };
  }
}

export function exportValue(node: Pick<SimpleNode, 'type' | 'value'>): string | number | boolean | null {
  const { value } = node;
  if (typeof value !== 'string') return value;
  if (value.trim() === '') return null;
  if (node.type === 'number') return parseNumber(value) ?? value;
  return value;
}

/** Values that do not fit their type (a number field holding `12,5`): to fix before sending. */
export function invalidValues(nodes: readonly ReviewNode[]): SimpleNode[] {
  return simpleNodes(nodes).filter((node) => !isValidValue(node));
}
