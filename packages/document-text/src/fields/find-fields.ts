/**
 * Finds each schema field's value on the pages the way a person skims a document, per type:
 *
 * - simple values (string, number, date): a label, the value right of it or below it, else the
 *   guidelines' other ways (candidates.ts);
 * - classification and boolean: from evidence (classification.ts, boolean.ts);
 * - nested_object: the block its label opens, or the top of the page, then its sub-fields inside it
 *   (region.ts; address blocks read by shape in address.ts);
 * - is_array: every labelled value; of objects: a table under a header row (table.ts), else summary
 *   lines (records.ts);
 * - object_detection and barcode: not read (no image analysis here): `value: null`, no locations,
 *   `confidence: null` ("not computed").
 *
 * Every reading has a score from its evidence (confidence.ts), mapped to Certain/High/Medium/Low.
 * The rules and thresholds are in docs/reference-fields.md.
 */
import type {
  FieldConfidence,
  FieldLocation,
  FieldResult,
  ListFieldResult,
  ObjectFieldResult,
  SimpleFieldResult,
} from '../api-types';
import type { FieldSchema } from '@extraction-review/contract/v2/field-schema';
import type { Word } from '../extractor';
import { boxToPolygon, unionBox } from '../geometry';
import { addressPartOf, readAddress } from './address';
import { booleanCandidates } from './boolean';
import {
  byReadingOrder,
  makeCandidate,
  simpleCandidates,
  type Candidate,
  type FinderContext,
} from './candidates';
import { classificationCandidates } from './classification';
import { absenceLevel, levelOf, lowestLevel, RIVAL_MARGIN, RIVAL_PENALTY, THRESHOLDS } from './confidence';
import { DocumentIndex, type AnyField, type PageLayout, type TokenLine } from './document-index';
import { readItemLines } from './item-lines';
import { readRecords } from './records';
import { findRegion, regionScope, type Region } from './region';
import { foldText, schemaHints } from './schema-hints';
import { findHeaders, readTables } from './table';
import { readTextContext } from './text-context';

export type { PageLayout } from './document-index';

export interface FindFieldsOptions {
  /** The request's `text_context` (text-context.ts). */
  textContext?: string | null;
}

export function findFields(
  fields: readonly FieldSchema[],
  pages: readonly PageLayout[],
  options: FindFieldsOptions = {},
): Record<string, FieldResult> {
  const finder = new FieldFinder(fields, pages, options);
  return Object.fromEntries(fields.map((field) => [field.name, finder.resultFor(field)]));
}

type Scope = (line: TokenLine) => boolean;

/** An address object names at least this many address parts among its sub-fields. */
const ADDRESS_PARTS = 2;
const CONTACT_LINE = /@|www\.|https?:|^\+?[\d\s().-]{7,}$/i;

class FieldFinder {
  private readonly ctx: FinderContext;

  constructor(fields: readonly FieldSchema[], pages: readonly PageLayout[], options: FindFieldsOptions) {
    const index = new DocumentIndex(pages, fields);
    const all: AnyField[] = fields.flatMap((f) => [f, ...f.nested_fields]);
    const context = readTextContext(options.textContext, all);
    const vocabulary = new Set<string>();
    for (const field of all) {
      for (const phrases of schemaHints(field).synonyms.values()) {
        for (const phrase of phrases) vocabulary.add(foldText(phrase));
      }
    }
    this.ctx = {
      index,
      context,
      schema: fields,
      claimed: new Map(),
      vocabulary,
      // The document's own evidence first (its unambiguous dates, then its currency, addresses and
      // words), else what the text context says.
      dateOrder: index.dateOrder ?? index.localeDateOrder ?? context.dateOrder,
      tableHeaders: new Set(),
    };
    for (const field of fields) {
      if (field.type !== 'nested_object' || !field.is_array) continue;
      for (const header of findHeaders(this.ctx, field)) {
        header.line.line.words.forEach((w) => this.ctx.tableHeaders.add(w));
      }
    }
    // Words the best labelled value of a field stands on are that field's: others skip them.
    const claims = new Map<Word, { field: AnyField; score: number }>();
    for (const field of fields) {
      if (field.is_array || !['string', 'number', 'date'].includes(field.type)) continue;
      const [best] = simpleCandidates(this.ctx, field, { fallbacks: false });
      if (!best || best.score < THRESHOLDS.MEDIUM) continue;
      for (const word of best.words) {
        const known = claims.get(word);
        if (!known || known.score < best.score) claims.set(word, { field, score: best.score });
      }
    }
    for (const [word, { field }] of claims) this.ctx.claimed.set(word, field);
  }

