/**
 * What picking needs across the review, handed down by context (the review view provides it; the
 * pages' pick layers and the value rows read it): where a page's words come from, the pick mode and
 * its selection, and what a pick does.
 */
import { createContext, useContext } from 'react';
import type { Rotation } from '@extraction-review/review-domain/viewer/geometry';
import type { SimpleNode } from '@extraction-review/review-domain/fields/review-tree';
import type { PageWord, WordInput } from './pick-words';
import type { Candidate } from './value-on-page';

/**
 * Where a page's words come from: the app server, which kept the file of every upload (a queue
 * document's by its id, a job's by its upstream job: words-sources.ts) and OCRs what has no text
 * layer; the review reads a PDF page's text layer itself first (text-layer-first.ts). Words are in
 * the frame of the page as the file shows it (the API's v2 frame); the pick layer turns them upright
 * for v1 pages stored turned.
 */
export interface PageWordsSource {
  /** Identifies the document in the query cache. */
  key: readonly unknown[];
  read: (page: number, signal: AbortSignal) => Promise<WordInput[]>;
  /**
   * The clockwise turn that shows a picture's page upright (a photo taken sideways, told by the
   * direction of its text: the app server's OCR), where the source can tell.
   */
  turn?: ((page: number, signal: AbortSignal) => Promise<Rotation>) | undefined;
}

export interface PickSelection {
  page: number;
  /** Where a shift-click or Shift+arrow extends from. */
  anchor: PageWord | null;
  /** The keyboard's word. */
  cursor: PageWord | null;
  /** Picked, or about to be with Enter. */
  words: readonly PageWord[];
}

export interface PickContextValue {
  source: PageWordsSource | null;
  /** Per page, the clockwise turn that shows the stored page upright (v1; a v2 photo taken sideways). */
  pageTurns: readonly Rotation[] | undefined;
  /** Pick mode is on and a value is selected: clicks on a page pick words. */
  active: boolean;
  /** The operator's view rotation: a click's screen position is read through it. */
  rotation: Rotation;
  selection: PickSelection | null;
  /** The page in view: a value with no location is checked against it. */
  pageInView: number;
  /** A candidate offered for a typed value not on the page: its value and its region. */
  onChooseCandidate: (node: SimpleNode, candidate: Candidate) => void;
  /** The typed value is right although it is not on the page: confirmed, and recorded so. */
  onConfirmAnyway: (node: SimpleNode) => void;
  /** A click (with Shift: from the anchor) or a dragged box on a page. */
  onPointerPick: (
    page: number,
    picked: { word: PageWord; extend: boolean; pageWords: readonly PageWord[] } | { words: PageWord[] },
  ) => void;
}

export const PickContext = createContext<PickContextValue | null>(null);

export function usePickContext(): PickContextValue | null {
  return useContext(PickContext);
}
