import { describe, expect, it } from 'vitest';
import { computePercent, computeTier } from '../../src/core/tiers.js';
import { isWindowContradicted, resolveWindow, windowFromConfig } from '../../src/core/window.js';
import { resolvePolicy } from '../../src/core/policy.js';

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

describe('resolveWindow', () => {
  it.each([
    [
      'env wins over the bridge',
      { configured: { tokens: 1_000_000, source: 'env' as const }, bridge: { tokens: 200_000, ageSeconds: 3 } },
      { tokens: 1_000_000, source: 'env' },
    ],
    [
      'policy wins over the bridge',
      { configured: { tokens: 500_000, source: 'policy' as const, detail: 'x.json' }, bridge: { tokens: 1_000_000, ageSeconds: 3 } },
      { tokens: 500_000, source: 'policy', detail: 'x.json' },
    ],
    [
      'a fresh bridge wins over the default',
      { bridge: { tokens: 1_000_000, ageSeconds: 3 } },
      { tokens: 1_000_000, source: 'bridge', detail: '3s old' },
    ],
    ['the default is 200,000', {}, { tokens: 200_000, source: 'default' }],
  ])('%s', (_name, facts, expected) => {
    expect(resolveWindow(facts)).toEqual(expected);
  });

  it('occupancy above the window contradicts it', () => {
    expect(isWindowContradicted(200_001, { tokens: 200_000, source: 'default' })).toBe(true);
    expect(isWindowContradicted(200_000, { tokens: 200_000, source: 'default' })).toBe(false);
  });
});

describe('windowFromConfig: the configured window and its layer', () => {
  it.each([
    ['nothing configured: the default', [], { tokens: 200_000, source: 'default' }],
    [
      'env names no file',
      [{ source: { layer: 'env' as const, detail: 'DEV_TEAM_CONTEXT_WINDOW' }, values: { window: 1_000_000 } }],
      { tokens: 1_000_000, source: 'env', detail: undefined },
    ],
    [
      'a policy file names itself',
      [{ source: { layer: 'project' as const, detail: '/p/.claude/context-ceiling.json' }, values: { window: 500_000 } }],
      { tokens: 500_000, source: 'policy', detail: '/p/.claude/context-ceiling.json' },
    ],
  ])('%s', (_name, layers, expected) => {
    expect(windowFromConfig(resolvePolicy(layers))).toEqual(expected);
  });
});
