import type { FieldConfidence } from '@extraction-review/contract/v2/schemas';
import { confidenceStyle, unknownConfidenceStroke } from '../confidence';

interface Props {
  confidence: FieldConfidence | null;
  /** The symbol only (table cells): the level's name for screen readers and as a tooltip. */
  compact?: boolean;
}

/** A confidence level as a coloured shape and its name: never colour alone. */
export function ConfidenceBadge({ confidence, compact = false }: Props) {
  const label = confidence ?? 'Not given';
  const colour = confidence ? confidenceStyle[confidence].stroke : unknownConfidenceStroke;
  if (compact) {
    return (
      <span title={label} className="inline-flex shrink-0">
        <ConfidenceSymbol confidence={confidence} />
        <span className="sr-only">{label}</span>
      </span>
    );
  }
  return (
    <span
      className={`inline-flex items-center gap-1 rounded border-2 px-1.5 py-0.5 text-xs font-medium ${confidence ? confidenceStyle[confidence].badge : 'bg-white text-slate-900'}`}
      style={{ borderColor: colour }}
    >
      <ConfidenceSymbol confidence={confidence} />
      {label}
    </span>
  );
}

/** One shape per level (circle, triangle, diamond, square; a ring when unknown), outlined dark for contrast. */
export function ConfidenceSymbol({ confidence }: { confidence: FieldConfidence | null }) {
  const fill = confidence ? confidenceStyle[confidence].stroke : 'white';
  const common = { fill, stroke: '#1e293b', strokeWidth: 1 };
  return (
    <svg aria-hidden="true" viewBox="0 0 12 12" className="size-3 shrink-0">
      {confidence === 'Certain' && <circle cx="6" cy="6" r="5" {...common} />}
      {confidence === 'High' && <polygon points="6,1 11,11 1,11" {...common} />}
      {confidence === 'Medium' && <polygon points="6,0.5 11.5,6 6,11.5 0.5,6" {...common} />}
      {confidence === 'Low' && <rect x="1.5" y="1.5" width="9" height="9" {...common} />}
      {confidence == null && <circle cx="6" cy="6" r="4.5" {...common} strokeDasharray="2 1.5" />}
    </svg>
  );
}
