/**
 * The route declarations are read by the browser and the server alike, and are to move into a
 * package of their own (the contract): every module they reach, followed import by import, is plain
 * data and zod (re2js for the rules' patterns), never the HTTP client, React, the query library or a
 * server framework.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

const ALLOWED_PACKAGES = new Set(['zod', 're2js']);

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^(?:import|export)\s[^'"]*?from\s+'([^']+)'/gm)].map((match) => match[1] ?? '');
}

it('reaches only zod, re2js and other pure modules', () => {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const queue = [path.join(import.meta.dirname, 'index.ts')];
  while (queue.length > 0) {
    const file = queue.pop() ?? '';
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of importsOf(file)) {
      if (specifier.startsWith('.')) queue.push(path.resolve(path.dirname(file), `${specifier}.ts`));
      else packages.add(specifier);
    }
  }
  expect([...packages].filter((name) => !ALLOWED_PACKAGES.has(name))).toEqual([]);
  const names = [...seen].map((file) => path.relative(path.join(import.meta.dirname, '..', '..'), file));
  expect(names).toContain('review/routes/queue.ts');
  expect(names.filter((name) => /(^|\/)(http|keys|csrf|call-route|endpoints)\.ts$/.test(name))).toEqual([]);
});
