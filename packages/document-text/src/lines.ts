/**
 * Words → lines, in reading order. Both the raw text (`raw_text.pages[].content`) and the field
 * finder (labels and values sit on lines) work on these.
 */
import type { PageText, Word } from './extractor';
import {
  boxCenterY,
  boxHeight,
  heightInWidthUnits,
  horizontalGap,
  unionBox,
  verticalOverlap,
  type Box,
} from './geometry';

export interface Line {
  words: Word[];
  box: Box;
}

/** Words closer than this (in font heights) were one word split across runs, e.g. a bold "Total" and ":". */
const TOUCHING_GAP_EM = 0.1;
/** Two words share a line when their vertical extents overlap by at least this much of the shorter one. */
const SAME_LINE_OVERLAP = 0.5;

export function groupLines(page: PageText): Line[] {
  const aspect = page.height / page.width;
  const sorted = [...page.words].sort((a, b) => boxCenterY(a.box) - boxCenterY(b.box) || a.box.x0 - b.box.x0);
  const lines: { words: Word[]; box: Box }[] = [];
  for (const word of sorted) {
    // Words arrive top to bottom, so only the most recent lines can still take this one.
    const line = lines
      .slice(-3)
      .find(
        (l) =>
          verticalOverlap(l.box, word.box) >= SAME_LINE_OVERLAP &&
          Math.abs(boxCenterY(l.box) - boxCenterY(word.box)) <
            0.5 * Math.min(boxHeight(l.box), boxHeight(word.box)),
      );
    if (line) {
      line.words.push(word);
      line.box = unionBox([line.box, word.box]);
    } else {
      lines.push({ words: [word], box: word.box });
    }
  }
  return lines
    .map((line) => ({ box: line.box, words: mergeTouching(line.words, aspect) }))
    .sort((a, b) => a.box.y0 - b.box.y0 || a.box.x0 - b.box.x0);
}

function mergeTouching(words: Word[], aspect: number): Word[] {
  const out: Word[] = [];
  for (const word of [...words].sort((a, b) => a.box.x0 - b.box.x0)) {
    const last = out.at(-1);
    if (last && horizontalGap(last.box, word.box) < TOUCHING_GAP_EM * heightInWidthUnits(word.box, aspect)) {
      out[out.length - 1] = {
        text: last.text + word.text,
        box: unionBox([last.box, word.box]),
        // A merged word is only as sure as its least sure part.
        confidence: Math.min(last.confidence, word.confidence),
      };
    } else {
      out.push(word);
    }
  }
  return out;
}

/** The page's text as the API's raw text: words joined by spaces, lines by `\n`. */
export const linesToText = (lines: readonly Line[]): string =>
  lines.map((line) => line.words.map((w) => w.text).join(' ')).join('\n');
