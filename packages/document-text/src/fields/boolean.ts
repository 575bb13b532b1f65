/**
 * A boolean is decided from evidence, in this order:
 *
 * 1. a label of the field with an explicit answer next to it (`Paid: yes`, `Signed ☒`, `Taxable: N`):
 *    scored like any labelled value;
 * 2. the label itself printed (its title or a quoted phrase of its description or guidelines, e.g.
 *    "PAID"): true, unless a negation is printed just before or inside it (`not`, `no`, `non`,
 *    `without`, `un-`) or an empty checkbox (`☐`, `[ ]`) precedes it, which make it false;
 * 3. nothing printed: false, Low (absence of a mark is weak evidence), on a document with words;
 *    null on a document without any (nothing can be said).
 */
import type { Word } from '../extractor';
import { LABEL_FACTOR, POSITION_FACTOR } from './confidence';
import { byRank, labelledCandidates, makeCandidate, type Candidate, type FinderContext } from './candidates';
import type { AnyField, TokenLine } from './document-index';

const NEGATION = new Set(['not', 'no', 'non', 'without', 'never', 'unpaid', 'none', 'n/a']);
const EMPTY_BOX = /^(?:☐|□|\[\s?\])$/;
const CHECKED_BOX = /^(?:☑|☒|✓|✔|■|\[[xX✓]\])$/;
/** A label found printed, without an explicit answer: the mark is the evidence. */
const PRESENCE = POSITION_FACTOR.block;
/** No evidence at all: false, Low. */
const ABSENT = 0.5;

export function booleanCandidates(
  ctx: FinderContext,
  field: AnyField,
  scope?: (line: TokenLine) => boolean,
): Candidate[] {
  const out: Candidate[] = [];
  const matches = ctx.index.labelMatches(field).filter((m) => !scope || scope(m.at));
  for (const match of matches) out.push(...labelledCandidates(ctx, field, match));
  if (out.length > 0) return out.sort(byRank);
  for (const match of matches) {
    if (match.strength === 'fuzzy') continue;
    const words = match.at.line.words;
    const labelWords = words.slice(match.start, match.end);
    const before = words.slice(Math.max(0, match.start - 2), match.start);
    const tokens = [...before, ...labelWords].map((w) => w.text.toLowerCase().replace(/[.,:;]$/, ''));
    const negated = tokens.some((t) => NEGATION.has(t)) || before.some((w) => EMPTY_BOX.test(w.text.trim()));
    const checked = before.some((w) => CHECKED_BOX.test(w.text.trim()));
    const evidence: Word[] = [
      ...before.filter((w) => CHECKED_BOX.test(w.text.trim()) || EMPTY_BOX.test(w.text.trim())),
      ...labelWords,
    ];
    out.push(
      makeCandidate(
        !negated,
        evidence,
        match.at.page.index,
        {
          label: LABEL_FACTOR[match.strength],
          position: checked ? POSITION_FACTOR.right : PRESENCE,
        },
        true,
      ),
    );
  }
  if (out.length > 0) return out.sort(byRank);
  if (ctx.index.wordCount > 0) return [makeCandidate(false, [], 0, { position: ABSENT, reading: 1 }, false)];
  return [];
}
