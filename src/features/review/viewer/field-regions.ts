import type { FieldLeaf } from '@extraction-review/review-domain/fields/flatten-fields';
import { isWithin } from '@extraction-review/review-domain/fields/review-tree';
import {
  boundingBox,
  polygonArea,
  type Box,
  type Polygon,
} from '@extraction-review/review-domain/viewer/geometry';

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

/**
 * The table row a value belongs to (`line_items[1]` for `line_items[1].description` or for
 * `line_items[1].origin.country`), or null for a value outside any row (an item of a list of plain
 * values is a row of one value: no row region for it).
 */
export function rowOf(path: string | null): string | null {
  if (path == null) return null;
  return /^(.*\[\d+\])\./.exec(path)?.[1] ?? null;
}

/**
 * The region of a row on one page: the box around the polygons of all its values there (the row as
 * the page prints it), or null when none of its values is on that page.
 */
export function rowRegion(regions: readonly Region[], row: string | null): Box | null {
  if (row == null) return null;
  let box: Box | null = null;
  for (const region of regions) {
    if (!isWithin(region.leaf.path, row) || region.polygon.length === 0) continue;
    const b = boundingBox(region.polygon);
    box = box
      ? {
          x0: Math.min(box.x0, b.x0),
          y0: Math.min(box.y0, b.y0),
          x1: Math.max(box.x1, b.x1),
          y1: Math.max(box.y1, b.y1),
        }
      : b;
  }
  return box;
}
