import { describe, expect, it } from 'vitest';
import { formatDuration, jobDurationSeconds, parseServerTime } from './use-elapsed';

describe('parseServerTime', () => {
  it('reads zone-less timestamps as UTC, as the hosted service writes them', () => {
    expect(parseServerTime('2025-07-03T14:27:58.974451')).toBe(Date.UTC(2025, 6, 3, 14, 27, 58, 974));
  });

  it('keeps an explicit zone', () => {
    expect(parseServerTime('2023-02-16T12:33:49+00:00')).toBe(Date.UTC(2023, 1, 16, 12, 33, 49));
    expect(parseServerTime('2023-02-16T12:33:49+02:00')).toBe(Date.UTC(2023, 1, 16, 10, 33, 49));
  });
});

describe('durations', () => {
  it('are written for people', () => {
    expect(formatDuration(8.4)).toBe('8 s');
    expect(formatDuration(125)).toBe('2 min 05 s');
    expect(formatDuration(3720)).toBe('1 h 02 min');
  });

  it('run from creation to completion, or to now', () => {
    expect(jobDurationSeconds('2025-01-01T00:00:00Z', '2025-01-01T00:00:03.5Z', 0)).toBe(3.5);
    expect(jobDurationSeconds('2025-01-01T00:00:00', null, Date.UTC(2025, 0, 1, 0, 1))).toBe(60);
    expect(jobDurationSeconds('not a date', null, 0)).toBeNull();
  });
});
