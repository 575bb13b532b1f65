import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { problemCatalog, ProblemError, problemResponse } from './problem';

describe('problem catalogue', () => {
  it('is documented, code for code, in docs/errors.md', () => {
    const doc = fs.readFileSync(path.join(import.meta.dirname, '../../../docs/errors.md'), 'utf8');
    const rows = [...doc.matchAll(/^\|\s*`(\d{3}-\d{3})`\s*\|\s*(\d{3})\s*\|\s*([^|]+?)\s*\|/gm)].map((m) => [
      m[1],
      Number(m[2]),
      m[3]?.trim(),
    ]);
    const catalogue = Object.entries(problemCatalog).map(([code, { status, title }]) => [
      code,
      status,
      title,
    ]);
    expect(rows).toEqual(catalogue);
  });

  it('gives every code the status its name says', () => {
    for (const [code, { status }] of Object.entries(problemCatalog)) {
      expect(code.startsWith(String(status))).toBe(true);
    }
  });

  it('renders a problem-details response with extra headers', async () => {
    const res = problemResponse(
      new ProblemError('429-001', 'Slow down.', { headers: { 'Retry-After': '3' } }),
    );
    expect(res.status).toBe(429);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.headers.get('retry-after')).toBe('3');
    expect(await res.json()).toEqual({
      status: 429,
      title: 'Too many requests',
      detail: 'Slow down.',
      code: '429-001',
      errors: [],
    });
  });
});
