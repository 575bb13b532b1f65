/**
 * Finds each schema field's value on the page the way a person skims a form: look for the field's
 * label (label-phrases.ts), then read the value to its right on the same line, or just below it;
 * parse it as the field's type (parse-value.ts); keep the best-placed reading.
 *
 * Confidence is earned from that evidence, never invented:
 * - Certain: an exact label, the value right of it on the same line, an unambiguous parse;
 * - High: the same with the value below the label;
 * - Medium: a variant label ("Invoice Nr" for "Invoice number"), or an exact label with an ambiguous
 *   parse ("03/04/2025");
 * - Low: weaker still (a misspelt label, or a variant with an ambiguous parse);
 * and one level less when another reading nearly as good gives a different value.
 * A field with no reading is `{ value: null, locations: [], confidence: "Low" }`: Low, not null,
 * because null means "confidence not computed" and a missing value is exactly what a reviewer must see.
 */
import type {
  FieldConfidence,
  FieldResult,
  ListFieldResult,
  ObjectFieldResult,
  SimpleFieldResult,
} from '../../api-types';
import type { FieldSchema, SubFieldSchema } from '../../models/field-schema';
import type { Word } from '../extractor';
import {
  boxHeight,
  boxToPolygon,
  heightInWidthUnits,
  horizontalGap,
  overlapsHorizontally,
  unionBox,
} from '../geometry';
import type { Line } from '../lines';
import {
  compareTokens,
  labelPhrases,
  normalizeToken,
  strengthRank,
  weaken,
  weakest,
  type LabelStrength,
} from './label-phrases';
import {
  parseBoolean,
  parseClassification,
  parseDate,
  parseNumber,
  parseString,
  type Parsed,
} from './parse-value';

export interface PageLayout {
  index: number;
  /** Page height / page width, to compare horizontal gaps with font heights. */
  aspect: number;
  lines: Line[];
}

/** A label and its value may be far apart (tab stops), in font heights. */
const MAX_LABEL_VALUE_GAP_EM = 25;
/** Words of one value are close; a wider gap starts another column. */
const MAX_WORD_GAP_EM = 2.5;
/** A word this close before a label makes it part of a longer label ("Due date" is not "Date"). */
const LABEL_PREFIX_GAP_EM = 1.5;
/** A value "below" its label is on one of the next lines, within this many label-line heights. */
const MAX_BELOW_GAP_LINES = 2;
/** Longest value read for a typed field: "March 14, 2025" is 3 words, "1 234 567,89 EUR" 4. */
const MAX_SPAN_WORDS = 4;

const LEVELS: readonly FieldConfidence[] = ['Low', 'Medium', 'High', 'Certain'];

interface TokenLine {
  page: PageLayout;
  lineIndex: number;
  line: Line;
  tokens: string[];
}

interface LabelMatch {
  at: TokenLine;
  start: number;
  /** Exclusive; past a lone ":" word that ends the label. */
  end: number;
  strength: LabelStrength;
  colon: boolean;
}

interface Candidate {
  value: string | number | boolean;
  clean: boolean;
  words: Word[];
  page: number;
  strength: LabelStrength;
  position: 'right' | 'below';
  score: number;
}

type AnyField = FieldSchema | SubFieldSchema;

export function findFields(
  fields: readonly FieldSchema[],
  pages: readonly PageLayout[],
): Record<string, FieldResult> {
  const finder = new FieldFinder(pages, fields);
  return Object.fromEntries(fields.map((field) => [field.name, finder.resultFor(field)]));
}

class FieldFinder {
  private readonly lines: TokenLine[];
  /** First words of clear labels (followed by ":" or standing apart): a value never runs into one. */
  private readonly labelStarts = new Set<Word>();
  private readonly matchesByField = new Map<AnyField, LabelMatch[]>();

