import { describe, expect, it } from 'vitest';
import { formatDuration, formatShare } from './format';
import { periodOf } from './period';

// A Wednesday afternoon, local time.
const NOW = new Date(2026, 10, 25, 15, 30);
const local = (day: number, month = 10) => new Date(2026, month, day).toISOString();

describe('the periods offered', () => {
  it('counts whole local days, up to the start of tomorrow', () => {
    expect(periodOf('this-week', NOW)).toEqual({ from: local(23), to: local(26) });
    expect(periodOf('last-7-days', NOW)).toEqual({ from: local(19), to: local(26) });
    expect(periodOf('last-30-days', NOW)).toEqual({ from: local(27, 9), to: local(26) });
  });

  it('starts this week on Monday, a Sunday included', () => {
    expect(periodOf('this-week', new Date(2026, 10, 29, 10))).toEqual({ from: local(23), to: local(30) });
    expect(periodOf('this-week', new Date(2026, 10, 23, 0, 1))).toEqual({ from: local(23), to: local(24) });
  });

  it('takes a custom range of days, both included', () => {
    expect(periodOf('custom', NOW, { from: '2026-11-02', to: '2026-11-08' })).toEqual({
      from: local(2),
      to: local(9),
    });
    expect(periodOf('custom', NOW, { from: '2026-11-08', to: '2026-11-02' })).toEqual({
      problem: 'The last day comes before the first.',
    });
    expect(periodOf('custom', NOW, { from: '', to: '2026-11-02' })).toEqual({
      problem: 'Choose the first and the last day.',
    });
  });
});

describe('figures as words', () => {
  it('writes durations and shares', () => {
    expect(formatDuration(45_000)).toBe('45 s');
    expect(formatDuration(250_000)).toBe('4 min 10 s');
    expect(formatDuration(240_000)).toBe('4 min');
    expect(formatDuration(2 * 3_600_000 + 5 * 60_000)).toBe('2 h 5 min');
    expect(formatDuration(4 * 86_400_000)).toBe('4 days');
    expect(formatDuration(null)).toBe('—');
    expect(formatShare(2 / 6)).toBe('33.3 %');
    expect(formatShare(null)).toBe('—');
  });
});
