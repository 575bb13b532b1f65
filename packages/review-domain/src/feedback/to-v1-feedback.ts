/**
 * The review's fields and the operator's edits as a v1 feedback payload (`PUT`/`PATCH
 * /v1/documents/{id}/feedback`), in exactly the shape `V1FeedbackRequest` accepts (API-FACTS v1
 * "Feedback", packages/contract/src/v1/schemas.ts):
 *
 * - a simple field → `{ "value": <validated value> }`;
 * - a list field (line items, taxes, reference numbers) → an array with one object per item that is not
 *   removed: an item of keys (a line item) → `{ <key>: <value>, … }`, a plain item → `{ "value": … }`.
 *   v1 has no per-item feedback, so a list always goes whole, with every kept item;
 * - an object field (an address, v1-to-review.ts makes its `value` and its keys sub-fields) →
 *   `{ "value": <its value> }`: `V1FeedbackValue` is strict and takes nothing else, so the keys
 *   (`city`, a locale's `currency` …) cannot be sent, and an object field without a `value` (a locale) not
 *   at all. What the operator did to those is listed in `unsent` for the panel to say so.
 *
 * Which fields:
 * - PATCH (merged into what is stored): only the fields the operator changed against the prediction.
 * - PUT (replaces what is stored): every field the operator validated, changed or confirmed (Enter in the
 *   editor marks a value `reviewed` in the draft).
 *
 * "Changed" compares the value as it would be sent (`exportValue`: numbers parsed, an emptied value
 * null) with the prediction, so `335.180` typed over 335.18 is no change, and the same edits always make
 * the same payload (the server's answer is then the same: the request is idempotent).
 *
 * Pure: no I/O. The payload may be empty (nothing to send); the panel says why rather than sending it.
 */
import type { V1Feedback } from '@extraction-review/contract/v1/schemas';
import { FieldName } from '@extraction-review/contract/common-schemas';
import { exportValue } from '../corrections/corrected-fields';
import { isValidValue, type ListNode, type ReviewNode, type SimpleNode } from '../fields/review-tree';

export type FeedbackMethod = 'PATCH' | 'PUT';

type Scalar = string | number | boolean | null;
type FieldFeedback = V1Feedback[string];

export interface UnsentEdit {
  /** The edited or confirmed value's path (`locale.currency`). */
  path: string;
  reason: string;
}

export interface FeedbackPlan {
  method: FeedbackMethod;
  /** The body's `feedback`, in the review's field order; `{}` when there is nothing to send. */
  feedback: V1Feedback;
  /** Values the operator changed or confirmed that v1 feedback cannot carry. */
  unsent: UnsentEdit[];
  /** Values in the payload that are not valid for their type (text in a number field): fix before sending. */
  invalid: string[];
}

const OBJECT_KEYS_REASON =
  'v1 feedback takes only the value of an object field ({ "value": … }), not its other keys';
const NO_VALUE_REASON = 'this object field has no value of its own, and v1 feedback takes nothing else';
const NESTED_REASON = 'v1 feedback takes plain values in a list item, not nested fields';
const NAME_REASON = 'not a v1 field name (lowercase letters, digits and underscores)';

export function toV1Feedback(nodes: readonly ReviewNode[], method: FeedbackMethod): FeedbackPlan {
  const feedback: Record<string, FieldFeedback> = {};
  const unsent: UnsentEdit[] = [];
  const sentNodes: SimpleNode[] = [];
  const wanted = method === 'PATCH' ? isChanged : isValidated;

  for (const node of nodes) {
    if (!wanted(node)) continue;
    if (!FieldName.safeParse(node.name).success) {
      unsent.push({ path: node.path, reason: NAME_REASON });
      continue;
    }
    switch (node.kind) {
      case 'simple':
        feedback[node.name] = { value: exportValue(node) };
        sentNodes.push(node);
        break;
      case 'object': {
        const value = node.children.find((c): c is SimpleNode => c.kind === 'simple' && c.name === 'value');
        // Only the keys the operator touched are worth a word; the others were never meant to be sent.
        for (const child of node.children)
          if (child !== value)
            unsent.push(...touched(child, method, value ? OBJECT_KEYS_REASON : NO_VALUE_REASON));
        if (value && wanted(value)) {
          feedback[node.name] = { value: exportValue(value) };
          sentNodes.push(value);
        }
        break;
      }
      case 'list': {
        const { items, sent, skipped } = listFeedback(node, method);
        feedback[node.name] = items;
        sentNodes.push(...sent);
        unsent.push(...skipped);
        break;
      }
    }
  }
  const invalid = sentNodes.filter((n) => !isValidValue(n)).map((n) => n.path);
  return { method, feedback, unsent, invalid };
}

