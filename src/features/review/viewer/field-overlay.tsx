import { memo, useId, useMemo, type PointerEvent, type MouseEvent } from 'react';
import { boundingBox, growBox, toSvgPoints } from '@extraction-review/review-domain/viewer/geometry';
import { useTitleOf } from '../field-titles';
import { rowOf, rowRegion, type Region } from './field-regions';
import { useHighlight, useHighlighted } from './highlight-store';

interface Props {
  regions: readonly Region[];
  pageLabel: string;
  onFieldHover: (path: string | null) => void;
  onFieldSelect: (path: string) => void;
}

const pathOf = (target: EventTarget | null): string | null =>
  target instanceof Element
    ? (target.closest('[data-field-path]')?.getAttribute('data-field-path') ?? null)
    : null;

/**
 * The field polygons of one page: one SVG in normalised units over the page box, so zoom and
 * rotation change the box and never the points. Pointer events are handled once here for every
 * polygon; each polygon follows its own highlight state (see highlight-store.ts).
 *
 * The highlight itself is drawn by a second, small SVG on a compositor layer of its own: a page of
 * thousands of polygons is then never painted again on hover (changing one polygon's look makes
 * the browser raster the whole polygon layer again, ~60 ms for 2,000 polygons in software).
 */
export const FieldOverlay = memo(function FieldOverlay({
  regions,
  pageLabel,
  onFieldHover,
  onFieldSelect,
}: Props) {
  if (regions.length === 0) return null;
  const onPointerOver = (e: PointerEvent<SVGSVGElement>) => {
    const path = pathOf(e.target);
    if (path !== null) onFieldHover(path);
  };
  const onPointerOut = (e: PointerEvent<SVGSVGElement>) => {
    // Moving straight onto another polygon: its pointerover sets the hover.
    if (pathOf(e.relatedTarget) === null) onFieldHover(null);
  };
  const onClick = (e: MouseEvent<SVGSVGElement>) => {
    const path = pathOf(e.target);
    if (path !== null) onFieldSelect(path);
  };
  return (
    <>
      <svg
        className="field-overlay"
        viewBox="0 0 1 1"
        preserveAspectRatio="none"
        role="group"
        aria-label={`Field locations on ${pageLabel}`}
        onPointerOver={onPointerOver}
        onPointerOut={onPointerOut}
        onClick={onClick}
      >
        {regions.map((region) => (
          <FieldPolygon key={region.key} region={region} />
        ))}
      </svg>
      <FieldHighlight regions={regions} />
    </>
  );
});

/**
 * The hovered and selected fields' polygons, drawn again on top: a light tint inside, and a wide
 * outline kept outside by a mask, so that the word under a tight polygon stays legible. A selected
 * value of a table row also shows its row: a box around the row's values on the page.
 */
function FieldHighlight({ regions }: { regions: readonly Region[] }) {
  const { hovered, selected } = useHighlighted();
  const id = useId();
  const shown = useMemo(
    () => regions.filter((r) => r.leaf.path === hovered || r.leaf.path === selected),
    [regions, hovered, selected],
  );
  const row = rowOf(selected);
  const rowBox = useMemo(() => rowRegion(regions, row), [regions, row]);
  return (
    <svg className="field-highlight" viewBox="0 0 1 1" preserveAspectRatio="none" aria-hidden="true">
      {rowBox && row && (
        <rect
          className="row-region"
          data-row={row}
          x={rowBox.x0 - ROW_MARGIN}
          y={rowBox.y0 - ROW_MARGIN}
          width={rowBox.x1 - rowBox.x0 + 2 * ROW_MARGIN}
          height={rowBox.y1 - rowBox.y0 + 2 * ROW_MARGIN}
        />
      )}
      {shown.map((region, i) => {
        const points = toSvgPoints(region.polygon);
        const mask = `${id}-${i}`;
        // The mask only as large as the outline needs: the layer then repaints no more than that.
        const area = growBox(boundingBox(region.polygon), 0.03);
        return (
          <g
            key={region.key}
            data-confidence={region.leaf.confidence ?? 'none'}
            data-hovered={region.leaf.path === hovered ? 'true' : undefined}
            data-selected={region.leaf.path === selected ? 'true' : undefined}
          >
            <mask
              id={mask}
              maskUnits="userSpaceOnUse"
              x={area.x0}
              y={area.y0}
              width={area.x1 - area.x0}
              height={area.y1 - area.y0}
            >
              <rect
                x={area.x0}
                y={area.y0}
                width={area.x1 - area.x0}
                height={area.y1 - area.y0}
                fill="white"
              />
              <polygon points={points} fill="black" />
            </mask>
            <polygon className="halo" points={points} mask={`url(#${mask})`} />
            <polygon className="tint" points={points} />
          </g>
        );
      })}
    </svg>
  );
}

/** Room around a row's values, in page widths: the box does not run through the letters. */
const ROW_MARGIN = 0.004;

const FieldPolygon = memo(function FieldPolygon({ region }: { region: Region }) {
  const { leaf } = region;
  const highlight = useHighlight(leaf.path);
  // Named as the value's row is (its title, not the API path, which stays in data-field-path).
  const title = useTitleOf()(leaf.path);
  const value = leaf.value === null || leaf.value === '' ? 'no value' : String(leaf.value);
  const confidence = leaf.confidence ? ` (${leaf.confidence.toLowerCase()} confidence)` : '';
  return (
    <polygon
      role="img"
      aria-label={`${title}: ${value}${confidence}`}
      data-field-path={leaf.path}
      data-confidence={leaf.confidence ?? 'none'}
      data-hovered={highlight.includes('hovered') ? 'true' : undefined}
      data-selected={highlight.includes('selected') ? 'true' : undefined}
      data-active={highlight ? 'true' : undefined}
      className="field-polygon"
      points={toSvgPoints(region.polygon)}
    />
  );
});
