/**
 * A result JSON the operator saved (from their logs, an export of the API's answer), recognised and
 * checked with the API layer's own schemas:
 * - v2: `{ inference: … }` as the results endpoint answers, or the webhook's `{ … , inference }`;
 * - v1: `{ document: … }` as predict, the documents route and webhooks answer, or a bare document.
 * A file that is neither says why, with the exact places that do not match.
 */
import { check, type ValidationIssue } from '@extraction-review/contract/issues';
import { V1Document } from '@extraction-review/contract/v1/schemas';
import { ExtractionResponse } from '@extraction-review/contract/v2/schemas';

export type SavedResultContent =
  | { version: 'v2'; key: string; response: ExtractionResponse }
  | { version: 'v1'; key: string; document: V1Document };

export type ParsedSavedResult =
  | { ok: true; content: SavedResultContent }
  | { ok: false; title: string; detail: string; issues: ValidationIssue[] };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function parseSavedResult(text: string): ParsedSavedResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      title: 'This file is not JSON',
      detail: error instanceof Error ? error.message : String(error),
      issues: [],
    };
  }
  // A bare v1 document also has `inference`: `n_pages` (v1 only) tells them apart.
  if (isObject(json) && 'inference' in json && !('n_pages' in json)) {
    const v2 = check(ExtractionResponse, json);
    if (v2.success)
      return { ok: true, content: { version: 'v2', key: `v2-${v2.data.inference.id}`, response: v2.data } };
    return {
      ok: false,
      title: 'Not a v2 extraction result this app can read',
      detail: 'It looks like a v2 result (it has `inference`), but these places do not match the API:',
      issues: v2.issues,
    };
  }
  const candidate = isObject(json) && isObject(json.document) ? json.document : json;
  if (!isObject(candidate) || !('inference' in candidate || 'n_pages' in candidate))
    return {
      ok: false,
      title: 'Not an extraction result',
      detail:
        'Expected a v2 result (`{ "inference": … }`) or a v1 document (`{ "document": … }` or the document itself).',
      issues: [],
    };
  const v1 = check(V1Document, candidate);
  if (v1.success) return { ok: true, content: { version: 'v1', key: `v1-${v1.data.id}`, document: v1.data } };
  return {
    ok: false,
    title: 'Not a v1 document this app can read',
    detail: 'It looks like a v1 document, but these places do not match the API:',
    issues: v1.issues.map((issue) =>
      candidate === json
        ? issue
        : { ...issue, path: `document.${issue.path}`, pointer: issue.pointer.replace('#/', '#/document/') },
    ),
  };
}