  resultFor(field: FieldSchema): FieldResult {
    if (field.type === 'object_detection' || field.type === 'barcode') {
      return field.is_array
        ? { items: [], confidence: null }
        : { value: null, locations: [], confidence: null };
    }
    if (field.type === 'nested_object') {
      return field.is_array ? this.objectList(field) : this.objectResult(field);
    }
    return field.is_array ? this.listResult(field) : this.simpleResult(field);
  }

  private candidates(field: AnyField, scope?: Scope): Candidate[] {
    if (this.ctx.index.wordCount === 0) return [];
    if (field.type === 'classification') return classificationCandidates(this.ctx, field, scope);
    if (field.type === 'boolean') return booleanCandidates(this.ctx, field, scope);
    return simpleCandidates(this.ctx, field, { scope, fallbacks: scope === undefined });
  }

  private simpleResult(field: AnyField, scope?: Scope): SimpleFieldResult {
    const [best, ...rivals] = this.candidates(field, scope);
    if (!best) return this.absent(field, scope);
    const contested = rivals.some((r) => r.value !== best.value && r.score >= RIVAL_MARGIN * best.score);
    return toSimple(best, best.score * (contested ? RIVAL_PENALTY : 1));
  }

  private absent(field: AnyField, scope?: Scope): SimpleFieldResult {
    return { value: null, locations: [], confidence: this.absenceFor(field, scope) };
  }

  private absenceFor(field: AnyField, scope?: Scope): FieldConfidence {
    const { index } = this.ctx;
    if (index.wordCount === 0) return 'Low';
    const labelSeen = index
      .labelMatches(field)
      .some((m) => m.strength !== 'fuzzy' && (!scope || scope(m.at)));
    return absenceLevel(index.reading, labelSeen);
  }

