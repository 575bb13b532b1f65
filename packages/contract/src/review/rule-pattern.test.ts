import { describe, expect, it } from 'vitest';
import { compileRulePattern, patternError, toRe2Syntax } from './rule-pattern';

/** The pattern of issue 18: with a backtracking engine, 29 characters held the event loop 23 s. */
const EVIL = String.raw`^([A-Za-z]+\s?)+$`;
const EVIL_VALUE = `${'Aaaaaaaaaaaaaaaaaaaaaaaaaaaa'}!`;

function test(pattern: string, text: string): boolean {
  const compiled = compileRulePattern(pattern);
  if (!compiled.ok) throw new Error(compiled.error);
  return compiled.pattern.test(text);
}

describe('rule patterns run by RE2', () => {
  it('answers the backtracking pattern at once, on a 29-character value and on a long one', () => {
    expect(EVIL_VALUE).toHaveLength(29);
    const started = performance.now();
    expect(test(EVIL, EVIL_VALUE)).toBe(false);
    expect(test(EVIL, `${'Ab '.repeat(20_000)}!`)).toBe(false);
    expect(test(EVIL, 'Abc def Ghi')).toBe(true);
    // Logged, not asserted: the backtracking engine took 23 s on the first value alone.
    console.log(
      `[rule-pattern] backtracking pattern on 29 and 60,001 characters: ${(performance.now() - started).toFixed(1)} ms`,
    );
  });

  it('answers other classic catastrophic patterns', () => {
    const value = `${'a'.repeat(5_000)}!`;
    for (const pattern of ['^(a+)+$', '^(a|a)*$', '^(a|aa)+$', '^(.*a){20}$', String.raw`^(\w+\s?)*$`])
      expect(test(pattern, value), pattern).toBe(false);
  });

  it('refuses what has no linear-time form, naming it', () => {
    expect(patternError(String.raw`(a)\1`)).toMatch(/backreferences \(\\1\)/);
    expect(patternError(String.raw`(?<x>a)\k<x>`)).toMatch(/backreferences \(\\k\)/);
    expect(patternError('(?=INV)\\w+')).toMatch(/lookahead \(\?=…\)/);
    expect(patternError('INV(?!-0)')).toMatch(/lookahead \(\?!…\)/);
    expect(patternError('(?<=€)\\d+')).toMatch(/lookbehind \(\?<=…\)/);
    expect(patternError('(?<!-)\\d+')).toMatch(/lookbehind \(\?<!…\)/);
  });

  it('refuses what does not compile, with RE2 saying why', () => {
    expect(patternError('^(INV')).toMatch(/missing closing \)/);
    expect(patternError('a{1001}')).toMatch(/invalid repeat count/);
    expect(patternError('a**')).toMatch(/invalid nested repetition/);
    // Malformed escapes that a loose translation would read as letters.
    expect(patternError(String.raw`\Z`)).toMatch(/\\Z is not an escape/);
    expect(patternError(String.raw`\u12`)).toMatch(/\\u needs/);
    expect(patternError(String.raw`\c1`)).toMatch(/\\c needs a letter/);
    expect(patternError(String.raw`\01`)).toMatch(/octal/);
  });

  it('reads JavaScript syntax as before: classes, Unicode escapes and properties, named groups', () => {
    expect(test(String.raw`^INV-\d{4}-\d+$`, 'INV-2024-17')).toBe(true);
    expect(test(String.raw`^\p{Lu}\p{Ll}+$`, 'Émile')).toBe(true);
    expect(test(String.raw`^caf\u00e9$`, 'café')).toBe(true);
    expect(test(String.raw`^\u{1F600}$`, '😀')).toBe(true);
    expect(test('^.$', '😀')).toBe(true); // a code point, as in Unicode mode
    expect(test(String.raw`^(?<year>\d{4})-\d{2}$`, '2024-05')).toBe(true);
    expect(test('^[^]+$', 'a\nb')).toBe(true);
    expect(test('^a[]', 'a')).toBe(false);
    expect(test(String.raw`^[\w.\-]+@[\w-]+\.\w+$`, 'a.b-c@d-e.fr')).toBe(true);
    expect(test(String.raw`^\d+\.\d{2}$`, '12x34')).toBe(false);
    expect(test('a/b', 'a/b')).toBe(true);
  });

  it('is case-sensitive unless the pattern says (?i), as RE2 reads it', () => {
    expect(test('^inv', 'INV-1')).toBe(false);
    expect(test('(?i)^inv', 'INV-1')).toBe(true);
    expect(test('(?i)^émile$', 'ÉMILE')).toBe(true);
    expect(test('^(?i:inv)-X', 'Inv-X')).toBe(true);
    expect(test('^(?i:inv)-X', 'Inv-x')).toBe(false);
  });

  it('keeps JavaScript’s \\s, \\S and . for every code point of the BMP and a few beyond', () => {
    const forms = [
      String.raw`\s`,
      String.raw`\S`,
      '.',
      String.raw`[\s]`,
      String.raw`[\S]`,
      String.raw`[^\s]`,
      String.raw`[\sa]`,
    ];
    const points = [...Array.from({ length: 0x10000 }, (_, i) => i), 0x10000, 0x1f600, 0x10ffff].filter(
      (cp) => cp < 0xd800 || cp > 0xdfff,
    );
    for (const form of forms) {
      const js = new RegExp(`^${form}$`, 'u');
      const compiled = compileRulePattern(`^${form}$`);
      if (!compiled.ok) throw new Error(compiled.error);
      const differ = points.filter((cp) => {
        const text = String.fromCodePoint(cp);
        return js.test(text) !== compiled.pattern.test(text);
      });
      expect(differ, form).toEqual([]);
    }
  });

  it('leaves escaped and classed dots and escapes alone', () => {
    const syntax = toRe2Syntax(String.raw`a\.b[.]\\.`);
    expect(syntax).toEqual({ ok: true, source: String.raw`a\.b[.]\\[^\n\r\x{2028}\x{2029}]` });
  });
});
