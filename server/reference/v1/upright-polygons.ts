/**
 * Word boxes are found in the frame of the page as displayed (the file's own frame, PDF /Rotate and
 * EXIF applied). The v1 API says `is_rotation_applied: true` when polygons are in the upright frame,
 * the page turned clockwise by its `orientation.value`: this is the one place the reference service
 * turns points between the two.
 */
import type { Polygon } from '@extraction-review/document-text/geometry';
import type { Orientation } from '@extraction-review/document-text/ocr/orientation';

/** A normalised point of the displayed page, on the page turned clockwise by `degrees`. */
export function turnPoint([x, y]: readonly [number, number], degrees: Orientation): [number, number] {
  switch (degrees) {
    case 0:
      return [x, y];
    case 90:
      // The left edge becomes the top edge: top-left (0,0) ends top-right (1,0).
      return [1 - y, x];
    case 180:
      return [1 - x, 1 - y];
    case 270:
      return [y, 1 - x];
  }
}

export const turnPolygon = (polygon: Polygon, degrees: Orientation): Polygon =>
  polygon.map((point) => turnPoint(point, degrees));
