/**
 * What the model's data schema says about each field, reduced to what the editors need: the type
 * (which editor), whether it is a list, the classification values (a select), and the sub-fields of a
 * nested object (the columns of a table, even when the list came back empty).
 *
 * Read structurally, so any schema with these members fits: the model's schema from the app server
 * (`modelSchemaQueryOptions`), or a `data_schema` replacement.
 */

export interface SchemaFieldLike {
  name: string;
  /** The field's human name (every field of a v2 data schema has one). */
  title?: string | null | undefined;
  type: string;
  is_array?: boolean | null | undefined;
  classification_values?: readonly string[] | null | undefined;
  nested_fields?: readonly SchemaFieldLike[] | null | undefined;
}

export interface FieldHint {
  /** The schema's title, or null when it gives none (or only repeats the name). */
  title: string | null;
  type: string;
  isArray: boolean;
  /** Classification values, or null for other types. */
  options: string[] | null;
  /** Sub-fields of a nested object, in the schema's order. */
  nested: Map<string, FieldHint>;
}

export type SchemaHints = ReadonlyMap<string, FieldHint>;

export const NO_HINTS: SchemaHints = new Map();

export function schemaHints(fields: readonly SchemaFieldLike[] | null | undefined): SchemaHints {
  const hints = new Map<string, FieldHint>();
  for (const field of fields ?? []) hints.set(field.name, hintOf(field));
  return hints;
}

function hintOf(field: SchemaFieldLike): FieldHint {
  const title = field.title?.trim();
  return {
    title: title !== undefined && title !== '' && title !== field.name ? title : null,
    type: field.type,
    isArray: field.is_array === true,
    options:
      field.type === 'classification' && field.classification_values?.length
        ? [...field.classification_values]
        : null,
    nested: schemaHints(field.nested_fields) as Map<string, FieldHint>,
  };
}

/** The hint of one item of a list field: the same field, not an array. */
export function itemHint(hint: FieldHint | undefined): FieldHint | undefined {
  return hint && { ...hint, isArray: false };
}

/**
 * A field's human name when the schema gives none: `supplier_address` → "Supplier address",
 * `totalAmount` → "Total amount". The API name stays the key (and is shown on hover/in Details).
 */
export function humanFieldName(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-.]+/g, ' ')
    .trim()
    .toLowerCase();
  return words === '' ? name : words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * What one item of a list is called, from the list's title: `Line items` → "Line item", `Taxes` →
 * "Tax", `Reference numbers` → "Reference number". A title that does not read as an English plural is
 * kept as it is (`Data` → "Data"), so "Data 2" rather than a word that does not exist.
 */
export function itemTitle(listTitle: string): string {
  const m = /^(.*?)(\p{L}+)$/u.exec(listTitle);
  if (!m) return listTitle;
  const [, head = '', last = ''] = m;
  const lower = last.toLowerCase();
  const one =
    /[^aeiou]ies$/.test(lower) && lower.length > 4
      ? `${last.slice(0, -3)}${last.slice(-3) === 'IES' ? 'Y' : 'y'}`
      : /(ss|x|ch|sh|zz)es$/.test(lower)
        ? last.slice(0, -2)
        : /[^su]s$/.test(lower) && lower.length > 3
          ? last.slice(0, -1)
          : last;
  return `${head}${one}`;
}
