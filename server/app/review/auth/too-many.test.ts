/** The wait of a 429, said in words and in seconds. */
import { describe, expect, it } from 'vitest';
import { describeWait, tooMany } from './too-many';

describe('tooMany', () => {
  it('says the wait in seconds under a minute, else in minutes, rounded up', () => {
    expect(describeWait(0)).toBe('1 second');
    expect(describeWait(40_000)).toBe('40 seconds');
    expect(describeWait(60_000)).toBe('1 minute');
    expect(describeWait(61_000)).toBe('2 minutes');
    expect(describeWait(900_000)).toBe('15 minutes');
  });

  it('puts the seconds in Retry-After and retry_after', () => {
    const problem = tooMany('429-004', 'Slow down.', 1_500);
    expect(problem.headers).toEqual({ 'Retry-After': '2' });
    expect(problem.toBody()).toMatchObject({ code: '429-004', status: 429, retry_after: 2 });
  });
});
