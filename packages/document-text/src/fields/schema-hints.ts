/**
 * What a field's own schema says about where and how to find it, read once per field from its
 * `description` and `guidelines` (the `title` and `name` are labels in label-phrases.ts). The
 * conventions are documented in docs/reference-fields.md; in short:
 *
 * - a quoted phrase (`"Invoice No."`) is a label, except in a clause that gives an example
 *   (`e.g.`, `for example`), a prefix (`starts with "INV"`) or a classification synonym;
 * - `starts with X` / `begins with X`: the value's expected prefix;
 * - `DD/MM/YYYY`, `MM/DD/YYYY` (and `day first`, `month first`): how ambiguous numeric dates read;
 * - `as a fraction` (or `5% is 0.05`): a percentage is answered as a fraction;
 * - `top of the document` / `at the top` / `header`: an unlabelled value printed first on page 1;
 * - `without a label` / `unlabelled` / `not labelled`: any value of the field's type may do;
 * - for classifications: in each clause, quoted phrases after a value are its synonyms
 *   (`"food" for "restaurant", "café"; "USD": "$", "US$"`), and `otherwise X` / `default X` names
 *   the value to answer when nothing else is supported.
 */
import { memoizeString } from './memo';
import type { FieldSchema } from '@extraction-review/contract/v2/field-schema';

export type DateOrder = 'dmy' | 'mdy';

export interface SchemaHints {
  /** Quoted phrases that are labels. */
  labels: string[];
  /** Expected beginnings of the value, as printed (case-insensitive). */
  prefixes: string[];
  dateOrder: DateOrder | undefined;
  /** Percentages are answered as fractions (5% → 0.05). */
  fraction: boolean;
  /** Printed at the top of the first page, often without a label. */
  atTop: boolean;
  /** May be printed without any label. */
  unlabelled: boolean;
  /** Classification value → the phrases that stand for it (the value itself included). */
  synonyms: Map<string, string[]>;
  /** The classification value to answer when nothing supports another one. */
  fallback: string | undefined;
}

export type HintSource = Pick<
  FieldSchema,
  'title' | 'name' | 'description' | 'guidelines' | 'type' | 'classification_values'
>;

const cache = new WeakMap<HintSource, SchemaHints>();

const QUOTED = /["“”«»`]([^"“”«»`]{1,60})["“”«»`]/g;
const EXAMPLE = /\b(?:e\.g\.|eg\.|for example|for instance|example|such as the value|looks like)\b/i;
const PREFIX =
  /\b(?:starts|start|begins|begin|starting|beginning)\s+with\s+(?:["“«`]([^"”»`]{1,20})["”»`]|([A-Za-z0-9#-]{1,20}))/gi;
const FALLBACK = /\b(?:otherwise|by default|default(?:s)?(?: to| is)?|when nothing else|if nothing else)\b/i;

export function schemaHints(field: HintSource): SchemaHints {
  const cached = cache.get(field);
  if (cached) return cached;
  const text = [field.description, field.guidelines ?? ''].join('\n');
  const clauses = splitClauses(text);
  const values = field.type === 'classification' ? field.classification_values : [];
  const synonyms = new Map<string, string[]>(values.map((v) => [v, [v]]));
  const labels: string[] = [];
  const prefixes: string[] = [];
  let fallback: string | undefined;

  for (const clause of clauses) {
    for (const m of clause.matchAll(PREFIX)) prefixes.push((m[1] ?? m[2] ?? '').trim());
    const isExample = EXAMPLE.test(clause) || /\b(?:starts|begins|start|begin)\s+with\b/i.test(clause);
    if (values.length > 0) {
      const mentions = valueMentions(clause, values);
      if (FALLBACK.test(clause) && mentions.length > 0) {
        fallback = mentions.at(-1)?.value;
        continue;
      }
      if (mentions.length > 0) {
        // Each quoted phrase belongs to the value mentioned last before it.
        for (const q of clause.matchAll(QUOTED)) {
          const at = q.index;
          const owner = [...mentions].reverse().find((m) => m.start <= at);
          const phrase = (q[1] ?? '').trim();
          if (!owner || phrase === '' || sameText(phrase, owner.value)) continue;
          if (values.some((v) => sameText(v, phrase))) continue;
          synonyms.get(owner.value)?.push(phrase);
        }
        continue;
      }
    }
    if (isExample) continue;
    for (const q of clause.matchAll(QUOTED)) {
      const phrase = (q[1] ?? '').trim();
      if (phrase !== '') labels.push(phrase);
    }
  }

  const lower = text.toLowerCase();
  let dateOrder: DateOrder | undefined;
  if (/\b(?:dd[/.-]mm[/.-]yy(?:yy)?|day first|day before (?:the )?month)\b/.test(lower)) dateOrder = 'dmy';
  if (/\b(?:mm[/.-]dd[/.-]yy(?:yy)?|month first|month before (?:the )?day)\b/.test(lower)) dateOrder = 'mdy';
  const hints: SchemaHints = {
    labels,
    prefixes: prefixes.filter((p) => p !== ''),
    dateOrder,
    fraction: /\bas a fraction\b|\b\d+(?:[.,]\d+)?\s*%\s*(?:is|=|→|->|becomes|as)\s*0[.,]\d+/.test(lower),
    atTop: /\b(?:top of the (?:document|page|receipt|invoice)|at the top|in the header|page header)\b/.test(
      lower,
    ),
    unlabelled: /\b(?:without (?:a |any )?label|unlabell?ed|not labell?ed|no label)\b/.test(lower),
    synonyms,
    fallback,
  };
  cache.set(field, hints);
  return hints;
}

/** Sentences and list items: `;`, a new line, or a full stop followed by a space. */
function splitClauses(text: string): string[] {
  // A full stop inside a quoted label ("Total excl. tax") ends no clause: quoted phrases are set
  // aside while splitting, then put back.
  const quoted: string[] = [];
  const masked = text.replace(QUOTED, (q) => `\uE000${quoted.push(q) - 1}\uE000`);
  return masked
    .split(/;|\n|(?<![A-Z][a-z]?|\b(?:e\.g|i\.e|no|nr|vs|etc))\.(?=\s|$)/)
    .map((c) => c.replace(/\uE000(\d+)\uE000/g, (_, i: string) => quoted[Number(i)] ?? '').trim())
    .filter((c) => c !== '');
}

interface Mention {
  value: string;
  start: number;
}

/** Where classification values are named in a clause (as whole words, any case). */
function valueMentions(clause: string, values: readonly string[]): Mention[] {
  const out: Mention[] = [];
  for (const value of values) {
    const pattern = new RegExp(`(?<![\\p{L}\\p{N}_])${escapeRegExp(value)}(?![\\p{L}\\p{N}_])`, 'giu');
    for (const m of clause.matchAll(pattern)) out.push({ value, start: m.index });
  }
  return out.sort((a, b) => a.start - b.start);
}

export const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Compared without case, accents or punctuation. */
export const foldText = memoizeString((text: string): string =>
  text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}%$€£¥₹#]+/gu, ' ')
    .trim(),
);

const sameText = (a: string, b: string): boolean => foldText(a) === foldText(b);

/** Whether a number field holds a rate: it reads percentages (`5.0%`). */
export function expectsPercent(field: HintSource): boolean {
  if (field.type !== 'number') return false;
  const text = `${field.title} ${field.name} ${field.description}`.toLowerCase().replace(/_/g, ' ');
  return schemaHints(field).fraction || /\brate\b|percent|%/.test(text);
}
