import { describe, expect, it } from 'vitest';
import { computePercent, computeTier } from '../../src/core/tiers.js';

const thresholds = { ceilingPct: 40, warningPct: 70, criticalPct: 80, emergencyPct: 88 };

describe('computeTier', () => {
  it.each([
    [0, 'NOMINAL'],
    [39.99, 'NOMINAL'],
    [40, 'LOW'],
    [69.9, 'LOW'],
    [70, 'WARNING'],
    [80, 'CRITICAL'],
    [88, 'EMERGENCY'],
    [100, 'EMERGENCY'],
    [475, 'UNKNOWN'],
    [undefined, 'UNKNOWN'],
    [Number.NaN, 'UNKNOWN'],
  ])('%s%% → %s', (percent, tier) => {
    expect(computeTier(percent, thresholds)).toBe(tier);
  });

  it('a ceiling above the warning threshold leaves LOW empty', () => {
    expect(computeTier(72, { ...thresholds, ceilingPct: 75 })).toBe('WARNING');
    expect(computeTier(60, { ...thresholds, ceilingPct: 75 })).toBe('NOMINAL');
  });

  it('percent is unrounded', () => {
    expect(computePercent(79_999, 200_000)).toBeCloseTo(39.9995, 6);
  });
});
