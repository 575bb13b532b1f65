import { describe, expect, it } from 'vitest';
import { licenseIds, parseSpdx } from './spdx';

const lic = (id: string, more: { orLater?: boolean; exception?: string } = {}) => ({
  kind: 'license',
  id,
  orLater: more.orLater ?? false,
  ...(more.exception ? { exception: more.exception } : {}),
});

describe('parseSpdx', () => {
  it('reads a single licence, with "+" and WITH', () => {
    expect(parseSpdx('MIT')).toEqual(lic('MIT'));
    expect(parseSpdx('GPL-2.0+')).toEqual(lic('GPL-2.0', { orLater: true }));
    expect(parseSpdx('GPL-2.0-only WITH Classpath-exception-2.0')).toEqual(
      lic('GPL-2.0-only', { exception: 'Classpath-exception-2.0' }),
    );
    expect(parseSpdx('LicenseRef-Proprietary')).toEqual(lic('LicenseRef-Proprietary'));
  });

  it('binds AND tighter than OR, and parentheses tighter than both', () => {
    expect(parseSpdx('MIT OR Apache-2.0 AND GPL-3.0-only')).toEqual({
      kind: 'or',
      left: lic('MIT'),
      right: { kind: 'and', left: lic('Apache-2.0'), right: lic('GPL-3.0-only') },
    });
    expect(parseSpdx('(MIT OR Apache-2.0) AND GPL-3.0-only')).toEqual({
      kind: 'and',
      left: { kind: 'or', left: lic('MIT'), right: lic('Apache-2.0') },
      right: lic('GPL-3.0-only'),
    });
  });

  it('reads operators in any case, and chains left to right', () => {
    expect(licenseIds(parseSpdx('(BSD-2-Clause or MIT Or Apache-2.0)'))).toEqual([
      'BSD-2-Clause',
      'MIT',
      'Apache-2.0',
    ]);
    expect(parseSpdx('A and B and C')).toEqual({
      kind: 'and',
      left: { kind: 'and', left: lic('A'), right: lic('B') },
      right: lic('C'),
    });
  });

  it.each([
    [''],
    ['MIT OR'],
    ['(MIT'],
    ['MIT)'],
    ['MIT Apache-2.0'],
    ['AND MIT'],
    ['SEE LICENSE IN LICENSE.md'],
    ['MIT WITH'],
    ['(MIT OR ISC) WITH Foo'],
  ])('refuses %j', (text) => {
    expect(() => parseSpdx(text)).toThrow(expect.objectContaining({ name: 'SpdxSyntaxError' }));
  });
});
