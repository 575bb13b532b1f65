/**
 * Application of a retrieved validated document to a new document's fields: for each value the
 * operator validated, use it where the NEW document's text supports it; keep what extraction found
 * everywhere else. Pure: words in, fields out.
 *
 * The rule, per leaf value of the validated document (a simple field, a sub-field of an object, an item
 * of a list of simple values):
 * 1. Look for the value in the new document's words: a number as 1–4 words of one line that read as
 *    that number (`1,234.50 EUR` for 1234.5), a `YYYY-MM-DD` date as words that read as that date
 *    (`14.03.2025`), any other text as consecutive words whose letters and digits, in lower case and
 *    without accents, spell the value's (lines may wrap). Booleans and null are never looked for.
 * 2. Not found: the extraction's result stays.
 * 3. Found several times: the occurrence nearest to where the validated document had it (its first
 *    location) is taken; without a location, the first in reading order.
 * 4. Values that change from one document to the next (numbers, dates, texts of fewer than 3 letters
 *    or digits) are only taken at the same place as in the validated document (same page, within
 *    SAME_PLACE_DISTANCE of it), or, when the validated document has no location for them, when they
 *    occur exactly once. A total of 120.00 found as a line amount elsewhere does not replace anything.
 * 5. A value taken carries the polygon of the words found (one per line they span) and the confidence
 *    `Certain` when it occurs once or at the same place, `High` otherwise. An object's or a list's own
 *    confidence becomes the lowest of its parts, as field finding computes it.
 * Lists of objects (table rows) differ per document and are kept as extracted. Fields the new result
 * does not have, or of another shape, are ignored. The options decide what is written: without
 * `polygon` no locations, without `confidence` every confidence is null.
 */
import type { FieldMap, FieldResult as ValidatedField } from '@extraction-review/contract/v2/schemas';
import type {
  FieldConfidence,
  FieldLocation,
  FieldResult,
  ListFieldResult,
  ObjectFieldResult,
  SimpleFieldResult,
} from '@extraction-review/document-text/api-types';
import type { Word } from '@extraction-review/document-text/extractor';
import { parseDate, parseNumber } from '@extraction-review/document-text/fields/parse-value';
import { boxToPolygon, unionBox, type Box } from '@extraction-review/document-text/geometry';
import { normalizeText, type LaidOutPage } from './document-terms';

export interface ApplyOptions {
  polygon: boolean;
  confidence: boolean;
}

/** In page units (0..1): how far a value may have moved and still be "at the same place". */
export const SAME_PLACE_DISTANCE = 0.1;
/** Longest run of words read as one number or date. */
const MAX_TYPED_SPAN = 4;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const LEVELS: readonly FieldConfidence[] = ['Low', 'Medium', 'High', 'Certain'];

type Value = string | number | boolean | null;

interface IndexedWord {
  word: Word;
  line: number;
  norm: string;
}

interface Occurrence {
  page: number;
  words: IndexedWord[];
}

interface Anchor {
  page: number;
  x: number;
  y: number;
}

export function applyValidatedValues(
  fields: Readonly<Record<string, FieldResult>>,
  validated: FieldMap,
  pages: readonly LaidOutPage[],
  options: ApplyOptions = { polygon: true, confidence: true },
): Record<string, FieldResult> {
  const applier = new Applier(pages, options);
  return Object.fromEntries(
    Object.entries(fields).map(([name, field]) => {
      const source = validated[name];
      return [name, source ? applier.field(field, source) : field];
    }),
  );
}

class Applier {
  /** Per page, its words in reading order with their line. */
  private readonly pages: { index: number; lines: IndexedWord[][] }[];

  constructor(
    pages: readonly LaidOutPage[],
    private readonly options: ApplyOptions,
  ) {
    this.pages = pages.map((page) => ({
      index: page.index,
      lines: page.lines.map((line, lineIndex) =>
        line.words.map((word) => ({ word, line: lineIndex, norm: normalizeText(word.text) })),
      ),
    }));
  }

  field(field: FieldResult, source: ValidatedField): FieldResult {
    if ('items' in field) {
      return 'items' in source ? this.list(field, source.items) : field;
    }
    if ('fields' in field) {
      return 'fields' in source ? this.object(field, source.fields) : field;
    }
    return 'value' in source ? (this.leaf(source) ?? field) : field;
  }

  private object(field: ObjectFieldResult, source: FieldMap): ObjectFieldResult {
    let changed = false;
    const fields = Object.fromEntries(
      Object.entries(field.fields).map(([name, sub]) => {
        const from = source[name];
        const next = from ? (this.field(sub, from) as typeof sub) : sub;
        changed ||= next !== sub;
        return [name, next];
      }),
    );
    if (!changed) return field;
    return { ...field, fields, confidence: this.aggregate(Object.values(fields).map((f) => f.confidence)) };
  }

  private list(field: ListFieldResult | ListFieldResult<ObjectFieldResult>, source: ValidatedField[]) {
    const items = field.items as (SimpleFieldResult | ObjectFieldResult)[];
    // Rows of a table differ per document: only lists of simple values take validated values.
    if (items.some((item) => 'fields' in item) || source.some((item) => !('value' in item))) return field;
    const applied: SimpleFieldResult[] = [];
    for (const item of source) {
      const leaf = 'value' in item ? this.leaf(item) : undefined;
      if (leaf && !applied.some((a) => sameValue(a.value, leaf.value))) applied.push(leaf);
    }
    if (applied.length === 0) return field;
    const rest = (items as SimpleFieldResult[]).filter(
      (item) => !applied.some((a) => sameValue(a.value, item.value)),
    );
    const merged = [...applied, ...rest];
    return { ...field, items: merged, confidence: this.aggregate(merged.map((i) => i.confidence)) };
  }

