/**
 * How many values a result has, and how many of them need an operator's look: what the queue shows as
 * "the share of fields needing review". The rule is the review's (src/features/review/confidence.ts):
 * a v2 value needs review when its confidence is Medium, Low or missing; a v1 value when its numeric
 * confidence is below the High threshold (0.8 by default, V1_CONFIDENCE_THRESHOLDS) or missing.
 * Every simple value counts, inside objects and lists too.
 */
const V1_HIGH = 0.8;

export interface FieldCounts {
  fieldsTotal: number;
  fieldsToReview: number;
}

type Json = unknown;

const isObject = (value: Json): value is Record<string, Json> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** v2: `inference.result.fields`, each a simple field ({value, confidence}), an object or a list. */
function countV2Field(field: Json, counts: FieldCounts): void {
  if (!isObject(field)) return;
  if (Array.isArray(field.items)) {
    for (const item of field.items) countV2Field(item, counts);
    return;
  }
  if (isObject(field.fields)) {
    for (const sub of Object.values(field.fields)) countV2Field(sub, counts);
    return;
  }
  if ('value' in field) {
    counts.fieldsTotal += 1;
    const confidence = field.confidence;
    if (confidence == null || confidence === 'Medium' || confidence === 'Low') counts.fieldsToReview += 1;
  }
}

/** v1: `document.inference.prediction`, each a value object, a list of them, or an object of them. */
function countV1Value(value: Json, counts: FieldCounts): void {
  if (Array.isArray(value)) {
    for (const item of value) countV1Value(item, counts);
    return;
  }
  if (!isObject(value)) return;
  if ('value' in value || 'confidence' in value) {
    counts.fieldsTotal += 1;
    const confidence = value.confidence;
    if (typeof confidence !== 'number' || confidence < V1_HIGH) counts.fieldsToReview += 1;
    return;
  }
  for (const sub of Object.values(value)) countV1Value(sub, counts);
}

export function countFields(apiVersion: 'v2' | 'v1', result: Json): FieldCounts {
  const counts: FieldCounts = { fieldsTotal: 0, fieldsToReview: 0 };
  if (!isObject(result)) return counts;
  if (apiVersion === 'v2') {
    const fields =
      isObject(result.inference) && isObject(result.inference.result) ? result.inference.result.fields : null;
    if (isObject(fields)) for (const field of Object.values(fields)) countV2Field(field, counts);
  } else {
    const document = result.document;
    const prediction =
      isObject(document) && isObject(document.inference) ? document.inference.prediction : undefined;
    if (isObject(prediction)) for (const value of Object.values(prediction)) countV1Value(value, counts);
  }
  return counts;
}
