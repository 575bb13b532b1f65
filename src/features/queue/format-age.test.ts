import { describe, expect, it } from 'vitest';
import { formatAge, formatClock, formatShare } from './format-age';

const now = Date.parse('2026-01-10T12:00:00.000Z');
const ago = (ms: number) => new Date(now - ms).toISOString();

describe('formatAge', () => {
  it('says how long ago in the largest whole unit', () => {
    expect(formatAge(ago(20_000), now)).toBe('under 1 min');
    expect(formatAge(ago(3 * 60_000 + 59_000), now)).toBe('3 min');
    expect(formatAge(ago(59 * 60_000), now)).toBe('59 min');
    expect(formatAge(ago(2 * 3_600_000 + 5 * 60_000), now)).toBe('2 h');
    expect(formatAge(ago(23 * 3_600_000), now)).toBe('23 h');
    expect(formatAge(ago(5 * 86_400_000 + 3_600_000), now)).toBe('5 d');
    expect(formatAge(now - 90_000, now)).toBe('1 min');
  });

  it('reads a time a little ahead of this clock as just now', () => {
    expect(formatAge(ago(-30_000), now)).toBe('under 1 min');
  });

  it('shows a dash for a time it cannot read', () => {
    expect(formatAge('not a time', now)).toBe('—');
  });
});

describe('formatShare', () => {
  it('gives the fields to review of all the fields, with the share', () => {
    expect(formatShare(2, 10)).toBe('2 of 10 (20%)');
    expect(formatShare(1, 3)).toBe('1 of 3 (33%)');
    expect(formatShare(0, 7)).toBe('0 of 7 (0%)');
    expect(formatShare(0, 0)).toBe('—');
  });
});

describe('formatClock', () => {
  it('shows the local time of day on 24 hours', () => {
    expect(formatClock(new Date(2026, 0, 5, 10, 42).toISOString())).toBe('10:42');
    expect(formatClock(new Date(2026, 0, 5, 15, 7).getTime())).toBe('15:07');
  });
});
