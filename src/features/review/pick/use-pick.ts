import { useCallback, useEffect, useMemo, useRef, useState, type Dispatch } from 'react';
import type { CorrectionsAction } from '@extraction-review/review-domain/fields/corrections-reducer';
import type { SimpleNode, TitleOf } from '@extraction-review/review-domain/fields/review-tree';
import { isTypingTarget } from '../keyboard/keymap';
import {
  rotatePolygon,
  toRotation,
  type Polygon,
  type Rotation,
} from '@extraction-review/review-domain/viewer/geometry';
import type { PageWordsSource, PickContextValue, PickSelection } from './pick-context';
import {
  joinWords,
  moveWord,
  runBetween,
  unionPolygon,
  wordsOfRegions,
  type PageWord,
  type WordMove,
} from './pick-words';
import { usePageWords } from './use-page-words';
import { typedValue } from './value-on-page';

interface Options {
  source: PageWordsSource | null;
  pageTurns: readonly Rotation[] | undefined;
  /**
   * Turns of pages shown upright whose result keeps polygons in the stored frame (a v2 photo taken
   * sideways, viewer/photo-turns.ts): a region picked on the upright page is turned back before it is kept.
   */
  storedTurns?: readonly Rotation[] | undefined;
  /** The selected value, when it is a simple one the operator may change. */
  node: SimpleNode | null;
  /** The page in view (the keyboard picks there). */
  page: number;
  rotation: Rotation;
  correct: Dispatch<CorrectionsAction>;
  onAnnounce: (message: string) => void;
  /** The values' titles: what the announcements name (the review's field-titles). */
  titleOf: TitleOf;
}

const MOVES: Record<string, WordMove> = {
  ArrowLeft: 'left',
  ArrowRight: 'right',
  ArrowUp: 'up',
  ArrowDown: 'down',
};

/**
 * Pick mode: with a value selected, a click on a word, Shift+click to extend, or a dragged box
 * fills the value with the text under it (typed for the field) and makes the words' region its
 * location. From the keyboard: `p` starts, arrows move between words (Shift extends), Enter takes,
 * Escape stops.
 */
