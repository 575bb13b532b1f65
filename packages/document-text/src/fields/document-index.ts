/**
 * The document as the field finder reads it: every line with its normalised tokens, where each
 * field's labels are, and the geometry questions every strategy asks ("the words right of this
 * label", "the line under it", "the columns of this line"). Built once per extraction.
 */
import type { FieldSchema, SubFieldSchema } from '@extraction-review/contract/v2/field-schema';
import type { Word } from '../extractor';
import {
  boxHeight,
  heightInWidthUnits,
  horizontalGap,
  overlapsHorizontally,
  unionBox,
  type Box,
} from '../geometry';
import type { Line } from '../lines';
import {
  compareTokens,
  labelPhrases,
  normalizeToken,
  weaken,
  weakest,
  type LabelPhrase,
  type LabelStrength,
} from './label-phrases';
import { numericDateOrder } from './parse-value';
import { expectsPercent, type DateOrder } from './schema-hints';
import { CURRENCY_CODES, DATE_ORDER_EVIDENCE } from './vocabulary';

export interface PageLayout {
  index: number;
  /** Page height / page width, to compare horizontal gaps with font heights. */
  aspect: number;
  lines: Line[];
}

export type AnyField = FieldSchema | SubFieldSchema;

export interface TokenLine {
  page: PageLayout;
  lineIndex: number;
  line: Line;
  tokens: string[];
}

export interface LabelMatch {
  at: TokenLine;
  start: number;
  /** Exclusive; past a lone ":" word or a "(USD):" that ends the label. */
  end: number;
  strength: LabelStrength;
  colon: boolean;
  /** The value must follow immediately (a joining word such as "of", "du": vocabulary.ts). */
  adjacent?: boolean;
}

