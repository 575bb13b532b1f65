/**
 * A classification answers one of its `classification_values`, never anything else, from evidence:
 *
 * 1. a label of the field with a value or synonym next to it (`Currency: EUR`, `Type: Credit note`):
 *    scored like any labelled value;
 * 2. otherwise votes: each time a value or one of its synonyms (schema-hints.ts: quoted phrases after
 *    the value in the guidelines) is printed in the document counts one vote (a symbol such as `$`
 *    counts wherever it is printed, a word or phrase as whole words); the text context stating the
 *    value counts four, mentioning it two. The value with most votes wins; its score grows with its
 *    votes and its margin over the runner-up;
 * 3. otherwise the guidelines' fallback (`otherwise "miscellaneous"`), Low;
 * 4. otherwise null.
 */
import type { Word } from '../extractor';
import { CONTEXT_AGREES, LABEL_FACTOR, POSITION_FACTOR, RIVAL_PENALTY, type Position } from './confidence';
import { byRank, makeCandidate, type Candidate, type FinderContext } from './candidates';
import type { AnyField, TokenLine } from './document-index';
import { normalizeToken } from './label-phrases';
import { foldText, schemaHints } from './schema-hints';
import { CLASSIFICATION_SYNONYMS } from './vocabulary';

/** Score of a value chosen by votes, before its margin and context. */
const VOTED = 0.6;
const VOTED_MANY = 0.7;
const VOTED_CLEAR = 0.82;
/** Score of the guidelines' fallback: always for a person to check. */
const FALLBACK = 0.5;

export function classificationCandidates(
  ctx: FinderContext,
  field: AnyField,
  scope?: (line: TokenLine) => boolean,
): Candidate[] {
  const hints = schemaHints(field);
  const values = field.classification_values;
  if (values.length === 0) return [];
  const synonyms = withVocabulary(hints.synonyms);
  const lookup = (text: string): string | undefined => {
    const folded = foldText(text);
    for (const [value, phrases] of synonyms) {
      if (phrases.some((p) => foldText(p) === folded)) return value;
    }
    return undefined;
  };

  // 1. Labelled.
  const labelled: Candidate[] = [];
  for (const match of ctx.index.labelMatches(field)) {
    if (scope && !scope(match.at)) continue;
    const readings: [Position, Word[]][] = [
      ['right', ctx.index.wordsRightOf(match)],
      ['below', ctx.index.wordsBelow(match)],
    ];
    for (const [position, words] of readings) {
      for (let length = Math.min(4, words.length); length > 0; length--) {
        const span = words.slice(0, length);
        const value = lookup(span.map((w) => w.text).join(' '));
        if (value === undefined) continue;
        labelled.push(
          makeCandidate(
            value,
            span,
            match.at.page.index,
            {
              label: LABEL_FACTOR[match.strength],
              position: POSITION_FACTOR[position],
            },
            true,
          ),
        );
        break;
      }
    }
  }
  if (labelled.length > 0) return labelled.sort(byRank);

  // 2. Votes.
  const votes = new Map<string, { count: number; words: Word[]; page: number }>();
  const vote = (value: string, weight: number, words: Word[] = [], page = 0): void => {
    const entry = votes.get(value) ?? { count: 0, words: [], page };
    entry.count += weight;
    // The most prominent printing (tallest words, the first of equals) locates the value.
    const height = (ws: Word[]): number => Math.max(0, ...ws.map((w) => w.box.y1 - w.box.y0));
    if (words.length > 0 && (entry.words.length === 0 || height(words) > 1.05 * height(entry.words))) {
      entry.words = words;
      entry.page = page;
    }
    votes.set(value, entry);
  };
  const lines = ctx.index.lines.filter((l) => !scope || scope(l));
  // Longer phrases first, each printed word counted once: "factura simplificada" is a receipt, not
  // also the invoice "factura"; "C$" is Canadian, not also "$".
  const phrases = [...synonyms].flatMap(([value, list]) =>
    list.map((phrase) => ({
      value,
      phrase,
      // A value that is a short code ("de", "en") counts printed as one, in capitals: "de" is a word.
      printed: phrase === value && /^\p{Ll}{2,3}$/u.test(value) ? value.toUpperCase() : phrase,
    })),
  );
  phrases.sort((a, b) => b.printed.length - a.printed.length);
  const counted = new Set<Word>();
  for (const { value, phrase, printed } of phrases) {
    for (const hit of occurrences(lines, printed)) {
      if (hit.words.some((w) => counted.has(w))) continue;
      hit.words.forEach((w) => counted.add(w));
      vote(value, 1, hit.words, hit.page);
    }
    if (ctx.context.mentions(phrase)) vote(value, 2);
  }
  for (const stated of ctx.context.statedValues(field)) {
    const value = lookup(stated);
    if (value !== undefined) vote(value, 4);
  }
  const ranked = [...votes.entries()].filter(([, v]) => v.count > 0).sort((a, b) => b[1].count - a[1].count);
  const [winner, runnerUp] = ranked;
  if (winner) {
    const [value, { count, words, page }] = winner;
    const margin = runnerUp ? count / runnerUp[1].count : Infinity;
    let score = count >= 3 && margin >= 2 ? VOTED_CLEAR : count >= 2 ? VOTED_MANY : VOTED;
    if (runnerUp && margin < 1.34) score *= RIVAL_PENALTY;
    const contextSays =
      ctx.context.statedValues(field).some((s) => lookup(s) === value) ||
      (synonyms.get(value) ?? []).some((p) => ctx.context.mentions(p));
    // Evidence from the context alone, nothing printed: Medium at best.
    const printed = words.length > 0;
    const candidate = makeCandidate(
      value,
      words,
      page,
      {
        position: printed ? score : VOTED,
        hints: contextSays && printed ? CONTEXT_AGREES : 1,
        reading: printed ? undefined : 1,
      },
      false,
    );
    return [candidate];
  }

  // 3. The guidelines' fallback, on a document that has something to read.
  if (hints.fallback !== undefined && ctx.index.wordCount > 0) {
    return [makeCandidate(hints.fallback, [], 0, { position: FALLBACK, reading: 1 }, false)];
  }
  return [];
}

