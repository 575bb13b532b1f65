/**
 * The request's `text_context`, read as hints about the document. Two kinds:
 *
 * - **statements** naming a field and a value: `supplier is ACME Corp`, `currency: EUR`,
 *   `invoice number = INV-7`. The field is recognised by its labels (title, name, quoted labels of
 *   its guidelines); the value is the rest of the clause after `is`, `=`, `:`, `are`, `should be`.
 * - **mentions**: the context's words, where a classification value or one of its synonyms can be
 *   found (`amounts are in EUR`, `this is a receipt`).
 *
 * Plus the date order (`dates are day first`, `DD/MM/YYYY`). The context never supplies a value by
 * itself: values are always read from the document, and the context raises the confidence of the
 * readings it agrees with, lowers the others, and counts as evidence for classifications.
 */
import { labelPhrases } from './label-phrases';
import type { AnyField } from './document-index';
import { foldText, type DateOrder } from './schema-hints';

export interface TextContext {
  /** The context folded (lower case, no accents or punctuation), padded with spaces. */
  readonly folded: string;
  readonly dateOrder: DateOrder | undefined;
  /** Values the context states for a field (as written). */
  statedValues(field: AnyField): string[];
  /** Whether the context mentions this phrase as whole words. */
  mentions(phrase: string): boolean;
}

const CONNECTOR = /^\s*(?:is|are|was|were|should be|must be|will be|equals|=|:|-)\s*/i;

export function readTextContext(text: string | null | undefined, fields: readonly AnyField[]): TextContext {
  const raw = (text ?? '').trim();
  const folded = ` ${foldText(raw)} `;
  const stated = new Map<AnyField, string[]>();
  for (const clause of raw === '' ? [] : raw.split(/[;\n]|\.(?=\s|$)/)) {
    const lower = clause.toLowerCase();
    // The longest label that starts a statement wins ("supplier address is ..." over "supplier").
    let best: { field: AnyField; end: number; length: number } | undefined;
    for (const field of fields) {
      for (const phrase of labelPhrases(field)) {
        if (phrase.strength !== 'exact') continue;
        const words = phrase.tokens.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[\\s_]+');
        const m = new RegExp(`(?<![\\p{L}\\p{N}])${words}(?![\\p{L}\\p{N}])`, 'iu').exec(lower);
        if (!m) continue;
        const rest = clause.slice(m.index + m[0].length);
        if (!CONNECTOR.test(rest)) continue;
        const length = m[0].length;
        if (!best || length > best.length) best = { field, end: m.index + length, length };
      }
    }
    if (!best) continue;
    const value = clause
      .slice(best.end)
      .replace(CONNECTOR, '')
      .trim()
      .replace(/^["'“«]|["'”»]$/g, '')
      .trim();
    if (value === '') continue;
    stated.set(best.field, [...(stated.get(best.field) ?? []), value]);
  }
  const lower = raw.toLowerCase();
  let dateOrder: DateOrder | undefined;
  if (/\b(?:dd[/.-]mm[/.-]yy(?:yy)?|day first|day before (?:the )?month)\b/.test(lower)) dateOrder = 'dmy';
  if (/\b(?:mm[/.-]dd[/.-]yy(?:yy)?|month first|month before (?:the )?day)\b/.test(lower)) dateOrder = 'mdy';
  return {
    folded,
    dateOrder,
    statedValues: (field) => stated.get(field) ?? [],
    mentions: (phrase) => {
      const p = foldText(phrase);
      return p !== '' && folded.includes(` ${p} `);
    },
  };
}
