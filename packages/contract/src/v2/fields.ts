/**
 * Which kind a v2 field result is. The service tells them apart by key, not by a tag, and so does the
 * official client (`mindee-api-python`, `parsing/v2/field/base_field.py`): `items` → list, else `fields` →
 * object, else `value` → simple.
 */
import type { FieldResult, ListFieldResult, ObjectFieldResult, SimpleFieldResult } from './schemas';

export type FieldKind = 'simple' | 'object' | 'list';

/** The kind of a parsed field result. */
export function fieldKind(field: FieldResult): FieldKind {
  if ('items' in field) return 'list';
  if ('fields' in field) return 'object';
  return 'simple';
}

/** The kind of raw JSON (not yet parsed), or undefined when it is not a field result at all. */
export function detectFieldKind(value: unknown): FieldKind | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  if ('items' in value) return 'list';
  if ('fields' in value) return 'object';
  if ('value' in value) return 'simple';
  return undefined;
}

export function isSimpleField(field: FieldResult): field is SimpleFieldResult {
  return fieldKind(field) === 'simple';
}

export function isObjectField(field: FieldResult): field is ObjectFieldResult {
  return fieldKind(field) === 'object';
}

export function isListField(field: FieldResult): field is ListFieldResult {
  return fieldKind(field) === 'list';
}
