/**
 * The review works on leaves: every simple value of the result, wherever it sits (top level, inside
 * an object, in a list, in an object inside a list), with a stable path that names it
 * (`total_amount`, `taxes[1].rate`, `supplier.address.city`). The path is the key of the
 * operator's corrections and of the highlighted polygon.
 */
import type { FieldConfidence, FieldLocation } from '@extraction-review/contract/v2/schemas';

export type LeafValue = string | number | boolean | null;

export interface FieldLeaf {
  path: string;
  /** The leaf's own name (the last path segment), or its list index. */
  name: string;
  value: LeafValue;
  confidence: FieldConfidence | null;
  locations: FieldLocation[];
}

type AnyField = {
  value?: unknown;
  fields?: Record<string, unknown> | null;
  items?: unknown[] | null;
  confidence?: FieldConfidence | null;
  locations?: FieldLocation[] | null;
};

export function flattenFields(fields: Record<string, unknown>): FieldLeaf[] {
  const leaves: FieldLeaf[] = [];
  for (const [name, field] of Object.entries(fields)) visit(name, name, field, leaves);
  return leaves;
}

function visit(path: string, name: string, raw: unknown, out: FieldLeaf[]): void {
  if (raw === null || typeof raw !== 'object') return;
  const field = raw as AnyField;
  if ('value' in field) {
    out.push({
      path,
      name,
      value: isLeafValue(field.value) ? field.value : JSON.stringify(field.value),
      confidence: field.confidence ?? null,
      locations: field.locations ?? [],
    });
  } else if (field.fields) {
    for (const [sub, child] of Object.entries(field.fields)) visit(`${path}.${sub}`, sub, child, out);
  } else if (field.items) {
    field.items.forEach((item, i) => visit(`${path}[${i}]`, `${name} ${i + 1}`, item, out));
  }
}

function isLeafValue(v: unknown): v is LeafValue {
  return v === null || ['string', 'number', 'boolean'].includes(typeof v);
}

/** Leaves whose polygons lie on a page (0-based), with the polygons of that page only. */
export function regionsOnPage(leaves: FieldLeaf[], page: number) {
  return leaves.flatMap((leaf) =>
    leaf.locations.flatMap((loc, i) =>
      loc.page === page ? [{ key: `${leaf.path}#${i}`, leaf, polygon: loc.polygon }] : [],
    ),
  );
}

/** The first page (0-based) where a leaf has a polygon, or null. */
export function firstPageOf(leaf: FieldLeaf): number | null {
  return leaf.locations.reduce<number | null>((min, l) => (min == null || l.page < min ? l.page : min), null);
}