  constructor(pages: readonly PageLayout[], fields: readonly FieldSchema[]) {
    this.lines = pages.flatMap((page) =>
      page.lines.map((line, lineIndex) => ({
        page,
        lineIndex,
        line,
        tokens: line.words.map((w) => normalizeToken(w.text)),
      })),
    );
    for (const field of fields.flatMap((f) => [f, ...f.nested_fields])) {
      for (const match of this.labelMatches(field)) {
        const words = match.at.line.words;
        const first = words[match.start];
        const before = words[match.start - 1];
        const apart = !before || (first && this.gapEm(before, first, match.at.page) >= MAX_WORD_GAP_EM);
        if (first && match.strength === 'exact' && (match.colon || apart)) this.labelStarts.add(first);
      }
    }
  }

  resultFor(field: FieldSchema): FieldResult {
    if (field.type === 'nested_object') return this.objectResult(field);
    return field.is_array ? this.listResult(field) : this.simpleResult(field);
  }

  private simpleResult(field: AnyField): SimpleFieldResult {
    const [best, ...rivals] = this.candidates(field);
    if (!best) return { value: null, locations: [], confidence: 'Low' };
    return toSimpleResult(best, confidenceOf(best, rivals));
  }

  private listResult(field: AnyField): ListFieldResult {
    const seen = new Set<string>();
    const items = this.candidates(field)
      .sort(byReadingOrder)
      .filter((c) => {
        // The same words found through two labels are one item; unique_values also merges equal values.
        const key = field.unique_values
          ? JSON.stringify(c.value)
          : `${c.page}:${c.words.map((w) => w.text).join(' ')}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      })
      .map((c) => toSimpleResult(c, confidenceOf(c, [])));
    return { items, confidence: lowest(items.map((i) => i.confidence)) };
  }

  /** Sub-fields are searched over the whole document; lists of objects (table rows) are not read yet. */
  private objectResult(field: FieldSchema): ObjectFieldResult | ListFieldResult<ObjectFieldResult> {
    if (field.is_array) return { items: [], confidence: 'Low' };
    const fields = Object.fromEntries(
      field.nested_fields.map((sub) => [
        sub.name,
        sub.is_array ? this.listResult(sub) : this.simpleResult(sub),
      ]),
    );
    return { fields, locations: [], confidence: lowest(Object.values(fields).map((f) => f.confidence)) };
  }

  /** Every reading of the field, best first. */
  private candidates(field: AnyField): Candidate[] {
    const out: Candidate[] = [];
    for (const match of this.labelMatches(field)) {
      const readings: [Candidate['position'], Word[]][] = [
        ['right', this.wordsRightOf(match)],
        ['below', this.wordsBelow(match)],
      ];
      for (const [position, words] of readings) {
        const parsed = parseWords(words, field);
        if (!parsed) continue;
        const score =
          strengthRank(match.strength) * 2 +
          (position === 'right' ? 0.5 : 0.25) +
          (match.colon ? 0.25 : 0) +
          (parsed.clean ? 0.5 : 0);
        out.push({ ...parsed, page: match.at.page.index, strength: match.strength, position, score });
      }
    }
    return out.sort((a, b) => b.score - a.score || byReadingOrder(a, b));
  }

  private labelMatches(field: AnyField): LabelMatch[] {
    let matches = this.matchesByField.get(field);
    if (!matches) {
      matches = this.findLabels(field);
      this.matchesByField.set(field, matches);
    }
    return matches;
  }

  private findLabels(field: AnyField): LabelMatch[] {
    const phrases = labelPhrases(field);
    const matches: LabelMatch[] = [];
    for (const at of this.lines) {
      const { tokens } = at;
      const words = at.line.words;
      for (let start = 0; start < tokens.length; start++) {
        for (const phrase of phrases) {
          let strength: LabelStrength | undefined = phrase.strength;
          for (let k = 0; k < phrase.tokens.length && strength; k++) {
            const compared = compareTokens(phrase.tokens[k] ?? '', tokens[start + k] ?? '');
            strength = compared && weakest(strength, compared);
          }
          if (!strength) continue;
          let end = start + phrase.tokens.length;
          let colon = words[end - 1]?.text.trimEnd().endsWith(':') ?? false;
          if (!colon && tokens[end] === '' && words[end]?.text.includes(':')) {
            colon = true;
            end++;
          }
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
          if (strength) matches.push({ at, start, end, strength, colon });
        }
      }
    }
    return matches;
  }

  private wordsRightOf(match: LabelMatch): Word[] {
    const words = match.at.line.words;
    const last = words[match.end - 1];
    return last ? this.valueRun(words.slice(match.end), last, match.at.page, MAX_LABEL_VALUE_GAP_EM) : [];
  }

  private wordsBelow(match: LabelMatch): Word[] {
    const { page, line, lineIndex } = match.at;
    const labelWords = line.words.slice(match.start, match.end);
    if (labelWords.length === 0) return [];
    const labelBox = unionBox(labelWords.map((w) => w.box));
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
  private valueRun(words: readonly Word[], previous: Word, page: PageLayout, firstGapEm: number): Word[] {
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

  private gapEm(left: Word, right: Word, page: PageLayout): number {
    const em = heightInWidthUnits(right.box, page.aspect);
    return em > 0 ? horizontalGap(left.box, right.box) / em : Infinity;
  }
}

function parserFor(
  field: AnyField,
): ((text: string) => Parsed<string | number | boolean> | undefined) | undefined {
  switch (field.type) {
    case 'number':
      return parseNumber;
    case 'date':
      return parseDate;
    case 'boolean':
      return parseBoolean;
    case 'classification':
      return (text) => parseClassification(text, field.classification_values);
    default:
      return undefined; // strings are read whole; object_detection and barcode are not in the text
  }
}

/** A string takes the whole run; a typed value the first span of up to 4 words that parses. */
function parseWords(
  words: Word[],
  field: AnyField,
): (Parsed<string | number | boolean> & { words: Word[] }) | undefined {
  const join = (span: Word[]): string => span.map((w) => w.text).join(' ');
  if (words.length === 0) return undefined;
  if (field.type === 'string') {
    const parsed = parseString(join(words));
    return parsed && { ...parsed, words };
  }
  const parse = parserFor(field);
  if (!parse) return undefined;
  for (let start = 0; start < words.length; start++) {
    for (let length = Math.min(MAX_SPAN_WORDS, words.length - start); length > 0; length--) {
      const span = words.slice(start, start + length);
      const parsed = parse(join(span));
      if (parsed) return { ...parsed, words: span };
    }
  }
  return undefined;
}

function confidenceOf(best: Candidate, rivals: readonly Candidate[]): FieldConfidence {
  let level =
    best.strength === 'exact' ? (best.position === 'right' ? 3 : 2) : best.strength === 'variant' ? 1 : 0;
  // An ambiguous reading is for a person to check, however clear the label: Medium at best.
  if (!best.clean) level = Math.min(level - 1, 1);
  if (rivals.some((r) => r.value !== best.value && r.score >= best.score - 0.25)) level -= 1;
  return LEVELS[Math.max(0, level)] ?? 'Low';
}

function lowest(levels: readonly (FieldConfidence | null)[]): FieldConfidence {
  const ranks = levels.map((l) => (l ? LEVELS.indexOf(l) : 0));
  return LEVELS[ranks.length > 0 ? Math.min(...ranks) : 0] ?? 'Low';
}

function toSimpleResult(candidate: Candidate, confidence: FieldConfidence): SimpleFieldResult {
  const box = unionBox(candidate.words.map((w) => w.box));
  return {
    value: candidate.value,
    locations: [{ polygon: boxToPolygon(box), page: candidate.page }],
    confidence,
  };
}

function byReadingOrder(a: Candidate, b: Candidate): number {
  const [boxA, boxB] = [a.words[0]?.box, b.words[0]?.box];
  return a.page - b.page || (boxA?.y0 ?? 0) - (boxB?.y0 ?? 0) || (boxA?.x0 ?? 0) - (boxB?.x0 ?? 0);
}
