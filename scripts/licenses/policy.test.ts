import { describe, expect, it } from 'vitest';
import { checkLicence, type Verdict } from './policy';

const verdict = (licence: string | undefined, name = 'some-package'): Verdict =>
  checkLicence(name, licence).verdict;

describe('checkLicence', () => {
  it.each([
    ['MIT', 'permitted'],
    ['Apache-2.0', 'permitted'],
    ['ISC', 'permitted'],
    ['0BSD', 'permitted'],
    ['Apache-2.0 WITH LLVM-exception', 'permitted'],
    ['GPL-3.0-only', 'forbidden'],
    ['GPL-2.0+', 'forbidden'],
    ['GPL-2.0', 'forbidden'],
    ['AGPL-3.0-or-later', 'forbidden'],
    ['AGPL-3.0', 'forbidden'],
    // An exception widens the GPL, but the rule is "no GPL in production" all the same.
    ['GPL-2.0-only WITH Classpath-exception-2.0', 'forbidden'],
    // LGPL outside the allowlist.
    ['LGPL-3.0-or-later', 'forbidden'],
    ['LGPL-2.1', 'forbidden'],
    ['WTFPL', 'unknown'],
    ['UNLICENSED', 'unknown'],
    ['LicenseRef-Commercial', 'unknown'],
    ['SEE LICENSE IN LICENSE.md', 'unknown'],
    ['', 'unknown'],
    [undefined, 'unknown'],
  ] as const)('%j alone: %s', (licence, expected) => {
    expect(verdict(licence)).toBe(expected);
  });

  it.each([
    // OR: the licensee may choose, so one permitted branch is enough.
    ['(MIT OR GPL-3.0-only)', 'permitted'],
    ['(GPL-3.0-only OR MIT)', 'permitted'],
    ['(MIT OR WTFPL)', 'permitted'],
    ['(GPL-2.0-only OR AGPL-3.0-only)', 'forbidden'],
    ['(WTFPL OR GPL-3.0-only)', 'unknown'],
    // AND: every licence applies, so every one must pass.
    ['(MIT AND Zlib)', 'permitted'],
    ['MIT AND GPL-3.0-only', 'forbidden'],
    ['MIT AND WTFPL', 'unknown'],
    ['WTFPL AND GPL-3.0-only', 'forbidden'],
    // Nesting.
    ['(MIT OR GPL-3.0-only) AND (ISC OR AGPL-3.0-only)', 'permitted'],
    ['(MIT OR GPL-3.0-only) AND AGPL-3.0-only', 'forbidden'],
    ['MIT OR GPL-3.0-only AND AGPL-3.0-only', 'permitted'],
  ] as const)('%j: %s', (licence, expected) => {
    expect(verdict(licence)).toBe(expected);
  });

  describe('LGPL only for the allowlisted packages, with the reason', () => {
    it.each([
      ['@img/sharp-libvips-linux-x64', 'LGPL-3.0-or-later'],
      ['@img/sharp-libvips-darwin-arm64', 'LGPL-3.0-or-later'],
      ['@img/sharp-win32-x64', 'Apache-2.0 AND LGPL-3.0-or-later'],
      ['@img/sharp-wasm32', 'Apache-2.0 AND LGPL-3.0-or-later AND MIT'],
      ['libheif-js', 'LGPL-3.0'],
    ])('%s (%s) is allowed', (name, licence) => {
      expect(checkLicence(name, licence)).toEqual({
        verdict: 'allowlisted',
        reason: expect.stringMatching(/^LGPL-[\d.]+(-or-later)?: .{40,}/),
      });
    });

    it.each([
      ['@img/sharp-linux-x64', 'LGPL-3.0-or-later'],
      ['sharp-libvips-linux-x64', 'LGPL-3.0-or-later'],
      ['libheif-js-fork', 'LGPL-3.0'],
      ['some-package', 'MIT AND LGPL-2.1-only'],
    ])('%s (%s) is not', (name, licence) => {
      expect(checkLicence(name, licence)).toMatchObject({ verdict: 'forbidden' });
    });

    it('an allowlisted package with a GPL licence still fails', () => {
      expect(verdict('LGPL-3.0-or-later AND GPL-3.0-only', '@img/sharp-libvips-linux-x64')).toBe('forbidden');
    });

    it('a permitted OR branch needs no allowance', () => {
      expect(verdict('(LGPL-3.0-only OR MIT)')).toBe('permitted');
    });
  });

  it('says which licence failed', () => {
    expect(checkLicence('x', 'MIT AND GPL-3.0-only')).toEqual({
      verdict: 'forbidden',
      reason: 'GPL-3.0-only (copyleft)',
    });
    expect(checkLicence('x', 'MIT AND SSPL-1.0').reason).toBe('SSPL-1.0 is not a licence this policy knows');
  });
});
