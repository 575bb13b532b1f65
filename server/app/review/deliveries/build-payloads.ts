/**
 * What a confirmed document sends on its way back (docs/gateway.md, "The way back"), built from the
 * stored result and the document's current corrections with the review's own pure modules, so that
 * what the app shows, exports and sends from the browser is what the server sends:
 *
 * - `readQueueResult` reads the stored result in the review's shape (a v1 document through the v1
 *   adapter), `draftFromServer` turns the store's corrections into the review's edits, `buildReviewTree`
 *   applies them;
 * - the **corrected result in the API's own shape**: v2, the stored inference response with
 *   `inference.result.fields` replaced by `correctedFields` (what "Export JSON" and "Send to RAG" send);
 *   v1, the stored document response with the corrected values written into the document-level
 *   `prediction` (locations and scores kept; removed items left out, added ones last);
 * - the **changed fields**: each corrected value (before: as extracted, after: as sent), each list item
 *   added or removed;
 * - v1 feedback: `toV1Feedback(nodes, 'PATCH')`, the fields changed against the prediction, as the
 *   review's feedback panel sends them;
 * - v2 RAG: `{ inference_id, fields }`, as the review's "Send to RAG" does.
 *
 * Pure: no I/O, and it never throws on what is stored (a result it cannot read is sent as stored,
 * with no changes listed and nothing for feedback or RAG).
 */
import type { V1Feedback } from '@extraction-review/contract/v1/schemas';
import type { FieldMap } from '@extraction-review/contract/v2/schemas';
import { correctedFields, exportValue } from '@extraction-review/review-domain/corrections/corrected-fields';
import { toV1Feedback } from '@extraction-review/review-domain/feedback/to-v1-feedback';
import {
  buildReviewTree,
  type ListNode,
  type ReviewNode,
  type SimpleNode,
} from '@extraction-review/review-domain/fields/review-tree';
import { draftFromServer } from '@extraction-review/review-domain/queue/corrections-sync';
import { readQueueResult } from '@extraction-review/review-domain/queue/read-queue-result';

export interface StoredDocument {
  apiVersion: 'v2' | 'v1';
  /** v2: the model id; v1: `account/name/vN`. */
  modelKey: string;
  upstreamJobId: string | null;
  /** v2: the inference id; v1: the document id. */
  upstreamResultId: string | null;
  /** The upstream's answer as stored (JSON text). */
  resultJson: string;
  /** The latest corrected value of each corrected path, as the store keeps them (`document.corrections`). */
  corrections: Readonly<Record<string, unknown>>;
}

export interface ChangedField {
  /** The review's path: `total_amount`, `supplier_address.city`, `line_items[2]`, `line_items[0].quantity`. */
  path: string;
  /** A value corrected, or a list item the operator added or removed. */
  change: 'corrected' | 'added' | 'removed';
  /** As extracted; null for an added item. An item's values as an object (or its one value). */
  before: unknown;
  /** As sent; null for a removed item. */
  after: unknown;
}

export interface DeliveryPayloads {
  /** The corrected result in the API's own shape: the stored answer, v2 `{ inference, … }`, v1 `{ document, … }`. */
  corrected: Record<string, unknown>;
  changedFields: ChangedField[];
  /** v1: the PATCH body of the changed fields; undefined when nothing v1 feedback can carry changed. */
  v1Feedback?: { feedback: V1Feedback };
  /** v2: the body of `POST /v2/extensions/rag/{model_id}/documents`; undefined without an inference id or fields. */
  v2Rag?: { inference_id: string; fields: FieldMap };
}

export function buildPayloads(stored: StoredDocument): DeliveryPayloads {
  const raw = parseObject(stored.resultJson);
  const read = readQueueResult({
    apiVersion: stored.apiVersion,
    result: raw,
    model: stored.modelKey,
    upstreamJobId: stored.upstreamJobId,
  });
  if (!read.ok || raw === undefined) return { corrected: raw ?? {}, changedFields: [] };

  const fields = read.review.response.inference.result.fields;
  const nodes = buildReviewTree(fields, draftFromServer(stored.corrections));
  const changedFields = changesOf(nodes);

  if (stored.apiVersion === 'v2') {
    const corrected = correctedFields(nodes);
    const inference = asObject(raw.inference);
    const result = asObject(inference.result);
    const payloads: DeliveryPayloads = {
      corrected: { ...raw, inference: { ...inference, result: { ...result, fields: corrected } } },
      changedFields,
    };
    if (stored.upstreamResultId !== null && Object.keys(corrected).length > 0)
      payloads.v2Rag = { inference_id: stored.upstreamResultId, fields: corrected };
    return payloads;
  }

  const plan = toV1Feedback(nodes, 'PATCH');
  const payloads: DeliveryPayloads = { corrected: correctedV1(raw, nodes), changedFields };
  if (Object.keys(plan.feedback).length > 0) payloads.v1Feedback = { feedback: plan.feedback };
  return payloads;
}

// ─── The webhook ───────────────────────────────────────────────────────────────────────────────────

/** Who confirmed, when and how: the `review` part of the webhook. */
export interface ReviewOutcome {
  documentId: string;
  integration: { id: string; name: string } | null;
  /** The operator's name; null when no operator did (an automatic confirmation). */
  confirmedBy: string | null;
  automatic: boolean;
  confirmedAt: number;
  /** Why a business rule that failed was overridden, when one was. */
  overrideReason: string | null;
}

