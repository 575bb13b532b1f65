import { useQueries, useQuery } from '@tanstack/react-query';
import { rotatePolygon, type Rotation } from '@extraction-review/review-domain/viewer/geometry';
import type { PageWordsSource } from './pick-context';
import { toPageWords, type PageWord } from './pick-words';

/**
 * A page's words ready for picking: upright (turned with a v1 page stored turned, through the
 * geometry module) and in reading order. Read once per page and kept for the session: a page's words
 * do not change.
 */
export function pageWordsQuery(source: PageWordsSource | null, page: number, turn: Rotation, enabled = true) {
  return {
    queryKey: [...(source?.key ?? ['no-words']), 'words', page, turn] as const,
    queryFn: async ({ signal }: { signal: AbortSignal }): Promise<PageWord[]> => {
      if (!source) return [];
      const words = await source.read(page, signal);
      return toPageWords(words.map((w) => ({ text: w.text, polygon: rotatePolygon(w.polygon, turn) })));
    },
    enabled: enabled && source !== null,
    staleTime: Infinity,
    gcTime: 30 * 60 * 1000,
    retry: 1,
  };
}

export function usePageWords(
  source: PageWordsSource | null,
  page: number,
  pageTurns: readonly Rotation[] | undefined,
  enabled = true,
) {
  return useQuery(pageWordsQuery(source, page, pageTurns?.[page] ?? 0, enabled));
}

/** Several pages' words (the pages a value is checked against). */
export function usePagesWords(
  source: PageWordsSource | null,
  pages: readonly number[],
  pageTurns: readonly Rotation[] | undefined,
  enabled = true,
) {
  return useQueries({
    queries: pages.map((page) => pageWordsQuery(source, page, pageTurns?.[page] ?? 0, enabled)),
  });
}
