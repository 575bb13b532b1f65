import { useMemo } from 'react';
import type { ReviewDocument } from '@extraction-review/contract/review/schemas';
import { useV1Thresholds } from '../v1/use-v1-thresholds';
import {
  readQueueResult,
  type ReadQueueResult,
} from '@extraction-review/review-domain/queue/read-queue-result';

/**
 * The document's result in the review's shape, read once per result (the cache keeps the same
 * `result` object from one answer to the next while it is unchanged); null while there is none yet
 * (processing, failed) or the v1 grading thresholds are still being asked for.
 */
export function useQueueResult(
  document: Pick<ReviewDocument, 'apiVersion' | 'result' | 'model' | 'upstreamJobId'>,
): ReadQueueResult | null {
  const { ready, thresholds } = useV1Thresholds();
  const { apiVersion, result, model, upstreamJobId } = document;
  return useMemo(() => {
    if (result === null || (apiVersion === 'v1' && !ready)) return null;
    return readQueueResult({ apiVersion, result, model, upstreamJobId }, thresholds);
  }, [apiVersion, result, model, upstreamJobId, ready, thresholds]);
}
