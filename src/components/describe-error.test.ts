import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError, ProblemDetailsError, SchemaMismatchError } from '../api/errors';
import { describeError } from './describe-error';

const problem = (status: number, code: string, extra: { retryAfterSeconds?: number } = {}) =>
  new ProblemDetailsError(
    { status, title: `Title ${status}`, detail: `Detail ${status}`, code, errors: [] },
    { endpoint: 'GET /api/v2/x', ...extra },
  );

describe('describeError', () => {
  it('says what happened and what to do next, for each failure the review can meet', () => {
    expect(describeError(new NetworkError({ endpoint: 'GET /api/v2/x' }))).toMatchObject({
      title: 'The app server cannot be reached',
      hint: expect.stringMatching(/network connection/),
      retryable: true,
    });
    expect(describeError(problem(401, '401-001'))).toMatchObject({
      title: 'Title 401',
      code: '401-001',
      hint: expect.stringMatching(/API key/),
      retryable: true,
    });
    expect(describeError(problem(404, '404-002'))).toMatchObject({
      hint: expect.stringMatching(/deleted after being fetched/),
      retryable: false,
    });
    expect(describeError(problem(422, '422-001'))).toMatchObject({ retryable: false });
    expect(describeError(problem(429, '429-001', { retryAfterSeconds: 12 }))).toMatchObject({
      hint: expect.stringMatching(/try again in 12 s/),
      retryable: true,
    });
    expect(
      describeError(new ApiError('Bad gateway', { endpoint: 'GET /api/v2/x', status: 502 })),
    ).toMatchObject({
      retryable: true,
    });
  });

  it('points at each mismatch of a response that does not match its schema', () => {
    const d = describeError(
      new SchemaMismatchError(
        [{ path: 'inference.file', pointer: '#/inference/file', message: 'expected object' }],
        {
          endpoint: 'GET /api/v2/products/extraction/results/1',
          status: 200,
        },
      ),
    );
    expect(d.title).toBe('Unexpected answer from the service');
    expect(d.pointers).toEqual([{ pointer: 'inference.file', detail: 'expected object' }]);
    expect(d.retryable).toBe(false);
  });
});