function listFeedback(
  list: ListNode,
  method: FeedbackMethod,
): {
  items: Record<string, Scalar>[];
  sent: SimpleNode[];
  skipped: UnsentEdit[];
} {
  const items: Record<string, Scalar>[] = [];
  const sent: SimpleNode[] = [];
  const skipped: UnsentEdit[] = [];
  for (const { node, removed } of list.items) {
    if (removed) continue;
    if (node.kind === 'simple') {
      items.push({ value: exportValue(node) });
      sent.push(node);
      continue;
    }
    if (node.kind === 'list') {
      skipped.push(...touched(node, method, NESTED_REASON));
      continue;
    }
    const item: Record<string, Scalar> = {};
    for (const child of node.children) {
      if (child.kind === 'simple' && FieldName.safeParse(child.name).success) {
        item[child.name] = exportValue(child);
        sent.push(child);
      } else skipped.push(...touched(child, method, child.kind === 'simple' ? NAME_REASON : NESTED_REASON));
    }
    // `V1FeedbackListItem` needs at least one key: an item of nested fields only cannot be sent.
    if (Object.keys(item).length > 0) items.push(item);
  }
  return { items, sent, skipped };
}

/** The values under `node` the method would have sent (changed; for PUT, confirmed too), as unsent. */
function touched(node: ReviewNode, method: FeedbackMethod, reason: string): UnsentEdit[] {
  return simpleLeaves(node)
    .filter((n) => valueChanged(n) || (method === 'PUT' && n.reviewed))
    .map((n) => ({ path: n.path, reason }));
}

/** Changed against the prediction: a value, or a list's items (one removed, one added). */
function isChanged(node: ReviewNode): boolean {
  switch (node.kind) {
    case 'simple':
      return valueChanged(node);
    case 'object':
      return node.children.some(isChanged);
    case 'list':
      return node.items.some((item) => (item.removed ? !item.added : item.added || isChanged(item.node)));
  }
}

/** Changed, or confirmed by the operator somewhere inside (removed items aside). */
function isValidated(node: ReviewNode): boolean {
  return isChanged(node) || simpleLeaves(node).some((n) => n.reviewed);
}

function valueChanged(node: SimpleNode): boolean {
  // Both sides as they would be sent: an extracted `""` (an address's empty `state`) is null too.
  return node.added || !sameScalar(exportValue(node), exportValue({ type: node.type, value: node.original }));
}

function sameScalar(a: Scalar, b: Scalar): boolean {
  return a === b || (typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b));
}

function simpleLeaves(node: ReviewNode): SimpleNode[] {
  if (node.kind === 'simple') return [node];
  if (node.kind === 'object') return node.children.flatMap(simpleLeaves);
  return node.items.filter((i) => !i.removed).flatMap((i) => simpleLeaves(i.node));
}

// ─── Comparing with what is stored ─────────────────────────────────────────────────────────────────

/**
 * Whether sending `feedback` with `method` would leave the stored feedback as it is (so sending again
 * changes nothing): PATCH when every field sent is stored with the same value; PUT when, moreover, no
 * other field is stored (PUT would clear it). `stored` is the server's answer: every product field,
 * null where unset.
 */
export function isAlreadyStored(
  method: FeedbackMethod,
  feedback: V1Feedback,
  stored: Readonly<Record<string, unknown>>,
): boolean {
  const names = Object.keys(feedback);
  if (names.length === 0) return false;
  const same = names.every((name) => canonical(feedback[name]) === canonical(stored[name] ?? null));
  if (!same) return false;
  if (method === 'PATCH') return true;
  return Object.entries(stored).every(([name, value]) => value == null || Object.hasOwn(feedback, name));
}

/** JSON with object keys sorted: the server may answer the keys of an item in another order. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** The stored fields that hold something (the answer lists every field, null where unset). */
export function storedFields(stored: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(stored).filter(([, value]) => value != null));
}
