import { useEffect, useRef } from 'react';
import type { FieldLeaf } from '../fields/flatten-fields';
import { confidenceStyle, unknownConfidenceStroke } from '../confidence';
import { toSvgPoints, type Polygon } from './geometry';

export interface Region {
  key: string;
  leaf: FieldLeaf;
  polygon: Polygon;
}

interface Props {
  regions: Region[];
  hovered: string | null;
  selected: string | null;
  onFieldHover: (path: string | null) => void;
  onFieldSelect: (path: string) => void;
}

/**
 * The field polygons of one page: an SVG in normalised units laid over the page box, so zoom changes
 * the box and never the points. Each polygon is a DOM node with an accessible name.
 */
export function FieldOverlay({ regions, hovered, selected, onFieldHover, onFieldSelect }: Props) {
  return (
    <svg
      className="pointer-events-none absolute inset-0 z-10 size-full"
      viewBox="0 0 1 1"
      preserveAspectRatio="none"
      aria-label="Field locations"
      role="group"
    >
      {regions.map((r) => (
        <FieldPolygon
          key={r.key}
          region={r}
          hovered={hovered === r.leaf.path}
          selected={selected === r.leaf.path}
          onFieldHover={onFieldHover}
          onFieldSelect={onFieldSelect}
        />
      ))}
    </svg>
  );
}

interface PolygonProps {
  region: Region;
  hovered: boolean;
  selected: boolean;
  onFieldHover: (path: string | null) => void;
  onFieldSelect: (path: string) => void;
}

function FieldPolygon({ region, hovered, selected, onFieldHover, onFieldSelect }: PolygonProps) {
  const ref = useRef<SVGPolygonElement>(null);
  const { leaf } = region;
  const stroke = leaf.confidence ? confidenceStyle[leaf.confidence].stroke : unknownConfidenceStroke;
  const active = hovered || selected;

  useEffect(() => {
    if (selected) ref.current?.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'smooth' });
  }, [selected]);

  return (
    <polygon
      ref={ref}
      role="img"
      aria-label={`${leaf.path}: ${leaf.value ?? 'no value'}`}
      data-field-path={leaf.path}
      data-active={active ? 'true' : undefined}
      points={toSvgPoints(region.polygon)}
      className="field-polygon pointer-events-auto cursor-pointer"
      fill={stroke}
      fillOpacity={active ? 0.28 : 0.08}
      stroke={stroke}
      strokeWidth={active ? 3 : 1.5}
      onMouseEnter={() => onFieldHover(leaf.path)}
      onMouseLeave={() => onFieldHover(null)}
      onClick={() => onFieldSelect(leaf.path)}
    />
  );
}
