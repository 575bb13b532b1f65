/**
 * What a field's label may look like on the page, read from the field's own schema: its `title`, its
 * `name` (`invoice_number` → "invoice number") and every quoted phrase in its `description` and
 * `guidelines` (`Labelled "Invoice No." or "Invoice #"`). Those are *exact* labels. Swapping a word for
 * a common synonym or abbreviation ("number" ↔ "no", "nr", "#") gives *variant* labels, which count
 * for less. A replaced data schema steers the finder the same way, through its own texts.
 */
import type { SubFieldSchema } from '../../models/field-schema';

export type LabelStrength = 'exact' | 'variant' | 'fuzzy';

export interface LabelPhrase {
  tokens: string[];
  strength: LabelStrength;
}

const SYNONYMS: readonly (readonly string[])[] = [
  ['number', 'no', 'nr', 'num', 'nbr', '#', 'n°', 'nº'],
  ['date', 'dated'],
  ['amount', 'amt', 'sum'],
  ['total', 'ttl'],
  ['reference', 'ref'],
  ['identifier', 'id'],
  ['supplier', 'vendor', 'seller'],
  ['invoice', 'bill'],
];

/**
 * Lower case, accents and surrounding punctuation removed; `#` and `°` are kept because they are
 * labels in their own right ("Invoice #", "N°"). A word of punctuation only becomes ''.
 */
export function normalizeToken(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/^[^\p{L}\p{N}#°º]+|[^\p{L}\p{N}#°º]+$/gu, '');
}

const tokenize = (phrase: string): string[] =>
  phrase
    .split(/[\s_]+/)
    .map(normalizeToken)
    .filter((t) => t !== '');

const QUOTED = /["“”«»]([^"“”«»]{1,60})["“”«»]/g;

export function labelPhrases(
  field: Pick<SubFieldSchema, 'title' | 'name' | 'description' | 'guidelines'>,
): LabelPhrase[] {
  const exact = [field.title, field.name, ...[field.description, field.guidelines ?? ''].flatMap(quoted)]
    .map(tokenize)
    .filter((tokens) => tokens.length > 0);
  const phrases = new Map<string, LabelPhrase>();
  for (const tokens of exact) phrases.set(tokens.join(' '), { tokens, strength: 'exact' });
  for (const tokens of exact) {
    tokens.forEach((token, i) => {
      for (const synonym of SYNONYMS.find((group) => group.includes(token)) ?? []) {
        const variant = tokens.with(i, synonym);
        const key = variant.join(' ');
        if (!phrases.has(key)) phrases.set(key, { tokens: variant, strength: 'variant' });
      }
    });
  }
  return [...phrases.values()];
}

function quoted(text: string): string[] {
  return [...text.matchAll(QUOTED)].map((m) => m[1] ?? '');
}

/**
 * How a label token compares with a document token: equal, or one edit apart in a word long enough
 * for that to be a misprint rather than another word ("Invoce" for "Invoice"; OCR will need this).
 */
export function compareTokens(label: string, document: string): LabelStrength | undefined {
  if (label === document) return 'exact';
  if (label.length >= 5 && document.length >= 5 && withinOneEdit(label, document)) return 'fuzzy';
  return undefined;
}

function withinOneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  // After the first difference the rest must match, allowing one substitution, insertion or deletion.
  return a.slice(i + 1) === b.slice(i + 1) || a.slice(i) === b.slice(i + 1) || a.slice(i + 1) === b.slice(i);
}

const RANK: Record<LabelStrength, number> = { exact: 2, variant: 1, fuzzy: 0 };

export const weakest = (a: LabelStrength, b: LabelStrength): LabelStrength => (RANK[a] <= RANK[b] ? a : b);

/** One step weaker; `undefined` below fuzzy. */
export function weaken(strength: LabelStrength): LabelStrength | undefined {
  return strength === 'exact' ? 'variant' : strength === 'variant' ? 'fuzzy' : undefined;
}

export const strengthRank = (strength: LabelStrength): number => RANK[strength];
