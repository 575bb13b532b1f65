/**
 * Every recorded response of the hosted service (`v1/` and `v2/` of the public test corpus) is parsed with
 * the schema of its kind. A file that does not parse is listed below with the reason, and the test checks
 * that it indeed fails; a file of no known kind fails the test. The corpus is required: without it the
 * test fails, it does not skip.
 *
 * FIXTURES_DIR overrides the location (default `<repo>/../shared/fixtures/mindee-test-data`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { check } from '@extraction-review/contract/issues';
import { fixturesDir } from '@extraction-review/test-kit/fixtures-dir';
import * as v1 from '@extraction-review/contract/v1/schemas';
import * as v2Other from './v2/other-products';
import * as v2 from '@extraction-review/contract/v2/schemas';

const schemas = {
  'v2 job': v2.JobResponse,
  'v2 problem details': v2.ErrorResponse,
  'v2 extraction result': v2.ExtractionResponse,
  'v2 data schema (sent)': v2.DataSchema,
  'v2 models search': v2.ModelsSearchResponse,
  'v2 classification result': v2Other.ClassificationResponse,
  'v2 crop result': v2Other.CropResponse,
  'v2 ocr result': v2Other.OcrResponse,
  'v2 split result': v2Other.SplitResponse,
  'v1 error': v1.V1ErrorResponse,
  'v1 error object': v1.V1Error,
  'v1 job': v1.V1JobResponse,
  'v1 document': v1.V1DocumentResponse,
  'v1 predict': v1.V1PredictResponse,
  'v1 webhook': v1.V1WebhookBody,
  'v1 feedback': v1.V1FeedbackResponse,
  'v1 workflow execution': v1.V1WorkflowExecutionResponse,
} satisfies Record<string, z.ZodType>;

type Kind = keyof typeof schemas;

const has = (body: unknown, key: string): boolean =>
  typeof body === 'object' && body !== null && !Array.isArray(body) && key in body;

/** The kind of a corpus file, from its folder and, where a folder mixes kinds, its top-level keys. */
function kindOf(file: string, body: unknown): Kind | undefined {
  const [version, area, product] = file.split('/');
  if (version === 'v2') {
    if (area === 'job') return 'v2 job';
    if (area === 'errors') return 'v2 problem details';
    if (area === 'search') return 'v2 models search';
    if (area !== 'products') return undefined;
    switch (product) {
      case 'extraction':
        // The `data_schema` parameter sent with data_schema_replace.json, recorded next to it.
        return has(body, 'replace') ? 'v2 data schema (sent)' : 'v2 extraction result';
      case 'classification':
        return 'v2 classification result';
      case 'crop':
        return 'v2 crop result';
      case 'ocr':
        return 'v2 ocr result';
      case 'split':
        return 'v2 split result';
      default:
        return undefined;
    }
  }
  if (version !== 'v1') return undefined;
  if (area === 'workflows') return 'v1 workflow execution';
  if (file.includes('/feedback_response/')) return 'v1 feedback';
  if (!has(body, 'api_request')) {
    if (has(body, 'job')) return 'v1 webhook';
    // `api_request.error` alone: errors/with_{object,string}_response_in_detail.json.
    if (area === 'errors' && has(body, 'details')) return 'v1 error object';
    return undefined;
  }
  if (has(body, 'document')) return has(body, 'job') ? 'v1 document' : 'v1 predict';
  if (has(body, 'job')) return 'v1 job';
  return 'v1 error';
}

/**
 * Files that do not parse, on purpose. Keep each reason true: the test fails when a listed file parses
 * (remove it from the list then) or no longer exists.
 */
const EXPECTED_FAILURES: Record<string, { reason: string; path: string }> = {
  'v1/products/generated/response_v1/bad_polygons_driver_license_v1.json': {
    reason:
      'A hand-made file (folder generated/) to test polygons with null points, which we read as "no ' +
      'polygon"; it also lacks the document `name` and `n_pages` that the spec requires and every ' +
      'recorded response carries, and the viewer relies on.',
    path: 'document.name',
  },
};

function walk(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory()
        ? walk(path.join(dir, entry.name))
        : entry.name.endsWith('.json')
          ? [path.join(dir, entry.name)]
          : [],
    );
}

const corpusExists =
  fs.existsSync(path.join(fixturesDir, 'v1')) && fs.existsSync(path.join(fixturesDir, 'v2'));
const files = corpusExists
  ? ['v1', 'v2']
      .flatMap((version) => walk(path.join(fixturesDir, version)))
      .map((f) => path.relative(fixturesDir, f).split(path.sep).join('/'))
      .sort()
  : [];

function load(file: string): unknown {
  return JSON.parse(fs.readFileSync(path.join(fixturesDir, file), 'utf8'));
}

describe('the recorded corpus', () => {
  it(`is present at ${fixturesDir} (set FIXTURES_DIR to move it)`, () => {
    expect(
      corpusExists,
      `No fixtures at ${fixturesDir}: the schemas cannot be checked against the real service`,
    ).toBe(true);
    expect(files.length).toBeGreaterThan(150);
  });

  it('has a kind for every file', () => {
    const unclassified = files.filter((file) => kindOf(file, load(file)) === undefined);
    expect(unclassified, 'Give these files a kind in kindOf()').toEqual([]);
  });

  it('still contains every file listed as an expected failure', () => {
    const missing = Object.keys(EXPECTED_FAILURES).filter((file) => !files.includes(file));
    expect(missing).toEqual([]);
  });
});

describe.each(files)('%s', (file) => {
  const body = load(file);
  const kind = kindOf(file, body);
  if (kind === undefined) {
    it('has a kind', () => {
      expect.fail('No kind for this file: add one in kindOf()');
    });
    return;
  }
  const schema = schemas[kind];
  const expected = EXPECTED_FAILURES[file];

  if (expected === undefined) {
    it(`parses as ${kind}`, () => {
      const result = check(schema, body);
      expect(result.success ? [] : result.issues).toEqual([]);
    });
  } else {
    it(`fails as ${kind}: ${expected.reason}`, () => {
      const result = check(schema, body);
      expect(result.success, 'It parses now: remove it from EXPECTED_FAILURES').toBe(false);
      if (!result.success) expect(result.issues.map((i) => i.path)).toContain(expected.path);
    });
  }
});
