import { describe, expect, it } from 'vitest';
import { earlyReview, opensReview } from './review-paths';

describe('opensReview', () => {
  it.each([
    '/jobs/8261f152-7902-4989-ab95-fe74ffa3b164',
    '/jobs/v1/abc',
    '/review/0b6c1d7e-0f1a-4a55-9f44-6b1c1c1f7a11',
    '/saved/v2-inference%201',
    '/jobs/abc/',
  ])('%s opens a review', (path) => expect(opensReview(path)).toBe(true));

  it.each(['/', '/jobs', '/jobs/', '/queue', '/review', '/jobs/abc/extra', '/open', '/rules/v2/model'])(
    '%s does not',
    (path) => expect(opensReview(path)).toBe(false),
  );
});

describe('earlyReview', () => {
  it.each([
    [
      '/jobs/8261f152-7902-4989-ab95-fe74ffa3b164',
      { kind: 'job', id: '8261f152-7902-4989-ab95-fe74ffa3b164' },
    ],
    ['/jobs/abc/', { kind: 'job', id: 'abc' }],
    ['/review/0b6c1d7e', { kind: 'queue', id: '0b6c1d7e' }],
  ])('%s is asked for early', (path, review) => expect(earlyReview(path)).toEqual(review));

  it.each(['/', '/jobs', '/jobs/v1', '/jobs/v1/abc', '/saved/v2-inference%201', '/review', '/queue'])(
    '%s is not',
    (path) => expect(earlyReview(path)).toBeNull(),
  );
});
