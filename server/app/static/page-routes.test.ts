/**
 * The app server knows the app's pages from packages/contract/src/page-routes.ts; the router is app.tsx's
 * `<Route path>` list. They must be the same set, or a page would answer 404 from the server (or a
 * path no page shows would get index.html).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PAGE_ROUTES, pageFor } from '@extraction-review/contract/page-routes';
import { repoRoot } from '../settings/config';

async function routerPaths(): Promise<string[]> {
  const source = await readFile(path.join(repoRoot, 'src', 'app', 'app.tsx'), 'utf8');
  const paths = [...source.matchAll(/<Route\s+path=(?:"([^"]+)"|\{([^}]+)\})/g)].map(
    (match) => match[1] ?? `{${match[2] ?? ''}}`,
  );
  expect(paths.length, 'app.tsx declares its routes as <Route path="...">').toBeGreaterThan(10);
  return paths;
}

describe('the app pages the server knows', () => {
  it("are app.tsx's routes, no more, no fewer", async () => {
    const declared = await routerPaths();
    expect([...new Set(declared)].sort()).toEqual(Object.values(PAGE_ROUTES).sort());
  });

  it.each([
    ['/', 'upload'],
    ['/jobs', 'jobs'],
    ['/jobs/', 'jobs'],
    ['/jobs/12345678-1234-1234-1234-123456789abc', 'job'],
    ['/jobs/v1/abc', 'v1Job'],
    ['/review/42', 'reviewDocument'],
    ['/saved/a%2Fb', 'saved'],
    ['/rules/v2/m-1', 'modelRules'],
    ['/Queue', 'queue'], // wouter matches letters in either case
  ])('%s is the %s page', (pathname, page) => {
    expect(pageFor(pathname)).toBe(page);
  });

  it.each([
    '/healthz',
    '/metrics',
    '/wp-admin',
    '/jobs/a/b',
    '/review',
    '/review/',
    '/rules/v2',
    '//',
    '/index.php',
  ])('%s is no page', (pathname) => {
    expect(pageFor(pathname)).toBeUndefined();
  });
});
