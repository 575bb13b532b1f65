/**
 * The repository's import graph, read from the source as the tools resolve it: relative specifiers to
 * files, `@extraction-review/<package>/<path>` to the package's folder (docs/architecture.md). Used by
 * boundaries.test.ts to keep the arrows of the architecture pointing one way.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const repoRoot = path.resolve(import.meta.dirname, '..', '..');

/** Each workspace package: its folder and where its `exports` point. */
export const PACKAGES = {
  contract: { dir: 'packages/contract', src: 'packages/contract/src' },
  'review-domain': { dir: 'packages/review-domain', src: 'packages/review-domain/src' },
  'document-text': { dir: 'packages/document-text', src: 'packages/document-text/src' },
  'server-kit': { dir: 'packages/server-kit', src: 'packages/server-kit/src' },
  'test-kit': { dir: 'packages/test-kit', src: 'packages/test-kit/src' },
  reference: { dir: 'server/reference', src: 'server/reference' },
  'app-server': { dir: 'server/app', src: 'server/app' },
} as const;
export type PackageName = keyof typeof PACKAGES;

export interface Import {
  /** The importing file, relative to the repository root. */
  from: string;
  /** As written. */
  specifier: string;
  /** The file it names, relative to the root, or null for a dependency from npm or Node. */
  to: string | null;
}

const SOURCE = /\.(ts|tsx|mts|mjs)$/;
const EXTENSIONS = ['', '.ts', '.tsx', '.mts', '.mjs', '/index.ts', '/index.tsx'];
const SPECIFIERS = [
  /^\s*(?:import|export)\b[^;]*?\bfrom\s*['"]([^'"]+)['"]/gm,
  /^\s*import\s*['"]([^'"]+)['"]/gm,
  /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  /\bvi\.(?:mock|importActual|doMock)\(\s*['"]([^'"]+)['"]/g,
];

export function trackedSources(): string[] {
  return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: repoRoot,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((file) => SOURCE.test(file) && !file.endsWith('.d.ts') && existsSync(path.join(repoRoot, file)));
}

function resolveFile(base: string): string | null {
  for (const extension of EXTENSIONS) {
    const candidate = base + extension;
    if (existsSync(path.join(repoRoot, candidate)) && SOURCE.test(candidate)) return candidate;
  }
  return null;
}

export function resolveSpecifier(from: string, specifier: string): string | null {
  if (specifier.startsWith('.')) {
    return resolveFile(path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier)));
  }
  const match = /^@extraction-review\/([^/]+)\/(.+)$/.exec(specifier);
  if (!match) return null;
  const pkg = PACKAGES[match[1] as PackageName] as (typeof PACKAGES)[PackageName] | undefined;
  return pkg ? resolveFile(`${pkg.src}/${match[2]}`) : null;
}

export function importsOf(file: string): Import[] {
  const text = readFileSync(path.join(repoRoot, file), 'utf8');
  const found: Import[] = [];
  for (const pattern of SPECIFIERS) {
    for (const match of text.matchAll(pattern)) {
      const specifier = match[1];
      if (specifier !== undefined)
        found.push({ from: file, specifier, to: resolveSpecifier(file, specifier) });
    }
  }
  return found;
}

/** The package a file belongs to, or null for the root (the browser app, e2e, bench, scripts). */
export function packageOf(file: string): PackageName | null {
  for (const [name, pkg] of Object.entries(PACKAGES))
    if (file.startsWith(pkg.dir + '/')) return name as PackageName;
  return null;
}

export const isTestFile = (file: string): boolean => /\.test\.tsx?$/.test(file);
