/**
 * Search in the raw text of the pages: case-insensitive, a space in the query matching any run of
 * white space (a phrase split over two lines is still found). Offsets index the original text, so the
 * panel can cut it into plain-text pieces and mark the matches, without ever producing HTML.
 */

export interface TextMatch {
  /** 0-based page index. */
  page: number;
  start: number;
  end: number;
  /** A short excerpt around the match, for the list of matches. */
  before: string;
  text: string;
  after: string;
}

export const MAX_MATCHES = 500;
const CONTEXT = 30;

export function searchPattern(query: string): RegExp | null {
  const words = query.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return null;
  const escaped = words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(escaped.join('\\s+'), 'giu');
}

export function findMatches(pages: readonly string[], query: string, limit = MAX_MATCHES): TextMatch[] {
  const pattern = searchPattern(query);
  if (!pattern) return [];
  const matches: TextMatch[] = [];
  pages.forEach((content, page) => {
    for (const m of content.matchAll(pattern)) {
      if (matches.length >= limit) return;
      const start = m.index;
      const end = start + m[0].length;
      matches.push({
        page,
        start,
        end,
        before: oneLine(content.slice(Math.max(0, start - CONTEXT), start)),
        text: oneLine(m[0]),
        after: oneLine(content.slice(end, end + CONTEXT)),
      });
    }
  });
  return matches;
}

export interface TextPiece {
  text: string;
  /** The index of the match in the page's list of matches, or null for text between matches. */
  match: number | null;
}

/** A page's text cut at its matches (sorted, not overlapping, as `findMatches` gives them). */
export function splitAtMatches(
  content: string,
  matches: readonly Pick<TextMatch, 'start' | 'end'>[],
): TextPiece[] {
  const pieces: TextPiece[] = [];
  let at = 0;
  matches.forEach((m, i) => {
    if (m.start > at) pieces.push({ text: content.slice(at, m.start), match: null });
    pieces.push({ text: content.slice(m.start, m.end), match: i });
    at = m.end;
  });
  if (at < content.length) pieces.push({ text: content.slice(at), match: null });
  return pieces;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ');
}
