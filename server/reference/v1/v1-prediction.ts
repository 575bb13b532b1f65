/**
 * A model's extraction (v2 field results) restated as a v1 product's prediction: the reverse of
 * evaluate/v1-reference.ts, driven by the product's field list in the models file.
 *
 * - A simple field → `{ value, confidence, polygon, page_id }`; a list of them → an array of such.
 * - An object field (an address, the locale) → its `keys` as flat keys of one object, plus its
 *   confidence and polygon; a list of objects (taxes, line items) → an array of such objects.
 * - Confidence: v1 gives a number. The field finder's answer is one of four levels, so each level is
 *   written as a number inside its band (docs/reference-fields.md has the thresholds); a field not
 *   found has confidence 0, as the hosted service answers.
 * - Polygons are turned into the upright frame of their page (upright-polygons.ts).
 */
import type {
  FieldConfidence,
  FieldLocation,
  FieldResult,
  ObjectFieldResult,
  SimpleFieldResult,
} from '@extraction-review/document-text/api-types';
import { boxAroundPoints, boxToPolygon, type Polygon } from '@extraction-review/document-text/geometry';
import type { Orientation } from '@extraction-review/document-text/ocr/orientation';
import type { V1Field, V1Product } from '../models/model-catalog';
import { turnPolygon } from './upright-polygons';

export type V1Value = string | number | boolean | null;

/** One field of a v1 prediction: `value` and the other keys, `confidence`, `polygon`, `page_id`. */
export interface V1FieldJson {
  [key: string]: V1Value | Polygon | undefined;
  confidence: number;
  polygon: Polygon;
  page_id: number | null;
}

export type V1PredictionJson = Record<string, V1FieldJson | V1FieldJson[]>;

/** Inside each level's band (confidence.ts THRESHOLDS: Certain ≥ 0.95, High ≥ 0.8, Medium ≥ 0.55). */
const LEVEL_SCORE: Record<FieldConfidence, number> = { Certain: 0.99, High: 0.9, Medium: 0.7, Low: 0.4 };

const score = (level: FieldConfidence | null, found: boolean): number =>
  found && level !== null ? LEVEL_SCORE[level] : 0;

export interface PredictionPages {
  /** Per page, the clockwise rotation that makes it upright (null: not known, left as it is). */
  orientations: readonly (Orientation | null)[];
}

/** The document-level prediction of `product` from the model's fields. */
export function toV1Prediction(
  product: V1Product,
  fields: Readonly<Record<string, FieldResult>>,
  pages: PredictionPages,
): V1PredictionJson {
  return Object.fromEntries(
    product.fields.map((spec) => [spec.name, convertField(spec, fields[spec.from], pages)]),
  );
}

/**
 * The prediction of one page: each field as found on that page, or empty when it was found elsewhere;
 * list fields keep the items found on that page (how the hosted service fills `pages[].prediction`).
 */
export function pagePrediction(document: V1PredictionJson, page: number): V1PredictionJson {
  return Object.fromEntries(
    Object.entries(document).map(([name, field]) => [
      name,
      Array.isArray(field) ? field.filter((item) => item.page_id === page) : onPage(field, page),
    ]),
  );
}

function onPage(field: V1FieldJson, page: number): V1FieldJson {
  if (field.page_id === page) return field;
  const empty: V1FieldJson = { confidence: 0, polygon: [], page_id: null };
  for (const key of Object.keys(field)) {
    if (!(key in empty)) empty[key] = null;
  }
  return empty;
}

function convertField(
  spec: V1Field,
  field: FieldResult | undefined,
  pages: PredictionPages,
): V1FieldJson | V1FieldJson[] {
  if (field && 'items' in field) {
    return field.items.map((item: FieldResult) => convertOne(spec, item, pages));
  }
  return convertOne(spec, field, pages);
}

function convertOne(spec: V1Field, field: FieldResult | undefined, pages: PredictionPages): V1FieldJson {
  if (field && 'fields' in field) return convertObject(spec, field, pages);
  const simple = field && 'value' in field ? field : undefined;
  const value = simple ? mapValue(spec, 'value', simple.value) : null;
  return {
    value,
    confidence: score(simple?.confidence ?? null, value !== null),
    ...place(simple?.locations ?? [], pages),
  };
}

function convertObject(spec: V1Field, field: ObjectFieldResult, pages: PredictionPages): V1FieldJson {
  const keys = spec.keys ?? Object.fromEntries(Object.keys(field.fields).map((name) => [name, name]));
  const out: Record<string, V1Value> = {};
  const locations: FieldLocation[] = [...field.locations];
  let found = false;
  for (const [key, from] of Object.entries(keys)) {
    const sub = field.fields[from];
    const value = sub && 'value' in sub ? mapValue(spec, key, sub.value) : null;
    if (sub && 'value' in sub) locations.push(...sub.locations);
    out[key] = value;
    if (value !== null) found = true;
  }
  return { ...out, confidence: score(field.confidence, found), ...place(locations, pages) };
}

/** Percent where v1 writes percent, classification values in v1's words. */
function mapValue(spec: V1Field, key: string, value: SimpleFieldResult['value']): V1Value {
  if (value === null) return null;
  if (typeof value === 'number' && spec.percent.includes(key)) return Math.round(value * 100 * 1e6) / 1e6;
  if (typeof value === 'string' && key === 'value' && spec.values) return spec.values[value] ?? value;
  return value;
}

/**
 * One polygon around the field's locations on its first page (a v1 field has one polygon and one
 * `page_id`), in that page's upright frame.
 */
function place(
  locations: readonly FieldLocation[],
  pages: PredictionPages,
): { polygon: Polygon; page_id: number | null } {
  const first = locations[0];
  if (!first) return { polygon: [], page_id: null };
  const points = locations.filter((l) => l.page === first.page).flatMap((l) => l.polygon);
  const polygon = boxToPolygon(boxAroundPoints(points, 1, 1));
  const degrees = pages.orientations[first.page] ?? 0;
  return { polygon: turnPolygon(polygon, degrees), page_id: first.page };
}
