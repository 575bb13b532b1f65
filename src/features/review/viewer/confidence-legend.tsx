import type { CSSProperties } from 'react';
import {
  CONFIDENCE_LEVELS,
  confidenceStyle,
  unknownConfidenceDash,
  unknownConfidenceStroke,
} from '../confidence';

const LEVELS = [
  ...CONFIDENCE_LEVELS.map((level) => ({ key: level, label: level, ...confidenceStyle[level] })),
  {
    key: 'none',
    label: 'Not given',
    stroke: unknownConfidenceStroke,
    dash: unknownConfidenceDash,
    symbol: '○',
  },
];

/**
 * The polygons' palette as CSS custom properties, set once on the viewer (index.css draws the
 * polygons from them): one palette for the values list and the polygons (../confidence.ts).
 */
export const confidencePaletteVars = Object.fromEntries(
  LEVELS.flatMap(({ key, stroke, dash }) => [
    [`--confidence-${key}`, stroke],
    [`--confidence-${key}-dash`, dash ?? 'none'],
  ]),
) as CSSProperties;

/** What each outline means: colour, line pattern and name, so that colour is never the only cue. */
export function ConfidenceLegend() {
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-800">
      <span id="confidence-legend-title" className="font-medium">
        Confidence
      </span>
      <ul aria-labelledby="confidence-legend-title" className="flex flex-wrap gap-x-3 gap-y-1">
        {LEVELS.map(({ key, label, symbol }) => (
          <li key={key} className="flex items-center gap-1">
            <svg aria-hidden="true" width="28" height="12" viewBox="0 0 28 12" className="legend-sample">
              <rect x="1" y="2" width="26" height="8" data-confidence={key} />
            </svg>
            <span aria-hidden="true">{symbol}</span>
            {label}
          </li>
        ))}
      </ul>
    </div>
  );
}
