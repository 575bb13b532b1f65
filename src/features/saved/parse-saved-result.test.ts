// @vitest-environment node
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturesDir } from '@extraction-review/test-kit/fixtures-dir';
import { parseSavedResult } from './parse-saved-result';

const fixture = (relative: string) => readFileSync(path.join(fixturesDir, relative), 'utf8');

describe('parseSavedResult', () => {
  it('reads a recorded v2 result, keyed by its inference', () => {
    const parsed = parseSavedResult(fixture('v2/products/extraction/standard_field_types.json'));
    expect(parsed.ok).toBe(true);
    if (!parsed.ok || parsed.content.version !== 'v2') throw new Error('expected v2');
    expect(parsed.content.key).toBe(`v2-${parsed.content.response.inference.id}`);
  });

  it('reads a recorded v1 answer ({ document }) and a bare v1 document alike', () => {
    const text = fixture('v1/products/invoices/response_v4/complete.json');
    const wrapped = parseSavedResult(text);
    const bare = parseSavedResult(JSON.stringify((JSON.parse(text) as { document: unknown }).document));
    for (const parsed of [wrapped, bare]) {
      expect(parsed.ok).toBe(true);
      if (!parsed.ok || parsed.content.version !== 'v1') throw new Error('expected v1');
      expect(parsed.content.key).toBe(`v1-${parsed.content.document.id}`);
    }
  });

  it('says a file is not JSON', () => {
    expect(parseSavedResult('{ not json')).toMatchObject({ ok: false, title: 'This file is not JSON' });
  });

  it('says JSON that is no result is not one, with what was expected', () => {
    const parsed = parseSavedResult('{"hello": "world"}');
    expect(parsed).toMatchObject({ ok: false, title: 'Not an extraction result' });
  });

  it('points at the places of a damaged result', () => {
    const result = JSON.parse(fixture('v2/products/extraction/standard_field_types.json')) as {
      inference: { model: { id: unknown } };
    };
    result.inference.model.id = 42;
    const parsed = parseSavedResult(JSON.stringify(result));
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.issues.map((i) => i.pointer)).toContain('#/inference/model/id');
  });

  it('points into the document of a damaged v1 answer', () => {
    const body = JSON.parse(fixture('v1/products/invoices/response_v4/complete.json')) as {
      document: { n_pages: unknown };
    };
    body.document.n_pages = 'two';
    const parsed = parseSavedResult(JSON.stringify(body));
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.issues.map((i) => i.pointer)).toContain('#/document/n_pages');
  });
});
