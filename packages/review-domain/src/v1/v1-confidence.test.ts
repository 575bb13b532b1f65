import { describe, expect, it } from 'vitest';
import { ConfidenceThresholds, DEFAULT_CONFIDENCE_THRESHOLDS, v1ConfidenceLevel } from './v1-confidence';

describe('v1ConfidenceLevel with the default thresholds', () => {
  it.each([
    [1, 'Certain'],
    [0.99, 'Certain'],
    [0.95, 'Certain'],
    [0.9499, 'High'],
    [0.8, 'High'],
    [0.7999, 'Medium'],
    [0.55, 'Medium'],
    [0.5499, 'Low'],
    [0, 'Low'],
  ] as const)('%d is %s (bounds are inclusive)', (score, level) => {
    expect(v1ConfidenceLevel(score)).toBe(level);
  });

  it('gives no level when there is no score', () => {
    expect(v1ConfidenceLevel(null)).toBeNull();
    expect(v1ConfidenceLevel(undefined)).toBeNull();
    expect(v1ConfidenceLevel(Number.NaN)).toBeNull();
  });

  it('reads scores just outside 0..1 by their side rather than dropping them', () => {
    expect(v1ConfidenceLevel(1.0000001)).toBe('Certain');
    expect(v1ConfidenceLevel(-0.01)).toBe('Low');
  });

  it("maps back the numbers the reference service's v1 writer gives each level", () => {
    // server/reference/v1/v1-prediction.ts LEVEL_SCORE: a v1 result of the reference service keeps its levels.
    const written = { Certain: 0.99, High: 0.9, Medium: 0.7, Low: 0.4 } as const;
    for (const [level, score] of Object.entries(written)) expect(v1ConfidenceLevel(score)).toBe(level);
  });
});

describe('v1ConfidenceLevel with other thresholds', () => {
  it('follows the thresholds given', () => {
    const strict = ConfidenceThresholds.parse({ certain: 0.99, high: 0.9, medium: 0.5 });
    expect(v1ConfidenceLevel(0.98, strict)).toBe('High');
    expect(v1ConfidenceLevel(0.85, strict)).toBe('Medium');
    expect(v1ConfidenceLevel(0.5, strict)).toBe('Medium');
    expect(v1ConfidenceLevel(0.49, strict)).toBe('Low');
  });

  it('leaves a level out when two thresholds are equal', () => {
    const noHigh = ConfidenceThresholds.parse({ certain: 0.9, high: 0.9, medium: 0.5 });
    expect(v1ConfidenceLevel(0.9, noHigh)).toBe('Certain');
    expect(v1ConfidenceLevel(0.89, noHigh)).toBe('Medium');
  });
});

describe('ConfidenceThresholds', () => {
  it('accepts the defaults', () => {
    expect(ConfidenceThresholds.parse(DEFAULT_CONFIDENCE_THRESHOLDS)).toEqual({
      certain: 0.95,
      high: 0.8,
      medium: 0.55,
    });
  });

  it.each([
    ['a threshold above 1', { certain: 1.2, high: 0.8, medium: 0.5 }],
    ['a negative threshold', { certain: 0.9, high: 0.8, medium: -0.1 }],
    ['High above Certain', { certain: 0.8, high: 0.9, medium: 0.5 }],
    ['Medium above High', { certain: 0.95, high: 0.6, medium: 0.7 }],
    ['a missing threshold', { certain: 0.95, high: 0.8 }],
    ['an unknown key', { certain: 0.95, high: 0.8, medium: 0.55, low: 0.2 }],
    ['a threshold that is not a number', { certain: '0.95', high: 0.8, medium: 0.55 }],
  ])('rejects %s', (_, input) => {
    expect(ConfidenceThresholds.safeParse(input).success).toBe(false);
  });

  it('says what is wrong with the order', () => {
    const result = ConfidenceThresholds.safeParse({ certain: 0.8, high: 0.9, medium: 0.5 });
    expect(result.error?.issues[0]?.message).toBe('Thresholds must satisfy certain ≥ high ≥ medium');
  });
});
