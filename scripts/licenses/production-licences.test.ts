/**
 * The rule of README "Licence": every production dependency in package-lock.json is permissive, or
 * LGPL in a package of LGPL_ALLOWED. `npm run licenses` prints the same audit as a table.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { auditProject, formatReport, violations } from './audit';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('production dependencies', () => {
  const rows = auditProject(root);

  it('are all read from the lockfile (a walk that found nothing would pass vacuously)', () => {
    const names = rows.map((r) => r.name);
    expect(names).toEqual(expect.arrayContaining(['pdfjs-dist', '@napi-rs/canvas', 'sharp', 'hono']));
    // Dev dependencies are not production ones.
    expect(names).not.toContain('vitest');
  });

  it('have no GPL, AGPL, LGPL outside the allowlist, or unknown licence', () => {
    const bad = violations(rows).map(
      (r) => `${r.name}@${r.version}: ${r.licence ?? '(none)'}: ${r.reason ?? ''}`,
    );
    expect(bad, formatReport(rows)).toEqual([]);
  });

  it('include no MuPDF (AGPL-3.0): PDFs are read and drawn with pdf.js (docs/decisions/0006-no-mupdf.md)', () => {
    expect(rows.map((r) => r.name)).not.toContain('mupdf');
  });
});
