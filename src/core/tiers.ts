/** Context tiers shared by guard, monitor, checkpoint and resume (design: "Tiers"). */

export const TIERS = ['NOMINAL', 'LOW', 'WARNING', 'CRITICAL', 'EMERGENCY'] as const;
export type Tier = (typeof TIERS)[number] | 'UNKNOWN';

export type TierThresholds = {
  ceilingPct: number;
  warningPct: number;
  criticalPct: number;
  emergencyPct: number;
};

/**
 * Below the guard ceiling is NOMINAL; from the ceiling to WARNING is LOW
 * headroom; then WARNING, CRITICAL, EMERGENCY. A ceiling set above the
 * warning threshold simply leaves LOW empty. No percent, or one above 100, is UNKNOWN.
 */
export function computeTier(percent: number | undefined, t: TierThresholds): Tier {
  // Above 100 % the window is certainly wrong (design: the cross-check), so no tier can be judged.
  if (percent === undefined || !Number.isFinite(percent) || percent > 100) return 'UNKNOWN';
  if (percent >= t.emergencyPct) return 'EMERGENCY';
  if (percent >= t.criticalPct) return 'CRITICAL';
  if (percent >= t.warningPct) return 'WARNING';
  if (percent >= t.ceilingPct) return 'LOW';
  return 'NOMINAL';
}

/** Percent of the window, unrounded; callers round only for display. */
export function computePercent(tokens: number, window: number): number {
  return (tokens / window) * 100;
}
