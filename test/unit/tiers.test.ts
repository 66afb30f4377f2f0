import { describe, expect, it } from 'vitest';
import { compactionPointTokens } from '../../src/core/autocompact.js';
import { computePercent, computeTier, DEFAULT_TIER_PCTS, parseTier, sessionTiers } from '../../src/core/tiers.js';

const thresholds = { ceilingPct: 40, warningPct: 70, criticalPct: 80, emergencyPct: 88 };

describe('computeTier', () => {
  it.each([
    [0, 'NOMINAL'],
    [39.99, 'NOMINAL'],
    [40, 'OVER_CEILING'],
    [69.9, 'OVER_CEILING'],
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

  it('a ceiling above the warning threshold leaves OVER_CEILING empty', () => {
    expect(computeTier(72, { ...thresholds, ceilingPct: 75 })).toBe('WARNING');
    expect(computeTier(60, { ...thresholds, ceilingPct: 75 })).toBe('NOMINAL');
  });

  it('percent is unrounded', () => {
    expect(computePercent(79_999, 200_000)).toBeCloseTo(39.9995, 6);
  });
});

describe('placeTiers / sessionTiers: the default tiers sit below Claude Code’s own compaction point', () => {
  const policy = { ceilingPct: 40, tiers: { ...DEFAULT_TIER_PCTS } };

  it('on the 1M window (compaction at 967,000) the seed’s 70/80/88 stand', () => {
    expect(sessionTiers(policy, 1_000_000, compactionPointTokens(undefined, 1_000_000))).toEqual(thresholds);
  });

  it('on a 200,000 window (compaction at 167,000, 83.5 %) every tier starts below it, so each can be seen', () => {
    const placed = sessionTiers(policy, 200_000, compactionPointTokens(undefined, 200_000));
    expect(compactionPointTokens(undefined, 200_000)).toBe(167_000);
    expect(placed).toEqual({ ceilingPct: 40, warningPct: 62.6, criticalPct: 71, emergencyPct: 79.3 });
    expect(computeTier(80, placed)).toBe('EMERGENCY');
  });

  it('with CLAUDE_AUTOCOMPACT_PCT_OVERRIDE=45 on 1M (compaction at 441,000) the tiers crowd at the ceiling, never below it', () => {
    const at = compactionPointTokens({ pct: 45 }, 1_000_000);
    expect(at).toBe(441_000);
    const placed = sessionTiers(policy, 1_000_000, at);
    expect(placed).toEqual({ ceilingPct: 40, warningPct: 40, criticalPct: 40, emergencyPct: 41.9 });
    expect(computeTier(39, placed)).toBe('NOMINAL');
    expect(computeTier(43, placed)).toBe('EMERGENCY');
  });

  it('tiers a person set stay as set', () => {
    const mine = { ceilingPct: 40, tiers: { warningPct: 85, criticalPct: 90, emergencyPct: 95 } };
    expect(sessionTiers(mine, 200_000, 167_000)).toEqual({ ceilingPct: 40, warningPct: 85, criticalPct: 90, emergencyPct: 95 });
  });

  it('seed 000’s LOW reads back as OVER_CEILING', () => {
    expect(parseTier('LOW')).toBe('OVER_CEILING');
    expect(parseTier('WARNING')).toBe('WARNING');
    expect(parseTier('nope')).toBe('UNKNOWN');
  });
});
