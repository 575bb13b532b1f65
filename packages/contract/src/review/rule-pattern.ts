/**
 * The regular expressions of pattern rules (model-settings.ts), run by RE2 (`re2js`, a pure JavaScript
 * port): matching takes time linear in the value, whatever the pattern, so an admin's pattern and a
 * pipeline's document text cannot stall the app server or the browser together (issue 18; the choice
 * is docs/decisions/0007-linear-time-rule-patterns.md). The same module checks a pattern when it is
 * saved (the form and the server) and runs it (intake on the server, the review in the browser), so
 * every place gives the same verdict.
 *
 * What an admin writes is JavaScript syntax as before (Unicode mode, case-sensitive), translated to
 * RE2's: `\s`, `\S` and `.` keep JavaScript's meaning (RE2's `\s` is ASCII only and its `.` stops at
 * `\n` only; an extracted value often holds a no-break space). Backreferences and lookaround have no
 * linear-time form and are refused by name. RE2's inline flags work: `(?i)` ignores case.
 */
import { RE2JS, RE2JSException } from 're2js';

/** A pattern compiled: `test` finds it anywhere in the text unless anchored (`^…$`). */
export interface RulePattern {
  test(text: string): boolean;
}

export type CompiledPattern = { ok: true; pattern: RulePattern } | { ok: false; error: string };

/** JavaScript's `\s`: WhiteSpace and LineTerminator (ECMA-262), as code point ranges. */
const JS_SPACE: readonly (readonly [number, number])[] = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];
const MAX_CODE_POINT = 0x10ffff;

const hex = (n: number) => `\\x{${n.toString(16)}}`;
const ranges = (list: readonly (readonly [number, number])[]) =>
  list.map(([a, b]) => (a === b ? hex(a) : `${hex(a)}-${hex(b)}`)).join('');

function complement(list: readonly (readonly [number, number])[]): [number, number][] {
  const out: [number, number][] = [];
  let next = 0;
  for (const [a, b] of list) {
    if (a > next) out.push([next, a - 1]);
    next = b + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

/** Class contents: `\s` and `\S` inside a class, where a negated class cannot be nested. */
const SPACE_ITEMS = ranges(JS_SPACE);
const NON_SPACE_ITEMS = ranges(complement(JS_SPACE));
/** JavaScript's `.` without the `s` flag: anything but a line terminator. */
const DOT = String.raw`[^\n\r\x{2028}\x{2029}]`;

/** The escapes of JavaScript's Unicode mode that RE2 reads the same (after `translateRegExp`). */
const KNOWN_ESCAPES = new Set('dDwWsSbBpPnrtfvxuc0');

/**
 * Escapes that translateRegExp would turn into a letter when malformed (`\u12` into `u12`), refused
 * here as JavaScript refuses them: what follows the letter, or undefined when well formed.
 */
const MALFORMED: Partial<Record<string, (rest: string) => string | undefined>> = {
  u: (rest) =>
    /^(?:[0-9a-fA-F]{4}|\{[0-9a-fA-F]{1,6}\})/.test(rest) ? undefined : '\\u needs 4 hex digits or {hex}',
  x: (rest) => (/^(?:[0-9a-fA-F]{2}|\{[0-9a-fA-F]{1,6}\})/.test(rest) ? undefined : '\\x needs 2 hex digits'),
  c: (rest) => (/^[A-Za-z]/.test(rest) ? undefined : '\\c needs a letter'),
  0: (rest) => (/^[0-9]/.test(rest) ? 'octal escapes (\\0 and a digit) are not supported' : undefined),
};

/**
 * JavaScript's pattern as RE2's, or why it has none. A scan of escapes, classes and group openings
 * (not a full parser: RE2's own parser checks the rest, and names what it refuses).
 */
export function toRe2Syntax(pattern: string): { ok: true; source: string } | { ok: false; error: string } {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern.charAt(i);
    if (ch === '\\') {
      const next = pattern.charAt(i + 1);
      if (/[1-9]/.test(next) || next === 'k')
        return { ok: false, error: `backreferences (\\${next}) cannot be run in linear time` };
      if (/[A-Za-z0-9]/.test(next) && !KNOWN_ESCAPES.has(next))
        return { ok: false, error: `\\${next} is not an escape` };
      const malformed = MALFORMED[next]?.(pattern.slice(i + 2));
      if (malformed !== undefined) return { ok: false, error: malformed };
      if (next === 's') out += inClass ? SPACE_ITEMS : `[${SPACE_ITEMS}]`;
      else if (next === 'S') out += inClass ? NON_SPACE_ITEMS : `[^${SPACE_ITEMS}]`;
      else out += ch + next;
      i++;
      continue;
    }
    if (inClass) {
      if (ch === ']') inClass = false;
      out += ch;
      continue;
    }
    if (ch === '[') {
      inClass = true;
      // A `]` right after `[` or `[^` closes JavaScript's class (`[]`, `[^]`): translateRegExp reads those.
      if (pattern.startsWith(']', i + 1) || pattern.startsWith('^]', i + 1)) {
        const end = pattern.indexOf(']', i + 1);
        out += pattern.slice(i, end + 1);
        i = end;
        inClass = false;
        continue;
      }
      out += ch;
      if (pattern.charAt(i + 1) === '^') {
        out += '^';
        i++;
      }
      continue;
    }
    if (ch === '(' && pattern.charAt(i + 1) === '?') {
      const look = /^\(\?(=|!|<=|<!)/.exec(pattern.slice(i))?.[1];
      if (look !== undefined)
        return {
          ok: false,
          error: `${look.startsWith('<') ? 'lookbehind' : 'lookahead'} (?${look}…) cannot be run in linear time`,
        };
    }
    out += ch === '.' ? DOT : ch;
  }
  return { ok: true, source: RE2JS.translateRegExp(out) };
}

const cache = new Map<string, CompiledPattern>();
const CACHE_SIZE = 500;

/** The pattern compiled (kept: the review runs the rules at each keystroke), or why it is not one. */
export function compileRulePattern(pattern: string): CompiledPattern {
  const kept = cache.get(pattern);
  if (kept !== undefined) return kept;
  const compiled = compile(pattern);
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value ?? '');
  cache.set(pattern, compiled);
  return compiled;
}

function compile(pattern: string): CompiledPattern {
  const syntax = toRe2Syntax(pattern);
  if (!syntax.ok) return syntax;
  try {
    const re = RE2JS.compile(syntax.source);
    return { ok: true, pattern: { test: (text) => re.test(text) } };
  } catch (error) {
    if (!(error instanceof RE2JSException)) throw error;
    return { ok: false, error: describe(error.message) };
  }
}

/** RE2's message without its prefix (`invalid or unsupported Perl syntax: \`(?#\``). */
function describe(message: string): string {
  return message.replace(/^error parsing regexp: /, '');
}

/** Why the pattern cannot be a rule's, or null: for the schema and the form. */
export function patternError(pattern: string): string | null {
  const compiled = compileRulePattern(pattern);
  return compiled.ok ? null : compiled.error;
}