  private listResult(field: AnyField, scope?: Scope): ListFieldResult {
    const seen = new Set<string>();
    const items = this.candidates(field, scope)
      .filter((c) => c.words.length > 0)
      .sort(byReadingOrder)
      .filter((c) => {
        // The same words found through two labels are one item; unique_values also merges equal values.
        const key = field.unique_values
          ? JSON.stringify(typeof c.value === 'string' ? foldText(c.value) : c.value)
          : `${c.page}:${c.words.map((w) => `${w.box.x0},${w.box.y0}`).join(' ')}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      })
      .map((c) => toSimple(c, c.score));
    return {
      items,
      confidence: lowestLevel(items.map((i) => i.confidence)) ?? this.absenceFor(field, scope),
    };
  }

  private objectResult(field: FieldSchema): ObjectFieldResult {
    const isAddress =
      new Set(field.nested_fields.map(addressPartOf).filter((p) => p !== undefined)).size >= ADDRESS_PARTS;
    // An address at the top is the top block that reads as one (a logo may come first).
    const looksLikeAddress = (lines: Word[][]): boolean => {
      const parts = readAddress(lines);
      return parts.postal_code !== undefined || parts.street_number !== undefined;
    };
    const region =
      this.ctx.index.wordCount > 0
        ? findRegion(this.ctx, field, isAddress ? looksLikeAddress : undefined)
        : undefined;
    const lines = region ? blockLines(region, isAddress) : [];
    const scope = region ? regionScope(region) : undefined;
    const address = isAddress ? readAddress(lines) : {};
    const fields: ObjectFieldResult['fields'] = {};
    for (const sub of field.nested_fields) {
      if (sub.is_array) {
        fields[sub.name] = this.listResult(sub, scope);
        continue;
      }
      const found = this.simpleResult(sub, scope);
      const part = addressPartOf(sub);
      const shaped = region && part ? address[part] : undefined;
      if (found.value === null && shaped && region) {
        fields[sub.name] = toSimple(
          makeCandidate(
            shaped.value,
            shaped.words,
            region.page.index,
            {
              label: region.factor,
              position: shaped.certainty,
            },
            false,
          ),
        );
      } else {
        fields[sub.name] = found;
      }
    }
    return this.objectOf(fields, lines.flat(), region?.page.index ?? 0, field);
  }

  private objectOf(
    fields: ObjectFieldResult['fields'],
    regionWords: readonly Word[],
    page: number,
    field: AnyField,
  ): ObjectFieldResult {
    const found = Object.values(fields).filter((f) => ('value' in f ? f.value !== null : f.items.length > 0));
    const confidence = lowestLevel(found.map((f) => f.confidence)) ?? this.absenceFor(field);
    const locations =
      regionWords.length > 0
        ? locationsOf(regionWords, page)
        : mergeLocations(found.flatMap((f) => ('locations' in f ? f.locations : [])));
    return { fields, locations, confidence };
  }

  private objectList(field: FieldSchema): ListFieldResult<ObjectFieldResult> {
    if (this.ctx.index.wordCount === 0) return { items: [], confidence: 'Low' };
    const rows = readTables(this.ctx, field);
    const lines = rows && rows.length > 0 ? rows : readItemLines(this.ctx, field);
    const read = lines.length > 0 ? lines : readRecords(this.ctx, field);
    const seen = new Set<string>();
    const items: ObjectFieldResult[] = [];
    for (const row of read) {
      const fields: ObjectFieldResult['fields'] = {};
      for (const sub of field.nested_fields) {
        const cell = row.cells.get(sub);
        fields[sub.name] = cell ? toSimple(cell) : this.absentCell();
      }
      if (field.unique_values) {
        const key = JSON.stringify(Object.values(fields).map((f) => ('value' in f ? f.value : null)));
        if (seen.has(key)) continue;
        seen.add(key);
      }
      const words = row.words ?? [...row.cells.values()].flatMap((c) => c.words);
      items.push(this.objectOf(fields, words, row.page, field));
    }
    return {
      items,
      confidence: lowestLevel(items.map((i) => i.confidence)) ?? this.absenceFor(field),
    };
  }

  /** A cell of a row whose column is not printed: absent, as sure as the reading. */
  private absentCell(): SimpleFieldResult {
    return {
      value: null,
      locations: [],
      confidence: absenceLevel(this.ctx.index.reading, false),
    };
  }
}

/** A block's lines as an address: a letterhead's first line is the name, its last ones contacts. */
function blockLines(region: Region, isAddress: boolean): Word[][] {
  if (!isAddress) return region.lines;
  const text = (line: Word[]): string => line.map((w) => w.text).join(' ');
  let lines = region.lines;
  if (region.source === 'top' && lines.length > 1 && !/\d/.test(text(lines[0] ?? []))) lines = lines.slice(1);
  while (lines.length > 1 && CONTACT_LINE.test(text(lines.at(-1) ?? []))) lines = lines.slice(0, -1);
  return lines;
}

function toSimple(candidate: Candidate, score = candidate.score): SimpleFieldResult {
  return {
    value: candidate.value,
    locations: locationsOf(candidate.words, candidate.page),
    confidence: levelOf(score),
  };
}

/** One polygon around the words (a multi-line value gets the union box of its lines). */
function locationsOf(words: readonly Word[], page: number): FieldLocation[] {
  if (words.length === 0) return [];
  return [{ polygon: boxToPolygon(unionBox(words.map((w) => w.box))), page }];
}

/** One polygon per page around several locations. */
function mergeLocations(locations: readonly FieldLocation[]): FieldLocation[] {
  const byPage = new Map<number, FieldLocation[]>();
  for (const l of locations) byPage.set(l.page, [...(byPage.get(l.page) ?? []), l]);
  return [...byPage.entries()].map(([page, list]) => {
    const xs = list.flatMap((l) => l.polygon.map(([x]) => x));
    const ys = list.flatMap((l) => l.polygon.map(([, y]) => y));
    return {
      page,
      polygon: boxToPolygon({
        x0: Math.min(...xs),
        y0: Math.min(...ys),
        x1: Math.max(...xs),
        y1: Math.max(...ys),
      }),
    };
  });
}
