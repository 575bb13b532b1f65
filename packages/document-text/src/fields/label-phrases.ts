/**
 * What a field's label may look like on the page, read from the field's own schema: its `title`, its
 * `name` (`invoice_number` → "invoice number") and the quoted phrases of its `description` and
 * `guidelines` that are labels (`Labelled "Invoice No." or "Invoice #"`; see schema-hints.ts for the
 * quoted phrases that are not). Those are *exact* labels. Swapping a word for a common synonym or
 * abbreviation ("number" ↔ "no", "nr", "#") gives *variant* labels, which count for less. A replaced
 * data schema steers the finder the same way, through its own texts.
 */
import { memoizeObject, memoizeString } from './memo';
import { schemaHints, type HintSource } from './schema-hints';
import { VOCABULARIES } from './vocabulary';

export type LabelStrength = 'exact' | 'variant' | 'fuzzy';

export interface LabelPhrase {
  tokens: string[];
  strength: LabelStrength;
  /** A label only when a colon follows it on the page (vocabulary.ts: `Number:`). */
  colonOnly?: boolean;
  /** The value follows immediately, on the label's line (vocabulary.ts: `…of`). */
  adjacent?: boolean;
}

const SYNONYMS: readonly (readonly string[])[] = [
  ['number', 'no', 'nr', 'num', 'nbr', '#', 'n°', 'nº'],
  ['date', 'dated'],
  ['amount', 'amt', 'sum'],
  ['total', 'ttl'],
  ['reference', 'ref'],
  ['identifier', 'id'],
  ['supplier', 'vendor', 'seller', 'merchant'],
  ['customer', 'client', 'buyer'],
  ['invoice', 'bill'],
  ['quantity', 'qty', 'qte'],
  ['telephone', 'phone', 'tel'],
  ['address', 'addr'],
  ['gratuity', 'tip'],
  ['tax', 'vat', 'gst'],
  ['description', 'item', 'designation'],
  ['price', 'cost'],
  ['receipt', 'ticket'],
];

/**
 * Lower case, accents and surrounding punctuation removed; `#` and `°` are kept because they are
 * labels in their own right ("Invoice #", "N°"). A word of punctuation only becomes ''.
 */
export const normalizeToken = memoizeString((text: string): string =>
  text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/^[^\p{L}\p{N}#°º]+|[^\p{L}\p{N}#°º]+$/gu, ''),
);

const tokenize = (phrase: string): string[] =>
  phrase
    .split(/[\s_]+/)
    .map(normalizeToken)
    .filter((t) => t !== '');

/** The phrases of a field, computed once per schema field object (callers must not mutate them). */
export const labelPhrases = memoizeObject(findLabelPhrases);

function findLabelPhrases(field: HintSource): LabelPhrase[] {
  const exact = [field.title, field.name, ...schemaHints(field).labels]
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
  for (const label of vocabularyLabels(field)) {
    const adjacent = label.startsWith('…');
    const colonOnly = !adjacent && label.trimEnd().endsWith(':');
    const tokens = tokenize(label.replace(/^…/, ''));
    const key = tokens.join(' ');
    if (tokens.length === 0) continue;
    const known = phrases.get(key);
    // The schema's own label stays as it is; a vocabulary line adds its marks only to a new label.
    if (!known || known.strength !== 'exact') {
      phrases.set(key, {
        tokens,
        strength: 'exact',
        ...(colonOnly && { colonOnly }),
        ...(adjacent && { adjacent }),
      });
    }
  }
  return [...phrases.values()];
}

/** The labels of the vocabularies (vocabulary.ts) whose names include the field's name. */
function vocabularyLabels(field: HintSource): string[] {
  const name = field.name.replace(/_/g, ' ').trim().toLowerCase();
  return VOCABULARIES.filter((v) => v.names.includes(name)).flatMap((v) => Object.values(v.labels).flat());
}

/**
 * How a label token compares with a document token: equal, or one edit apart in a word long enough
 * for that to be a misprint rather than another word ("Invoce" for "Invoice"; OCR will need this).
 */
export function compareTokens(label: string, document: string): LabelStrength | undefined {
  if (label === document) return 'exact';
  // OCR reads O as 0, l or I as 1, S as 5 inside words: "P.0./S.0." is "P.O./S.O.".
  if (/\p{L}/u.test(document) && ocrCanonical(label) === ocrCanonical(document)) return 'fuzzy';
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

const ocrCanonical = memoizeString((token: string): string =>
  token.replace(/0/g, 'o').replace(/[1|]/g, 'l').replace(/i/g, 'l').replace(/5/g, 's'),
);