/** A label and its value may be far apart (tab stops), in font heights. */
const MAX_LABEL_VALUE_GAP_EM = 25;
/** Words of one value are close; a wider gap starts another column. */
export const MAX_WORD_GAP_EM = 2.5;
/** A word this close before a label makes it part of a longer label ("Due date" is not "Date"). */
const LABEL_PREFIX_GAP_EM = 1.5;
/** A value "below" its label is on one of the next lines, within this many label-line heights. */
const MAX_BELOW_GAP_LINES = 2;
/** How far (in label heights) a slanted value's centre may be from its label's. */
const SLANT_REACH = 0.8;
/** A word that qualifies the label before its colon: "Amount due (USD):", "Tax 8%:". */
const LABEL_QUALIFIER = /^(?:\([^)]*\)?|\d{1,3}(?:[.,]\d+)?\s?%):$/;
/** The same without a colon ("Sales Tax 5.0%   9.75"), for fields that do not read percentages. */
const LOOSE_QUALIFIER = /^(?:\([^)]*\)|\d{1,3}(?:[.,]\d+)?\s?%)$/;
/** A rate whose "%" is a word of its own. */
const SPLIT_RATE = /^\(?\d{1,3}(?:[.,]\d+)?$/;

export class DocumentIndex {
  readonly lines: TokenLine[];
  /** First words of clear labels (followed by ":" or standing apart): a value never runs into one. */
  readonly labelStarts = new Set<Word>();
  /** Every word of an exact or variant label of any field. */
  readonly labelWords = new Set<Word>();
  /** Mean reading confidence of the document's words (1 for a text layer, 0 with no words). */
  readonly reading: number;
  readonly wordCount: number;
  /** Day or month first, as the document's unambiguous numeric dates show. */
  readonly dateOrder: DateOrder | undefined;
  /** Day or month first, as the document's currency, addresses, phones and words suggest. */
  readonly localeDateOrder: DateOrder | undefined;
  private readonly matchesByField = new Map<AnyField, LabelMatch[]>();
  /** Where each distinct token stands, and the distinct tokens by length (for label matching). */
  private readonly positions = new Map<string, { at: TokenLine; start: number }[]>();
  private readonly byLength = new Map<number, string[]>();
  private readonly similar = new Map<string, Map<string, LabelStrength>>();

  constructor(
    readonly pages: readonly PageLayout[],
    fields: readonly FieldSchema[],
  ) {
    this.lines = pages.flatMap((page) =>
      page.lines.map((line, lineIndex) => ({
        page,
        lineIndex,
        line,
        tokens: line.words.map((w) => normalizeToken(w.text)),
      })),
    );
    for (const at of this.lines) {
      at.tokens.forEach((token, start) => {
        if (token === '') return;
        const list = this.positions.get(token);
        if (list) list.push({ at, start });
        else {
          this.positions.set(token, [{ at, start }]);
          this.byLength.set(token.length, [...(this.byLength.get(token.length) ?? []), token]);
        }
      });
    }
    const words = this.lines.flatMap((l) => l.line.words);
    this.wordCount = words.length;
    this.reading = words.length > 0 ? words.reduce((sum, w) => sum + w.confidence, 0) / words.length : 0;
    let dmy = 0;
    let mdy = 0;
    for (const word of words) {
      const order = numericDateOrder(word.text);
      if (order === 'dmy') dmy++;
      if (order === 'mdy') mdy++;
    }
    this.dateOrder = dmy > mdy ? 'dmy' : mdy > dmy ? 'mdy' : undefined;
    this.localeDateOrder = localeDateOrder(this.lines.map((l) => l.line.words.map((w) => w.text).join(' ')));

    for (const field of fields.flatMap((f) => [f, ...f.nested_fields])) {
      for (const match of this.labelMatches(field)) {
        const lineWords = match.at.line.words;
        if (match.strength !== 'fuzzy') {
          for (const w of lineWords.slice(match.start, match.end)) this.labelWords.add(w);
        }
        const first = lineWords[match.start];
        const before = lineWords[match.start - 1];
        const apart = !before || (first && this.gapEm(before, first, match.at.page) >= MAX_WORD_GAP_EM);
        if (first && match.strength === 'exact' && (match.colon || apart)) this.labelStarts.add(first);
      }
    }
  }

  labelMatches(field: AnyField): LabelMatch[] {
    let matches = this.matchesByField.get(field);
    if (!matches) {
      matches = this.findLabels(field);
      this.matchesByField.set(field, matches);
    }
    return matches;
  }

  private findLabels(field: AnyField): LabelMatch[] {
    const percent = expectsPercent(field);
    const matches: LabelMatch[] = [];
    for (const phrase of labelPhrases(field)) {
      const [first = '', ...rest] = phrase.tokens;
      for (const [token, firstStrength] of this.similarTokens(first)) {
        for (const { at, start } of this.positions.get(token) ?? []) {
          let strength: LabelStrength | undefined = weakest(phrase.strength, firstStrength);
          for (let k = 0; k < rest.length && strength; k++) {
            const compared = this.similarTokens(rest[k] ?? '').get(at.tokens[start + 1 + k] ?? '');
            strength = compared && weakest(strength, compared);
          }
          if (strength)
            this.pushMatch(matches, at, start, start + phrase.tokens.length, strength, percent, phrase);
        }
      }
      if (phrase.tokens.length > 1) {
        // OCR glues words: "DueDate" is the label "Due date", read less surely.
        for (const [token, glued] of this.similarTokens(phrase.tokens.join(''))) {
          const strength = weakest(weakest(phrase.strength, glued), 'variant');
          for (const { at, start } of this.positions.get(token) ?? []) {
            this.pushMatch(matches, at, start, start + 1, strength, percent, phrase);
          }
        }
      }
    }
    return matches.sort(
      (a, b) => a.at.page.index - b.at.page.index || a.at.lineIndex - b.at.lineIndex || a.start - b.start,
    );
  }

  /** A label found at `start..labelEnd` of a line: its colon or qualifier, and whether it is part of a longer label. */
  private pushMatch(
    matches: LabelMatch[],
    at: TokenLine,
    start: number,
    labelEnd: number,
    found: LabelStrength,
    percent: boolean,
    phrase: LabelPhrase,
  ): void {
    const { tokens } = at;
    const words = at.line.words;
    let strength: LabelStrength | undefined = found;
    let end = labelEnd;
    let colon = words[end - 1]?.text.trimEnd().endsWith(':') ?? false;
    if (!colon && tokens[end] === '' && words[end]?.text.includes(':')) {
      colon = true;
      end++;
    }
    if (!colon && LABEL_QUALIFIER.test(words[end]?.text ?? '')) {
      colon = true;
      end++;
    } else if (!colon && !percent && LOOSE_QUALIFIER.test(words[end]?.text ?? '')) {
      end++;
    } else if (!colon && CURRENCY_CODES.has(words[end]?.text.replace(/:$/, '') ?? '')) {
      // "Total EUR   12,50", "Amount due USD: 26.64": the currency is the label's.
      colon = words[end]?.text.endsWith(':') ?? false;
      end++;
    } else if (
      !colon &&
      !percent &&
      SPLIT_RATE.test(words[end]?.text ?? '') &&
      /^%\)?:?$/.test(words[end + 1]?.text ?? '')
    ) {
      // "TVA 20 % 1 169,53": the rate printed as two words.
      colon = words[end + 1]?.text.endsWith(':') ?? false;
      end += 2;
    }
    if (phrase.colonOnly && !colon) return;
    const before = words[start - 1];
    const first = words[start];
    if (
      before &&
      first &&
      /^\p{L}+$/u.test(tokens[start - 1] ?? '') &&
      !before.text.endsWith(':') &&
      this.gapEm(before, first, at.page) < LABEL_PREFIX_GAP_EM
    ) {
      strength = weaken(strength);
    }
    // "Total" followed by "tax:" is the label "Total tax", not "Total".
    if (strength && !colon && words[end]?.text.endsWith(':')) strength = weaken(strength);
    // A common word ("No.:", "Number:") is a label only standing alone: "Order No.:" is the order's.
    if (phrase.colonOnly && strength !== found) return;
    if (strength)
      matches.push({ at, start, end, strength, colon, ...(phrase.adjacent && { adjacent: true }) });
  }

  /**
   * The document's tokens a label token matches, and how: itself exactly, or one edit or an OCR
   * confusion away (compareTokens). Only tokens whose length is within one can, so only those are
   * compared, once per document.
   */
  private similarTokens(label: string): Map<string, LabelStrength> {
    let found = this.similar.get(label);
    if (found) return found;
    found = new Map();
    if (this.positions.has(label)) found.set(label, 'exact');
    for (const length of [label.length - 1, label.length, label.length + 1]) {
      for (const token of this.byLength.get(length) ?? []) {
        if (token === label) continue;
        const strength = compareTokens(label, token);
        if (strength) found.set(token, strength);
      }
    }
    this.similar.set(label, found);
    return found;
  }

  labelBox(match: LabelMatch): Box | undefined {
    const words = match.at.line.words.slice(match.start, match.end);
    return words.length > 0 ? unionBox(words.map((w) => w.box)) : undefined;
  }

  wordsRightOf(match: LabelMatch): Word[] {
    const words = match.at.line.words;
    const last = words[match.end - 1];
    return last ? this.valueRun(words.slice(match.end), last, match.at.page, MAX_LABEL_VALUE_GAP_EM) : [];
  }

  /**
   * On a slanted photo the value right of a label drifts onto the line above or below: when nothing
   * is right of the label on its own line, the run that starts right of it on a neighbouring line,
   * with its centre within 0.8 label heights of the label's centre and nothing between them.
   */
  wordsRightOfSlanted(match: LabelMatch): Word[] {
    const { page, lineIndex } = match.at;
    const labelBox = this.labelBox(match);
    if (!labelBox) return [];
    const center = (b: Box): number => (b.y0 + b.y1) / 2;
    const reach = SLANT_REACH * boxHeight(labelBox);
    let best: { words: Word[]; distance: number } | undefined;
    for (const neighbour of [page.lines[lineIndex - 1], page.lines[lineIndex + 1]]) {
      if (!neighbour) continue;
      const first = neighbour.words.findIndex((w) => w.box.x0 > labelBox.x1);
      const head = neighbour.words[first];
      if (!head || neighbour.words.slice(0, first).some((w) => w.box.x1 > labelBox.x0)) continue;
      const distance = Math.abs(center(head.box) - center(labelBox));
      if (distance > reach || this.labelStarts.has(head) || head.text.endsWith(':')) continue;
      const words = [head, ...this.valueRun(neighbour.words.slice(first + 1), head, page, MAX_WORD_GAP_EM)];
      if (!best || distance < best.distance) best = { words, distance };
    }
    return best?.words ?? [];
  }

  wordsBelow(match: LabelMatch): Word[] {
    const { page, line, lineIndex } = match.at;
    const labelBox = this.labelBox(match);
    if (!labelBox) return [];
    const slack = heightInWidthUnits(labelBox, page.aspect);
    for (const below of page.lines.slice(lineIndex + 1)) {
      if (below.box.y0 - line.box.y1 > MAX_BELOW_GAP_LINES * boxHeight(line.box)) break;
      const first = below.words.findIndex((w) => overlapsHorizontally(labelBox, w.box, slack));
      const head = below.words[first];
      if (!head) continue;
      if (this.labelStarts.has(head) || head.text.endsWith(':')) return [];
      return [head, ...this.valueRun(below.words.slice(first + 1), head, page, MAX_WORD_GAP_EM)];
    }
    return [];
  }

  /** The words after `previous` that still belong to one value: no wide gap, no other label. */
  valueRun(words: readonly Word[], previous: Word, page: PageLayout, firstGapEm: number): Word[] {
    const out: Word[] = [];
    let prev = previous;
    for (const word of words) {
      const maxGap = out.length === 0 ? firstGapEm : MAX_WORD_GAP_EM;
      if (this.gapEm(prev, word, page) > maxGap || this.labelStarts.has(word) || word.text.endsWith(':'))
        break;
      out.push(word);
      prev = word;
    }
    return out;
  }

  /** A line cut at its wide gaps: the columns it crosses ("Bill To", "Ship To", "Invoice #"). */
  segments(line: Line, page: PageLayout): Word[][] {
    const out: Word[][] = [];
    let current: Word[] = [];
    for (const word of line.words) {
      const prev = current.at(-1);
      if (prev && this.gapEm(prev, word, page) >= MAX_WORD_GAP_EM) {
        out.push(current);
        current = [];
      }
      current.push(word);
    }
    if (current.length > 0) out.push(current);
    return out;
  }

  gapEm(left: Word, right: Word, page: PageLayout): number {
    const em = heightInWidthUnits(right.box, page.aspect);
    return em > 0 ? horizontalGap(left.box, right.box) / em : Infinity;
  }

  /** The token line a word sits on. */
  lineOf(word: Word): TokenLine | undefined {
    return this.lines.find((l) => l.line.words.includes(word));
  }
}

/** The votes of the lines for each date order (vocabulary.ts); a tie says nothing. */
export function localeDateOrder(lines: readonly string[]): DateOrder | undefined {
  const votes = { dmy: 0, mdy: 0 };
  for (const { order, pattern, weight } of DATE_ORDER_EVIDENCE) {
    if (lines.some((line) => pattern.test(line))) votes[order] += weight;
  }
  return votes.dmy > votes.mdy ? 'dmy' : votes.mdy > votes.dmy ? 'mdy' : undefined;
}
