import type { FieldLeaf } from '@extraction-review/review-domain/fields/flatten-fields';
import { polygonArea, type Polygon } from '@extraction-review/review-domain/viewer/geometry';

/** One polygon of one field on one page. */
export interface Region {
  key: string;
  leaf: FieldLeaf;
  polygon: Polygon;
}

const NONE: readonly Region[] = [];

/**
 * Every field's polygons grouped by page (0-based), in one pass over the leaves. Within a page the
 * larger polygons come first, so that a small one drawn over a large one (a cell over its table
 * row) stays on top and can be pointed at.
 */
export function regionsByPage(leaves: readonly FieldLeaf[]): (page: number) => readonly Region[] {
  const pages = new Map<number, { region: Region; area: number }[]>();
  for (const leaf of leaves) {
    leaf.locations.forEach((location, i) => {
      let list = pages.get(location.page);
      if (!list) pages.set(location.page, (list = []));
      list.push({
        region: { key: `${leaf.path}#${i}`, leaf, polygon: location.polygon },
        area: polygonArea(location.polygon),
      });
    });
  }
  const sorted = new Map<number, readonly Region[]>();
  for (const [page, list] of pages) {
    sorted.set(
      page,
      list.sort((a, b) => b.area - a.area).map((r) => r.region),
    );
  }
  return (page) => sorted.get(page) ?? NONE;
}

/** The first page (0-based) where a field has a polygon, with that polygon, or null. */
export function firstLocation(
  leaves: readonly FieldLeaf[],
  path: string,
): { page: number; polygon: Polygon } | null {
  const leaf = leaves.find((l) => l.path === path);
  if (!leaf || leaf.locations.length === 0) return null;
  const first = leaf.locations.reduce((a, b) => (b.page < a.page ? b : a));
  return { page: first.page, polygon: first.polygon };
}
