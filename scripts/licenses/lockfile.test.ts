import { describe, expect, it } from 'vitest';
import { licenceOf, productionPackages } from './lockfile';

const lock = {
  lockfileVersion: 3,
  packages: {
    '': { name: 'extraction-review', version: '0.1.0', license: 'MIT' },
    'node_modules/sharp': { version: '0.35.5', license: 'Apache-2.0' },
    'node_modules/@img/sharp-libvips-darwin-x64': {
      version: '1.3.4',
      license: 'LGPL-3.0-or-later',
      optional: true,
    },
    'node_modules/vitest': { version: '4.1.12', license: 'MIT', dev: true },
    'node_modules/esbuild-linux': { version: '1.0.0', license: 'MIT', dev: true, optional: true },
    'node_modules/fsevents': { version: '2.3.3', license: 'MIT', devOptional: true },
    'node_modules/busboy': { version: '1.6.0' },
    'node_modules/node-fetch/node_modules/tr46': { version: '0.0.3', license: 'MIT' },
    'node_modules/alias': { name: 'real-name', version: '2.0.0', license: 'ISC' },
    'node_modules/workspace-link': { resolved: 'packages/x', link: true },
    'node_modules/nothing': { version: '1.0.0' },
  },
};

const manifests: Record<string, unknown> = {
  'node_modules/busboy': { licenses: [{ type: 'MIT', url: 'http://example.test/LICENSE' }] },
};

describe('productionPackages', () => {
  it('lists every entry not marked dev (optional and devOptional ones included), sorted by path', () => {
    const found = productionPackages(lock, (path) => manifests[path]);
    expect(found).toEqual([
      {
        path: 'node_modules/@img/sharp-libvips-darwin-x64',
        name: '@img/sharp-libvips-darwin-x64',
        version: '1.3.4',
        licence: 'LGPL-3.0-or-later',
      },
      { path: 'node_modules/alias', name: 'real-name', version: '2.0.0', licence: 'ISC' },
      // No `license` in the lock: read from the installed package.json (a legacy `licenses` array).
      { path: 'node_modules/busboy', name: 'busboy', version: '1.6.0', licence: 'MIT' },
      { path: 'node_modules/fsevents', name: 'fsevents', version: '2.3.3', licence: 'MIT' },
      { path: 'node_modules/node-fetch/node_modules/tr46', name: 'tr46', version: '0.0.3', licence: 'MIT' },
      // Neither the lock nor an installed package.json says: unknown, for the policy to refuse.
      { path: 'node_modules/nothing', name: 'nothing', version: '1.0.0', licence: undefined },
      { path: 'node_modules/sharp', name: 'sharp', version: '0.35.5', licence: 'Apache-2.0' },
    ]);
  });

  it('needs a lockfile with a "packages" section (v2 or v3)', () => {
    expect(() => productionPackages({ lockfileVersion: 1, dependencies: {} }, () => undefined)).toThrow(
      /lockfileVersion 2 or 3/,
    );
  });
});

describe('licenceOf', () => {
  it.each([
    [{ license: 'MIT' }, 'MIT'],
    [{ license: '(MIT OR Apache-2.0)' }, '(MIT OR Apache-2.0)'],
    [{ license: { type: 'ISC', url: 'x' } }, 'ISC'],
    [{ licenses: [{ type: 'MIT' }] }, 'MIT'],
    // npm documents the old array as alternatives.
    [{ licenses: [{ type: 'MIT' }, { type: 'GPL-2.0' }] }, '(MIT OR GPL-2.0)'],
    [{ license: '', licenses: ['BSD-3-Clause'] }, 'BSD-3-Clause'],
    [{ license: '  ' }, undefined],
    [{ licenses: [] }, undefined],
    [{}, undefined],
    [undefined, undefined],
  ])('%j → %j', (manifest, expected) => {
    expect(licenceOf(manifest)).toBe(expected);
  });
});
