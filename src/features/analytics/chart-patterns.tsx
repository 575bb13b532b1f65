/**
 * Fills that tell the series apart without colour: stripes, solid, dots, each a different lightness
 * too, so a greyscale print or a colour-blind reader still sees three kinds. Defined once per page in
 * a hidden SVG: `url(#…)` reaches them from every chart's SVG and legend of the document.
 */
export const FILLS = {
  /** Confirmed automatically. */
  stripes: 'url(#er-chart-stripes)',
  /** Confirmed by an operator; the one series of single-series charts. */
  solid: '#64748b',
  /** Rejected. */
  dots: 'url(#er-chart-dots)',
} as const;

export function ChartPatterns() {
  return (
    <svg width="0" height="0" aria-hidden="true" focusable="false" className="absolute">
      <defs>
        <pattern
          id="er-chart-stripes"
          width="8"
          height="8"
          patternUnits="userSpaceOnUse"
          patternTransform="rotate(45)"
        >
          <rect width="8" height="8" fill="#dbeafe" />
          <line x1="0" y1="0" x2="0" y2="8" stroke="#1d4ed8" strokeWidth="3" />
        </pattern>
        <pattern id="er-chart-dots" width="6" height="6" patternUnits="userSpaceOnUse">
          <rect width="6" height="6" fill="#fff7ed" />
          <circle cx="3" cy="3" r="1.6" fill="#9a3412" />
        </pattern>
      </defs>
    </svg>
  );
}
