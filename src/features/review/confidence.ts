import type { FieldConfidence } from '../../api/v2/schemas';

/**
 * The service's own colours (Certain blue, High green, Medium orange, Low red), always shown with
 * the level's name so that colour is never the only cue. Medium and Low are meant for human review.
 */
export const confidenceStyle: Record<FieldConfidence, { stroke: string; badge: string }> = {
  Certain: { stroke: '#1d4ed8', badge: 'bg-blue-100 text-blue-900 border-blue-300' },
  High: { stroke: '#15803d', badge: 'bg-green-100 text-green-900 border-green-300' },
  Medium: { stroke: '#c2410c', badge: 'bg-orange-100 text-orange-900 border-orange-300' },
  Low: { stroke: '#b91c1c', badge: 'bg-red-100 text-red-900 border-red-300' },
};

export const unknownConfidenceStroke = '#475569';
