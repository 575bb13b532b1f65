/**
 * Photos taken sideways (a v2 result says nothing of a page's turn) shown upright, as the page's text
 * says they are turned: the app server reads a picture's words upright and tells its turn with them
 * (`turn` of the page words). The review then shows the page turned like a v1 page stored turned
 * (turned-bitmap.ts) and turns the result's polygons, which stay in the picture's own frame (the v2
 * frame), with it; a pick's region is turned back into that frame before it is kept (pick/use-pick.ts).
 */
import { useQueries, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { FieldLeaf } from '@extraction-review/review-domain/fields/flatten-fields';
import { rotatePolygon, type Rotation } from '@extraction-review/review-domain/viewer/geometry';
import type { PageWordsSource } from '../pick/pick-context';
import { detectDocumentKind } from './document-kind';

/** Pictures past this page are shown as stored: a long TIFF should not wait for OCR of every page. */
export const MAX_TURNED_PAGES = 30;

interface Picture {
  file: Blob;
  mimeType: string | null;
}

/**
 * Per page, the turn that shows a picture document upright, once the server has read its pages (each
 * page as stored meanwhile: 0); undefined for a PDF, without a source, or when nothing is turned.
 */
export function usePhotoTurns(
  document: Picture | null,
  source: PageWordsSource | null,
  pageCount: number,
): Rotation[] | undefined {
  const turn = source?.turn;
  const kind = useQuery({
    queryKey: ['document-kind', document?.file ?? null, document?.mimeType ?? null],
    queryFn: () => (document ? detectDocumentKind(document.file, document.mimeType ?? undefined) : null),
    enabled: document !== null && turn !== undefined,
    staleTime: Infinity,
  });
  const picture = kind.data?.kind === 'image' || kind.data?.kind === 'tiff';
  const pages = picture ? Math.min(Math.max(pageCount, 1), MAX_TURNED_PAGES) : 0;
  const turns = useQueries({
    queries: Array.from({ length: pages }, (_, page) => ({
      queryKey: [...(source?.key ?? ['no-words']), 'turn', page] as const,
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        turn ? turn(page, signal) : Promise.resolve<Rotation>(0),
      staleTime: Infinity,
      retry: 1,
    })),
  });
  const found = turns.map((t) => t.data ?? 0);
  const key = found.join(',');
  // A new array only when a turn changes: the viewer lays its pages out again for it.
  return useMemo(
    () => (found.some((t) => t !== 0) ? found : undefined),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` is `found`'s content
    [key],
  );
}

/** The leaves with their regions turned as their pages are shown (polygons of the stored frame). */
export function turnLeaves(leaves: FieldLeaf[], turns: readonly Rotation[] | undefined): FieldLeaf[] {
  if (!turns) return leaves;
  return leaves.map((leaf) => ({
    ...leaf,
    locations: leaf.locations.map((l) => ({
      ...l,
      polygon: rotatePolygon(l.polygon, turns[l.page] ?? 0).map(([x, y]) => [x, y] as [number, number]),
    })),
  }));
}
