/**
 * What every v1 body carries (spec §2.2, API-FACTS v1): `api_request` with `error`, `resources`,
 * `status`, `status_code` and the called `url`, errors included; clients pick the error kind from
 * `status_code`. Errors keep the codes of the service's catalogue (docs/errors.md): `code` is the
 * problem code, `message` its title, `details` what happened.
 */
import type { ProblemError } from '../problem';

export interface ApiRequestJson {
  error: Record<string, never> | { code: string; message: string; details: string };
  resources: string[];
  status: 'success' | 'failure';
  status_code: number;
  url: string;
}

/** The hosted service writes `+00:00`, never `Z` (API-FACTS v1). */
export const v1Timestamp = (at: Date | string): string => new Date(at).toISOString().replace('Z', '+00:00');

export function apiRequest(url: string, statusCode: number, resources: string[]): ApiRequestJson {
  return { error: {}, resources, status: 'success', status_code: statusCode, url };
}

export function v1ErrorBody(problem: ProblemError, url: string): { api_request: ApiRequestJson } {
  // A 422 lists each faulty parameter in `errors[]`; v1 has one sentence, so they are joined into it.
  const details =
    problem.errors.length > 0 ? problem.errors.map((e) => e.detail).join('; ') : problem.message;
  return {
    api_request: {
      error: { code: problem.code, message: problem.title, details },
      resources: [],
      status: 'failure',
      status_code: problem.status,
      url,
    },
  };
}
