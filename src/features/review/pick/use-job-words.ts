import { useMemo } from 'react';
import type { ApiVersion } from '@extraction-review/contract/review/schemas';
import type { PageWordsSource } from './pick-context';
import { jobWordsSource } from './words-sources';

/**
 * The words of a job's pages for its review (`ReviewView`'s `pageWords`), one source per job so that
 * the pages' words stay cached while the review lasts.
 */
export function useJobWords(apiVersion: ApiVersion, jobId: string): PageWordsSource {
  return useMemo(() => jobWordsSource(apiVersion, jobId), [apiVersion, jobId]);
}
