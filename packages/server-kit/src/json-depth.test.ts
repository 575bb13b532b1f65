/**
 * The depth scan before JSON.parse: it counts only brackets outside strings, and points at the
 * container that went one level too deep through the keys and indices on the way.
 */
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, tooDeepAt } from './json-depth';

const nested = (depth: number, inner = '1') => '['.repeat(depth) + inner + ']'.repeat(depth);

describe('tooDeepAt', () => {
  it('lets 64 levels through and stops the 65th', () => {
    expect(tooDeepAt(nested(MAX_JSON_DEPTH))).toBeUndefined();
    expect(tooDeepAt(nested(MAX_JSON_DEPTH + 1))).toBe(`#/${Array(MAX_JSON_DEPTH).fill('0').join('/')}`);
  });

  it('points through keys (escaped as JSON Pointer) and array indices', () => {
    const text = '{"a":1,"b/c":[0,{"x~y":[[[]]]}]}';
    expect(tooDeepAt(text, 4)).toBe('#/b~1c/1/x~0y/0');
    expect(tooDeepAt(text, 5)).toBe('#/b~1c/1/x~0y/0/0');
    expect(tooDeepAt(text, 6)).toBeUndefined();
  });

  it('ignores brackets and escaped quotes inside strings', () => {
    const text = JSON.stringify({ s: '[[[[{{{{\\"[[[[', t: ['"]]]"'] });
    expect(tooDeepAt(text, 2)).toBeUndefined();
    // A string ending in an escaped backslash ends at its quote: the brackets after it count.
    expect(tooDeepAt(JSON.stringify({ k: 'a\\' }) + '[[[', 1)).toBe('#/0');
  });

  it('reads a key with escapes as its value', () => {
    expect(tooDeepAt('{"a\\"b":[[]]}', 2)).toBe('#/a"b/0');
  });

  it('scans a 5,000-deep body and a long string without trouble', () => {
    expect(tooDeepAt(nested(5_000))).toMatch(/^#\/0(\/0){63}$/);
    expect(tooDeepAt(JSON.stringify({ file_base64: 'A'.repeat(10_000_000) }))).toBeUndefined();
  });
});
