/**
 * Hand-placed words for the field finder's tests: a 1000 × 1000 page, characters 0.01 wide, lines
 * 0.015 high, so each rule can be seen on its own; plus small builders for schemas and results.
 */
import type {
  FieldResult,
  ListFieldResult,
  ObjectFieldResult,
  SimpleFieldResult,
} from '@extraction-review/document-text/api-types';
import type { PageText, Word } from '@extraction-review/document-text/extractor';
import { findFields } from '@extraction-review/document-text/fields/find-fields';
import { groupLines } from '@extraction-review/document-text/lines';
import { FieldSchema } from '@extraction-review/contract/v2/field-schema';

export const CHAR = 0.01;
export const HEIGHT = 0.015;

export interface PlacedLine {
  text: string;
  /** Top-left corner of the first character. */
  x: number;
  y: number;
  /** Reading confidence of every word of the line (default 1, a text layer). */
  confidence?: number;
  /** Character width and line height (defaults CHAR and HEIGHT). */
  char?: number;
  height?: number;
}

/** Lines of text at (x, y) of their first character's top-left corner. */
export function layoutPage(
  index: number,
  lines: readonly (PlacedLine | [string, number, number])[],
): PageText {
  const words: Word[] = [];
  for (const entry of lines) {
    const line: PlacedLine = Array.isArray(entry) ? { text: entry[0], x: entry[1], y: entry[2] } : entry;
    const char = line.char ?? CHAR;
    const height = line.height ?? HEIGHT;
    let offset = 0;
    for (const part of line.text.split(/( +)/)) {
      if (part.trim() !== '') {
        words.push({
          text: part,
          box: {
            x0: line.x + offset * char,
            y0: line.y,
            x1: line.x + (offset + part.length) * char,
            y1: line.y + height,
          },
          confidence: line.confidence ?? 1,
        });
      }
      offset += part.length;
    }
  }
  return { index, width: 1000, height: 1000, words };
}

export function findOnPages(
  pages: readonly PageText[],
  fields: readonly FieldSchema[],
  textContext?: string,
): Record<string, FieldResult> {
  return findFields(
    fields,
    pages.map((p) => ({ index: p.index, aspect: p.height / p.width, lines: groupLines(p) })),
    { textContext },
  );
}

type FieldInput = Partial<Omit<FieldSchema, 'nested_fields'>> & {
  name: string;
  type: FieldSchema['type'];
  nested_fields?: (Partial<FieldSchema> & { name: string; type: string })[];
};

/** A field with its defaults: title from the name, empty description. */
export function field(input: FieldInput): FieldSchema {
  const title = (name: string): string => name.replace(/_/g, ' ');
  return FieldSchema.parse({
    title: title(input.name),
    is_array: false,
    description: '',
    ...input,
    nested_fields: (input.nested_fields ?? []).map((sub) => ({
      title: title(sub.name),
      is_array: false,
      description: '',
      ...sub,
    })),
  });
}

export function simple(result: FieldResult | undefined): SimpleFieldResult {
  if (!result || !('value' in result)) throw new Error('not a simple field');
  return result;
}

export function object(result: FieldResult | undefined): ObjectFieldResult {
  if (!result || !('fields' in result)) throw new Error('not an object field');
  return result;
}

export function list(
  result: FieldResult | undefined,
): ListFieldResult<SimpleFieldResult | ObjectFieldResult> {
  if (!result || !('items' in result)) throw new Error('not a list field');
  return result as ListFieldResult<SimpleFieldResult | ObjectFieldResult>;
}

/** The values of an object's sub-fields, `{ name: value }`. */
export function valuesOf(result: ObjectFieldResult): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(result.fields).map(([k, v]) => [k, 'value' in v ? v.value : v.items]),
  );
}