const SYMBOL = /^[^\p{L}\p{N}\s]+$/u;

/** The guidelines' synonyms and the vocabulary's common printings of each value (vocabulary.ts). */
function withVocabulary(synonyms: ReadonlyMap<string, string[]>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [value, phrases] of synonyms) {
    const known = new Set(phrases.map((p) => foldText(p)));
    const extra = (CLASSIFICATION_SYNONYMS[value] ?? []).filter((p) => !known.has(foldText(p)));
    out.set(value, [...phrases, ...extra]);
  }
  return out;
}

/** Where a phrase is printed: a symbol inside any word, a word or phrase as whole tokens. */
function occurrences(lines: readonly TokenLine[], phrase: string): { words: Word[]; page: number }[] {
  const out: { words: Word[]; page: number }[] = [];
  const trimmed = phrase.trim();
  if (trimmed === '') return out;
  if (SYMBOL.test(trimmed)) {
    for (const line of lines) {
      for (const word of line.line.words) {
        if (word.text.includes(trimmed)) out.push({ words: [word], page: line.page.index });
      }
    }
    return out;
  }
  // A sign with letters ("C$", "US$", "A$") is matched at the start of a word, as printed.
  if (/[^\p{L}\p{N}\s._]/u.test(trimmed) && !/\s/.test(trimmed)) {
    for (const line of lines) {
      for (const word of line.line.words) {
        if (word.text.toUpperCase().startsWith(trimmed.toUpperCase()))
          out.push({ words: [word], page: line.page.index });
      }
    }
    return out;
  }
  // A short code ("US", "CA", "EUR") is matched as printed, in capitals: "us" is a word, "US" a code.
  if (/^[A-Z]{2,3}$/.test(trimmed)) {
    for (const line of lines) {
      for (const word of line.line.words) {
        const bare = word.text.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '');
        if (bare === trimmed) out.push({ words: [word], page: line.page.index });
      }
    }
    return out;
  }
  // "credit_note" is printed "credit note".
  const tokens = trimmed
    .split(/[\s_]+/)
    .map(normalizeToken)
    .filter((t) => t !== '');
  if (tokens.length === 0) return out;
  for (const line of lines) {
    for (let start = 0; start + tokens.length <= line.tokens.length; start++) {
      if (tokens.every((t, k) => line.tokens[start + k] === t)) {
        out.push({ words: line.line.words.slice(start, start + tokens.length), page: line.page.index });
      }
    }
  }
  return out;
}