  /** The validated value as found in the new text, or undefined to keep the extraction's. */
  private leaf(source: { value: Value; locations: FieldLocation[] }): SimpleFieldResult | undefined {
    const { value } = source;
    if (value === null || typeof value === 'boolean') return undefined;
    const occurrences = this.occurrences(value);
    if (occurrences.length === 0) return undefined;
    const anchor = anchorOf(source.locations);
    const chosen = anchor ? nearest(occurrences, anchor) : occurrences[0];
    if (!chosen) return undefined;
    const atSamePlace =
      anchor !== undefined &&
      chosen.page === anchor.page &&
      distance(centre(chosen), anchor) <= SAME_PLACE_DISTANCE;
    if (isVolatile(value) && !atSamePlace && !(anchor === undefined && occurrences.length === 1)) {
      return undefined;
    }
    const confidence: FieldConfidence = occurrences.length === 1 || atSamePlace ? 'Certain' : 'High';
    return {
      value,
      locations: this.options.polygon ? locationsOf(chosen) : [],
      confidence: this.options.confidence ? confidence : null,
    };
  }

  private occurrences(value: string | number): Occurrence[] {
    if (typeof value === 'number') {
      return this.typedSpans((text) => {
        const parsed = parseNumber(text);
        return parsed !== undefined && Math.abs(parsed.value - value) < 1e-9;
      });
    }
    if (ISO_DATE.test(value)) return this.typedSpans((text) => parseDate(text)?.value === value);
    return this.textSpans(normalizeText(value));
  }

  /** Runs of 1–4 words of one line that `matches` accepts, the shortest at each start, not overlapping. */
  private typedSpans(matches: (text: string) => boolean): Occurrence[] {
    const out: Occurrence[] = [];
    for (const page of this.pages) {
      for (const line of page.lines) {
        for (let start = 0; start < line.length; start++) {
          for (let length = 1; length <= MAX_TYPED_SPAN && start + length <= line.length; length++) {
            const span = line.slice(start, start + length);
            if (matches(span.map((w) => w.word.text).join(' '))) {
              out.push({ page: page.index, words: span });
              start += length - 1;
              break;
            }
          }
        }
      }
    }
    return out;
  }

  /** Consecutive words (in reading order, across lines) whose normalised texts concatenate to `target`. */
  private textSpans(target: string): Occurrence[] {
    if (target === '') return [];
    const out: Occurrence[] = [];
    for (const page of this.pages) {
      const words = page.lines.flat();
      for (let start = 0; start < words.length; start++) {
        const first = words[start];
        if (!first || first.norm === '' || !target.startsWith(first.norm)) continue;
        const span = [first];
        let spelled = first.norm;
        for (let next = start + 1; spelled.length < target.length && next < words.length; next++) {
          const word = words[next];
          if (!word || word.norm === '') continue;
          if (!target.startsWith(spelled + word.norm)) break;
          spelled += word.norm;
          span.push(word);
        }
        if (spelled === target) {
          out.push({ page: page.index, words: span });
          start += span.length - 1;
        }
      }
    }
    return out;
  }

  private aggregate(levels: readonly (FieldConfidence | null)[]): FieldConfidence | null {
    if (!this.options.confidence) return null;
    const ranks = levels.map((l) => (l ? LEVELS.indexOf(l) : 0));
    return LEVELS[ranks.length > 0 ? Math.min(...ranks) : 0] ?? 'Low';
  }
}

/** Numbers, dates and very short texts change from one document to the next. */
function isVolatile(value: string | number): boolean {
  return typeof value === 'number' || ISO_DATE.test(value) || normalizeText(value).length < 3;
}

function sameValue(a: Value, b: Value): boolean {
  if (typeof a === 'string' && typeof b === 'string') return normalizeText(a) === normalizeText(b);
  return a === b;
}

function anchorOf(locations: readonly FieldLocation[]): Anchor | undefined {
  const [first] = locations;
  if (!first || first.polygon.length === 0) return undefined;
  const xs = first.polygon.map(([x]) => x);
  const ys = first.polygon.map(([, y]) => y);
  return {
    page: first.page,
    x: (Math.min(...xs) + Math.max(...xs)) / 2,
    y: (Math.min(...ys) + Math.max(...ys)) / 2,
  };
}

function centre(occurrence: Occurrence): { x: number; y: number } {
  const box = unionBox(occurrence.words.map((w) => w.word.box));
  return { x: (box.x0 + box.x1) / 2, y: (box.y0 + box.y1) / 2 };
}

const distance = (a: { x: number; y: number }, b: { x: number; y: number }): number =>
  Math.hypot(a.x - b.x, a.y - b.y);

/** Same page first, then the closest centre. */
function nearest(occurrences: readonly Occurrence[], anchor: Anchor): Occurrence | undefined {
  const cost = (o: Occurrence): [number, number] => [
    o.page === anchor.page ? 0 : 1 + Math.abs(o.page - anchor.page),
    distance(centre(o), anchor),
  ];
  return [...occurrences].sort((a, b) => {
    const [pa, da] = cost(a);
    const [pb, db] = cost(b);
    return pa - pb || da - db;
  })[0];
}

/** One polygon per line the words span. */
function locationsOf(occurrence: Occurrence): FieldLocation[] {
  const byLine = new Map<number, Box[]>();
  for (const { word, line } of occurrence.words) byLine.set(line, [...(byLine.get(line) ?? []), word.box]);
  return [...byLine.values()].map((boxes) => ({
    polygon: boxToPolygon(unionBox(boxes)),
    page: occurrence.page,
  }));
}
