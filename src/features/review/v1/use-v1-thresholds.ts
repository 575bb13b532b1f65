import { useQuery } from '@tanstack/react-query';
import { appConfigQueryOptions } from '../../../api/v2/app-events';
import type { ConfidenceThresholds } from '@extraction-review/review-domain/v1/v1-confidence';

/**
 * The operator's v1 confidence thresholds, from the app server (V1_CONFIDENCE_THRESHOLDS), or the
 * app's defaults when none are set or the server cannot say. `ready` is false until it is known, so
 * that levels are not shown once with the defaults and then changed under the operator's eyes.
 */
export function useV1Thresholds(): { ready: boolean; thresholds: ConfidenceThresholds | undefined } {
  const config = useQuery(appConfigQueryOptions());
  return {
    ready: !config.isPending,
    thresholds: config.data?.v1.confidenceThresholds ?? undefined,
  };
}
