import { describe, expect, it } from 'vitest';
import { parseServerTime } from './use-elapsed';

describe('parseServerTime', () => {
  it('reads zone-less timestamps as UTC, as the hosted service writes them', () => {
    expect(parseServerTime('2025-07-03T14:27:58.974451')).toBe(Date.UTC(2025, 6, 3, 14, 27, 58, 974));
  });

  it('keeps an explicit zone', () => {
    expect(parseServerTime('2023-02-16T12:33:49+00:00')).toBe(Date.UTC(2023, 1, 16, 12, 33, 49));
    expect(parseServerTime('2023-02-16T12:33:49+02:00')).toBe(Date.UTC(2023, 1, 16, 10, 33, 49));
  });
});
