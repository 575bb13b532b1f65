/**
 * The reference service stands alone: none of its production modules imports the app server
 * (server/app, server/main.ts), the review backend (server/review) or the app's settings
 * (server/config.ts). server/shared and the pure schema modules of src/ are allowed for now (they are
 * to become packages of their own); tests and the test kit (testing/) are not checked here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = import.meta.dirname;
const SERVER = path.dirname(ROOT);
const REPO = path.dirname(SERVER);
/** src/ modules that are pure schemas (or pure text functions): no HTTP client, no React, no browser. */
const ALLOWED_SRC = [
  'src/api/common-schemas.ts',
  'src/api/issues.ts',
  'src/api/v1/schemas.ts',
  'src/api/v2/schemas.ts',
  'src/api/v2/request-schemas.ts',
  'src/lib/pdf-text-runs.ts',
];

function productionFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : productionFiles(full);
    return /\.(ts|mts|mjs)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [full] : [];
  });
}

/** Every relative module a file names in `import … from`, `export … from` or `import(…)`. */
function relativeImports(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  const found = [...source.matchAll(/(?:from\s+|import\s*\(\s*)'(\.{1,2}\/[^']+)'/g)].map((m) => m[1] ?? '');
  return found.map((specifier) => path.relative(REPO, path.resolve(path.dirname(file), specifier)));
}

/** Imports name TypeScript modules without their extension. */
const withExtension = (target: string): string => (/\.m?[jt]s$/.test(target) ? target : `${target}.ts`);

describe('the reference service’s imports', () => {
  const files = productionFiles(ROOT);

  it('reads its own modules', () => {
    expect(files.length).toBeGreaterThan(50);
  });

  it('take nothing of the app server, the review backend or the app’s settings', () => {
    const outside = files.flatMap((file) =>
      relativeImports(file)
        .filter((target) => !target.startsWith('server/reference/') && !target.startsWith('server/shared/'))
        .filter((target) => !ALLOWED_SRC.includes(withExtension(target)))
        .map((target) => `${path.relative(REPO, file)} → ${target}`),
    );
    expect(outside).toEqual([]);
  });

  it('take src/ modules that import only each other and packages', () => {
    const beyond = ALLOWED_SRC.flatMap((module) =>
      relativeImports(path.join(REPO, module))
        .filter((target) => !ALLOWED_SRC.includes(withExtension(target)))
        .map((target) => `${module} → ${target}`),
    );
    expect(beyond).toEqual([]);
  });
});
