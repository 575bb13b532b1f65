import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatNumber, formatTime } from './format';

describe('the one formatter', () => {
  it('writes amounts with grouping as the locale does, cents kept, the value unchanged', () => {
    expect(formatNumber(2608.2, 'en-US')).toBe('2,608.20');
    expect(formatNumber('2608.2', 'en-US')).toBe('2,608.20');
    expect(formatNumber(2608.2, 'de-DE')).toBe('2.608,20');
    expect(formatNumber(3, 'en-US')).toBe('3');
    expect(formatNumber(0.125, 'en-US')).toBe('0.125');
    expect(formatNumber('12 apples', 'en-US')).toBe('12 apples');
    expect(formatNumber('', 'en-US')).toBe('');
  });

  it('writes a service date as that day whatever the time zone, and moments in the locale', () => {
    expect(formatDate('2026-11-02', 'en-GB')).toBe('2 Nov 2026');
    expect(formatDate('2026-11-02', 'en-US')).toBe('Nov 2, 2026');
    expect(formatDate('not a date', 'en-GB')).toBe('not a date');
    const at = Date.UTC(2026, 10, 28, 14, 5);
    expect(formatDateTime(at, 'en-GB')).toMatch(/28 Nov 2026/);
    expect(formatTime(at, 'en-GB')).toMatch(/^\d{2}:05$/);
    expect(formatDateTime('garbage', 'en-GB')).toBe('garbage');
  });
});