export function usePick({
  source,
  pageTurns,
  storedTurns,
  node,
  page,
  rotation,
  correct,
  onAnnounce,
  titleOf,
}: Options) {
  const [on, setOn] = useState(false);
  const [selection, setSelection] = useState<PickSelection | null>(null);
  const active = on && node !== null && source !== null;
  // Asked for as soon as a value the operator may change is selected, not when pick mode starts: on
  // a scan or a photo the words come from OCR of the page (~0.5–1 s the first time), done meanwhile
  // and kept, so that the first pick (or the check of a typed value) does not wait for it.
  const pageWords = usePageWords(source, page, pageTurns, node !== null);

  const take = useCallback(
    (at: number, words: readonly PageWord[]) => {
      const polygon = unionPolygon(words);
      if (!node || !polygon) return;
      const text = joinWords(words);
      const value = typedValue(text, node.type, node.options);
      correct({
        type: 'set',
        path: node.path,
        value,
        original: node.original,
        location: [{ page: at, polygon: toStored(polygon, storedTurns?.[at] ?? 0) }],
      });
      onAnnounce(`${titleOf(node.path)}: ${String(value)}, picked on page ${at + 1}.`);
    },
    [node, correct, onAnnounce, storedTurns, titleOf],
  );

  const onPointerPick = useCallback<PickContextValue['onPointerPick']>(
    (at, picked) => {
      if ('words' in picked) {
        const first = picked.words[0] ?? null;
        setSelection({ page: at, anchor: first, cursor: first, words: picked.words });
        take(at, picked.words);
        return;
      }
      const { word, extend, pageWords: all } = picked;
      const anchor = extend && selection?.page === at && selection.anchor ? selection.anchor : word;
      const words = anchor === word ? [word] : runBetween(all, anchor, word);
      setSelection({ page: at, anchor, cursor: word, words });
      take(at, words);
    },
    [selection, take],
  );

  // The keys of pick mode come first (capture), before the review's own (arrows move between values).
  const keys = useRef<(e: KeyboardEvent) => void>(() => undefined);
  useEffect(() => {
    keys.current = (e) => {
      if (!active || e.ctrlKey || e.metaKey || e.altKey) return;
      if (isTypingTarget(e.target) || (e.target instanceof Element && e.target.closest('dialog[open]')))
        return;
      const words = pageWords.data ?? [];
      const move = MOVES[e.key];
      if (move) {
        const from = selection?.page === page ? selection.cursor : null;
        // The first key starts on the selected value's own words (its region on this page), not on
        // the page's first word: a value read nearly right is corrected from where it stands.
        const own =
          from || !node ? [] : wordsOfRegions(words, regionsOn(node, page, storedTurns?.[page] ?? 0));
        if (own.length > 0) {
          setSelection({ page, anchor: own[0] ?? null, cursor: own[own.length - 1] ?? null, words: own });
          e.preventDefault();
          e.stopPropagation();
          return;
        }
        const cursor = moveWord(words, from, move);
        if (!cursor) return;
        const anchor = e.shiftKey && selection?.page === page && selection.anchor ? selection.anchor : cursor;
        setSelection({ page, anchor, cursor, words: runBetween(words, anchor, cursor) });
      } else if (e.key === 'Enter') {
        if (selection && selection.words.length > 0) take(selection.page, selection.words);
        else return;
      } else if (e.key === 'Escape') {
        setOn(false);
        onAnnounce('Picking stopped.');
      } else return;
      e.preventDefault();
      e.stopPropagation();
    };
  });
  useEffect(() => {
    if (!active) return;
    const onKeyDown = (e: KeyboardEvent) => keys.current(e);
    document.addEventListener('keydown', onKeyDown, { capture: true });
    return () => document.removeEventListener('keydown', onKeyDown, { capture: true });
  }, [active]);

  const toggle = useCallback(() => {
    if (!node) {
      onAnnounce('Select a value first, then pick it from the page.');
      return false;
    }
    onAnnounce(
      on
        ? 'Picking stopped.'
        : `Pick ${titleOf(node.path)} from the page: click a word, or use the arrows and Enter.`,
    );
    setOn(!on);
    setSelection(null);
    return true;
  }, [node, on, onAnnounce, titleOf]);

  const onChooseCandidate = useCallback<PickContextValue['onChooseCandidate']>(
    (target, candidate) => {
      correct({
        type: 'set',
        path: target.path,
        value: candidate.value,
        original: target.original,
        location: [
          { page: candidate.page, polygon: toStored(candidate.polygon, storedTurns?.[candidate.page] ?? 0) },
        ],
      });
      onAnnounce(`${titleOf(target.path)}: ${String(candidate.value)}, as on page ${candidate.page + 1}.`);
    },
    [correct, onAnnounce, storedTurns, titleOf],
  );
  const onConfirmAnyway = useCallback<PickContextValue['onConfirmAnyway']>(
    (target) => {
      correct({ type: 'confirm', path: target.path, notOnPage: { value: target.value } });
      onAnnounce(`${titleOf(target.path)} confirmed although it is not on the page.`);
    },
    [correct, onAnnounce, titleOf],
  );

  const context = useMemo<PickContextValue>(
    () => ({
      source,
      pageTurns,
      active,
      rotation,
      selection,
      pageInView: page,
      onPointerPick,
      onChooseCandidate,
      onConfirmAnyway,
    }),
    [source, pageTurns, active, rotation, selection, page, onPointerPick, onChooseCandidate, onConfirmAnyway],
  );
  return { context, on: active, available: source !== null, toggle, take };
}

/** A region of the upright page in the frame its page is stored in (turned back by `turn`). */
function toStored(polygon: Polygon, turn: Rotation): [number, number][] {
  return rotatePolygon(polygon, toRotation(360 - turn)).map(([x, y]) => [x, y] as [number, number]);
}

/** The value's regions on page `page` (picked or extracted), turned into the upright frame of the page's words. */
function regionsOn(node: SimpleNode, page: number, turn: Rotation) {
  return node.locations.filter((l) => l.page === page).map((l) => rotatePolygon(l.polygon, turn));
}
