/**
 * Where a nested object is printed: a block of lines. Either the block a label of the object opens
 * ("Bill to" and the lines under it, in its column, until a blank gap, another label or 8 lines), or
 * the block at the top of page 1 when the object's guidelines say so (a supplier's letterhead). Its
 * sub-fields are then looked for inside that block only.
 */
import type { Word } from '../extractor';
import { boxHeight, heightInWidthUnits, overlapsHorizontally, unionBox, type Box } from '../geometry';
import { LABEL_FACTOR, POSITION_FACTOR } from './confidence';
import { topSegment, type FinderContext } from './candidates';
import {
  MAX_WORD_GAP_EM,
  type AnyField,
  type DocumentIndex,
  type LabelMatch,
  type PageLayout,
  type TokenLine,
} from './document-index';
import { schemaHints } from './schema-hints';

export interface Region {
  page: PageLayout;
  /** The block's lines, top to bottom; each one segment of its line (one column). */
  lines: Word[][];
  /** How much the block's own evidence is worth (label strength × how it was found). */
  factor: number;
  source: 'label' | 'top';
}

/** A gap taller than this many line heights ends a block (a blank line). */
const BLOCK_GAP_LINES = 1.8;
const MAX_BLOCK_LINES = 8;

export function findRegion(
  ctx: FinderContext,
  field: AnyField,
  accepts?: (lines: Word[][]) => boolean,
): Region | undefined {
  const matches = ctx.index
    .labelMatches(field)
    .map((match) => ({ match, region: regionUnderLabel(ctx.index, match) }))
    .filter((m): m is { match: LabelMatch; region: Region } => m.region !== undefined)
    .sort(
      (a, b) =>
        b.region.factor - a.region.factor ||
        Number(b.match.colon) - Number(a.match.colon) ||
        a.match.at.page.index - b.match.at.page.index ||
        a.match.at.line.box.y0 - b.match.at.line.box.y0,
    );
  if (matches[0]) return matches[0].region;
  if (schemaHints(field).atTop) return regionAtTop(ctx, accepts);
  return undefined;
}

export function regionUnderLabel(index: DocumentIndex, match: LabelMatch): Region | undefined {
  const labelBox = index.labelBox(match);
  if (!labelBox) return undefined;
  // Text right of the label starts the block only when it belongs to it (a colon, no tab stop).
  const right = index.wordsRightOf(match);
  const last = match.at.line.words[match.end - 1];
  const first = right[0];
  const joined = match.colon || (last && first && index.gapEm(last, first, match.at.page) <= MAX_WORD_GAP_EM);
  const lines = walkBlock(index, match.at.page, match.at.lineIndex, labelBox, joined ? right : []);
  if (lines.length === 0) return undefined;
  return {
    page: match.at.page,
    lines,
    factor: LABEL_FACTOR[match.strength] * POSITION_FACTOR.block,
    source: 'label',
  };
}

/**
 * The block at the top of page 1 that starts with the first name-like text (candidates.ts
 * `topSegment`); with `accepts`, the first top block it accepts (an address block, when the first
 * text is a logo).
 */
export function regionAtTop(ctx: FinderContext, accepts?: (lines: Word[][]) => boolean): Region | undefined {
  const skip = new Set<Word>();
  let first: Region | undefined;
  for (let tries = 0; tries < 6; tries++) {
    const top = topSegment(ctx, skip);
    const page = ctx.index.pages[top?.page ?? 0];
    if (!top || !page) break;
    const lineIndex = page.lines.findIndex((l) => l.words.includes(top.words[0] as Word));
    const box = unionBox(top.words.map((w) => w.box));
    const lines = [top.words, ...walkBlock(ctx.index, page, lineIndex, box, [])];
    const region: Region = { page, lines, factor: POSITION_FACTOR.top, source: 'top' };
    first ??= region;
    if (!accepts || accepts(lines)) return region;
    lines.flat().forEach((w) => skip.add(w));
  }
  return first;
}

/** Whether a token line holds words of the region. */
export function regionScope(region: Region): (line: TokenLine) => boolean {
  const words = new Set(region.lines.flat());
  return (line) => line.page === region.page && line.line.words.some((w) => words.has(w));
}

/**
 * The lines under a start (a label, a name) in its column: the segment of each next line that
 * overlaps the column, until a blank gap, a label, or `MAX_BLOCK_LINES`. `first` is the text right
 * of the start on its own line, if any.
 */
function walkBlock(
  index: DocumentIndex,
  page: PageLayout,
  lineIndex: number,
  startBox: Box,
  first: Word[],
): Word[][] {
  const lines: Word[][] = first.length > 0 ? [first] : [];
  let last = first.length > 0 ? unionBox(first.map((w) => w.box)) : startBox;
  let column = unionBox([startBox, last]);
  const slack = heightInWidthUnits(startBox, page.aspect);
  for (const line of page.lines.slice(lineIndex + 1)) {
    if (lines.length >= MAX_BLOCK_LINES) break;
    const tooFar = (box: Box): boolean =>
      box.y0 - last.y1 > BLOCK_GAP_LINES * Math.max(boxHeight(last), boxHeight(box));
    const segment = index
      .segments(line, page)
      .find((s) => overlapsHorizontally(column, unionBox(s.map((w) => w.box)), slack));
    if (!segment) {
      if (tooFar(line.box)) break;
      continue;
    }
    const box = unionBox(segment.map((w) => w.box));
    if (tooFar(box)) break;
    // A stray mark (",", "|") is no line of the block, and does not end it.
    if (!segment.some((w) => /[\p{L}\p{N}]/u.test(w.text))) continue;
    const head = segment[0];
    if (!head || index.labelStarts.has(head) || head.text.endsWith(':')) break;
    lines.push(segment);
    last = box;
    column = unionBox([column, box]);
  }
  return lines;
}