export const WEBHOOK_EVENT = 'review.confirmed';

/**
 * The webhook's body: `event`, `review` (the outcome and the changed fields), and the corrected result
 * under the key the API itself uses, v2 `inference` (as in an ExtractionResponse), v1 `document` (as in a
 * v1 document response or webhook).
 */
export function webhookBody(
  apiVersion: 'v2' | 'v1',
  outcome: ReviewOutcome,
  payloads: Pick<DeliveryPayloads, 'corrected' | 'changedFields'>,
): Record<string, unknown> {
  const review: Record<string, unknown> = {
    document_id: outcome.documentId,
    integration: outcome.integration,
    outcome: 'confirmed',
    confirmed_by: outcome.confirmedBy,
    automatic: outcome.automatic,
    confirmed_at: new Date(outcome.confirmedAt).toISOString(),
    ...(outcome.overrideReason === null ? {} : { override_reason: outcome.overrideReason }),
    changed_fields: payloads.changedFields,
  };
  const key = apiVersion === 'v2' ? 'inference' : 'document';
  return { event: WEBHOOK_EVENT, review, [key]: payloads.corrected[key] ?? null };
}

// ─── What changed ────────────────────────────────────────────────────────────────────────────────────

function changesOf(nodes: readonly ReviewNode[]): ChangedField[] {
  const out: ChangedField[] = [];
  const walk = (node: ReviewNode): void => {
    if (node.kind === 'simple') {
      if (valueChanged(node))
        out.push({ path: node.path, change: 'corrected', before: node.original, after: exportValue(node) });
    } else if (node.kind === 'object') node.children.forEach(walk);
    else walkList(node);
  };
  const walkList = (list: ListNode): void => {
    for (const item of list.items) {
      // An item added then removed was never there.
      if (item.added && item.removed) continue;
      if (item.added) out.push({ path: item.path, change: 'added', before: null, after: sent(item.node) });
      else if (item.removed)
        out.push({ path: item.path, change: 'removed', before: extracted(item.node), after: null });
      else walk(item.node);
    }
  };
  nodes.forEach(walk);
  return out;
}

/** Compared as sent (numbers parsed, an emptied value null), as v1 feedback compares them. */
function valueChanged(node: SimpleNode): boolean {
  const after = exportValue(node);
  const before = exportValue({ type: node.type, value: node.original });
  return !(after === before || (Number.isNaN(after) && Number.isNaN(before)));
}

/** An item's values as extracted: its one value, or an object of its fields' values. */
function extracted(node: ReviewNode): unknown {
  if (node.kind === 'simple') return node.original;
  if (node.kind === 'object') return Object.fromEntries(node.children.map((c) => [c.name, extracted(c)]));
  return node.items.map((item) => extracted(item.node));
}

/** An item's values as sent. */
function sent(node: ReviewNode): unknown {
  if (node.kind === 'simple') return exportValue(node);
  if (node.kind === 'object') return Object.fromEntries(node.children.map((c) => [c.name, sent(c)]));
  return node.items.filter((item) => !item.removed).map((item) => sent(item.node));
}

// ─── v1: the corrected document ────────────────────────────────────────────────────────────────────

/**
 * The stored v1 answer with the corrected values in `document.inference.prediction` (the
 * document-level prediction, which the review shows; page-level predictions stay as extracted). A
 * field keeps its score, polygon and page; a custom API's field (`values`, its words) becomes one word
 * holding the corrected text. A document whose prediction is page-level only is sent as stored.
 */
function correctedV1(raw: Record<string, unknown>, nodes: readonly ReviewNode[]): Record<string, unknown> {
  const document = asObject(raw.document);
  const inference = asObject(document.inference);
  const prediction = asObject(inference.prediction);
  if (Object.keys(prediction).length === 0) return raw;
  const corrected: Record<string, unknown> = { ...prediction };
  for (const node of nodes) {
    if (!Object.hasOwn(prediction, node.name)) continue;
    corrected[node.name] = correctedV1Field(prediction[node.name], node);
  }
  return { ...raw, document: { ...document, inference: { ...inference, prediction: corrected } } };
}

function correctedV1Field(field: unknown, node: ReviewNode): unknown {
  switch (node.kind) {
    case 'simple': {
      if (!node.added && !valueChanged(node)) return field;
      const value = exportValue(node);
      const own = isObject(field) ? field : {};
      if (Array.isArray(own.values)) {
        const first = asObject(own.values[0]);
        const word = { ...first, content: value === null ? '' : String(value) };
        return { ...own, values: value === null ? [] : [word] };
      }
      return { ...own, value };
    }
    case 'object': {
      // `value` and each key (a locale's `currency`, an address's `city`) are sub-fields of one v1 field.
      const own: Record<string, unknown> = isObject(field) ? { ...field } : {};
      for (const child of node.children)
        if (child.kind === 'simple' && (child.added || valueChanged(child)))
          own[child.name] = exportValue(child);
      return own;
    }
    case 'list': {
      const extractedItems = Array.isArray(field) ? field : [];
      return node.items
        .filter((item) => !item.removed)
        .map((item) => correctedV1Field(item.added ? {} : extractedItems[item.index], item.node));
    }
  }
}

// ─── JSON ─────────────────────────────────────────────────────────────────────────────────────────

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asObject(value: unknown): Record<string, unknown> {
  return isObject(value) ? value : {};
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
