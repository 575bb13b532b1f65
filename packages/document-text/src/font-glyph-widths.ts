/**
 * Glyph widths of a pdf.js font, looked up by the Unicode text pdf.js reports.
 *
 * pdf.js's public text API has no per-glyph widths. With `fontExtraProperties: true`, the font objects
 * it hands to the main thread (in `page.commonObjs`, once `getOperatorList()` has loaded them) carry
 * `widths` (by character code) and `toUnicode` (character code → text); inverting the latter gives a
 * width per character. These are pdf.js internals, so everything here is read defensively: any shape we
 * do not recognise yields `undefined` and splitRun (packages/document-text/src/pdf-text-runs.ts) falls back to character counts.
 */
import type { GlyphWidthOf } from './pdf-text-runs';

type UnknownRecord = Record<string, unknown>;
const isRecord = (v: unknown): v is UnknownRecord => typeof v === 'object' && v !== null;

/** Character code → text, from a `ToUnicodeMap` (`_map`) or an `IdentityToUnicodeMap` (`firstChar`..`lastChar`). */
function unicodeByCode(toUnicode: unknown): Map<number, string> {
  const out = new Map<number, string>();
  if (!isRecord(toUnicode)) return out;
  const map = toUnicode['_map'];
  if (isRecord(map)) {
    for (const [code, text] of Object.entries(map)) {
      if (typeof text === 'string') out.set(Number(code), text);
    }
  } else if (typeof toUnicode['firstChar'] === 'number' && typeof toUnicode['lastChar'] === 'number') {
    for (let code = toUnicode['firstChar']; code <= toUnicode['lastChar']; code++) {
      out.set(code, String.fromCharCode(code));
    }
  }
  return out;
}

export function glyphWidthsOf(font: unknown): GlyphWidthOf | undefined {
  if (!isRecord(font) || !isRecord(font['widths'])) return undefined;
  const widths = font['widths'];
  const byChar = new Map<string, number>();
  for (const [code, text] of unicodeByCode(font['toUnicode'])) {
    const width = widths[String(code)];
    // Only single characters: pdf.js's text is what we split, character by character.
    if (typeof width === 'number' && width > 0 && Array.from(text).length === 1 && !byChar.has(text)) {
      byChar.set(text, width);
    }
  }
  if (byChar.size === 0) return undefined;
  return (char) => byChar.get(char);
}
