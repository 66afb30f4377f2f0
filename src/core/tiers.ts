/** Context tiers shared by guard, monitor, checkpoint and resume (design: "Tiers"; docs/configuration.md: against seeds 000 and 004). */

/**
 * Named for what they mean: NOMINAL under the guard's ceiling; OVER_CEILING from the ceiling to WARNING
 * (seed 000 called this band LOW, which seed 004 uses for "no action": a name that says the opposite);
 * WARNING, CRITICAL and EMERGENCY on the way to Claude Code's own compaction.
 */
export const TIERS = ['NOMINAL', 'OVER_CEILING', 'WARNING', 'CRITICAL', 'EMERGENCY'] as const;
export type Tier = (typeof TIERS)[number] | 'UNKNOWN';

export type TierThresholds = {
  ceilingPct: number;
  warningPct: number;
  criticalPct: number;
  emergencyPct: number;
};

/** Seed 000's defaults, percent of the window: as they stand on a window whose compaction point is above them (the 1M models). */
export const DEFAULT_TIER_PCTS = { warningPct: 70, criticalPct: 80, emergencyPct: 88 } as const;

/**
 * Where the default tiers sit relative to Claude Code's compaction point: a tier that starts above it is never
 * seen (on a 200,000 window Claude Code compacts at about 83.5 %, above which 88 % can never be reached).
 */
const SHARE_OF_COMPACTION = { warningPct: 0.75, criticalPct: 0.85, emergencyPct: 0.95 } as const;

/**
 * The tiers for a session: thresholds a person set stay as set; the defaults move below Claude Code's
 * compaction point (`compactPct`, percent of the window) when they would sit at or above it, each to a share
 * of that point, never below the ceiling. Rounded to one decimal.
 */
export function placeTiers(t: TierThresholds, compactPct: number | undefined): TierThresholds {
  const isDefault = (Object.keys(DEFAULT_TIER_PCTS) as Array<keyof typeof DEFAULT_TIER_PCTS>).every((k) => t[k] === DEFAULT_TIER_PCTS[k]);
  if (!isDefault || compactPct === undefined || !Number.isFinite(compactPct) || compactPct <= 0) return t;
  const place = (key: keyof typeof DEFAULT_TIER_PCTS) =>
    Math.max(t.ceilingPct, Math.min(t[key], Math.round(compactPct * SHARE_OF_COMPACTION[key] * 10) / 10));
  return {
    ceilingPct: t.ceilingPct,
    warningPct: place('warningPct'),
    criticalPct: place('criticalPct'),
    emergencyPct: place('emergencyPct'),
  };
}

/**
 * Below the guard ceiling is NOMINAL; from the ceiling to WARNING is OVER_CEILING;
 * then WARNING, CRITICAL, EMERGENCY. A ceiling set above the warning threshold
 * simply leaves OVER_CEILING empty. No percent, or one above 100, is UNKNOWN.
 */
export function computeTier(percent: number | undefined, t: TierThresholds): Tier {
  // Above 100 % the window is certainly wrong (design: the cross-check), so no tier can be judged.
  if (percent === undefined || !Number.isFinite(percent) || percent > 100) return 'UNKNOWN';
  if (percent >= t.emergencyPct) return 'EMERGENCY';
  if (percent >= t.criticalPct) return 'CRITICAL';
  if (percent >= t.warningPct) return 'WARNING';
  if (percent >= t.ceilingPct) return 'OVER_CEILING';
  return 'NOMINAL';
}

/** A tier as read back from a file: seed 000's LOW is our OVER_CEILING; anything unknown is UNKNOWN. */
export function parseTier(value: unknown): Tier {
  if (value === 'LOW') return 'OVER_CEILING';
  return typeof value === 'string' && (TIERS as readonly string[]).includes(value) ? (value as Tier) : 'UNKNOWN';
}

/** Percent of the window, unrounded; callers round only for display. */
export function computePercent(tokens: number, window: number): number {
  return (tokens / window) * 100;
}

/**
 * The tiers a session is judged by: the policy's, the defaults placed below where Claude Code compacts this
 * window (`compactAtTokens`, compactionPointTokens in autocompact.ts).
 */
export function sessionTiers(
  policy: { ceilingPct: number; tiers: Omit<TierThresholds, 'ceilingPct'> },
  windowTokens: number,
  compactAtTokens: number | undefined,
): TierThresholds {
  const compactPct = compactAtTokens === undefined || windowTokens <= 0 ? undefined : computePercent(compactAtTokens, windowTokens);
  return placeTiers({ ceilingPct: policy.ceilingPct, ...policy.tiers }, compactPct);
}
