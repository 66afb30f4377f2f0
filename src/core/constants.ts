/** Built-in constants, each with why it has its value. Policy defaults live in policy-fields.ts. */

/** Every Claude model shares a 200,000-token base window; 1M variants need an explicit window (seed 002). */
export const DEFAULT_WINDOW = 200_000;

/** Warnings repeat only when occupancy climbs into a new 5-point band (seed 002's dedup). */
export const DEDUP_BUCKET_PCT = 5;

/** Names of the environment variables. The seed's four names are kept exactly. */
export const ENV = {
  ceiling: 'DEV_TEAM_CONTEXT_CEILING',
  strict: 'DEV_TEAM_CONTEXT_STRICT',
  ceilingPct: 'DEV_TEAM_CONTEXT_CEILING_PCT',
  window: 'DEV_TEAM_CONTEXT_WINDOW',
  policy: 'DEV_TEAM_CONTEXT_POLICY',
  stateDir: 'DEV_TEAM_CONTEXT_STATE_DIR',
  debug: 'DEV_TEAM_CONTEXT_DEBUG',
  maxScanBytes: 'DEV_TEAM_CONTEXT_MAX_SCAN_BYTES',
  recoverySkills: 'DEV_TEAM_CONTEXT_RECOVERY_SKILLS',
  tools: 'DEV_TEAM_CONTEXT_TOOLS',
  warningPct: 'DEV_TEAM_CONTEXT_WARNING_PCT',
  criticalPct: 'DEV_TEAM_CONTEXT_CRITICAL_PCT',
  emergencyPct: 'DEV_TEAM_CONTEXT_EMERGENCY_PCT',
  monitor: 'DEV_TEAM_CONTEXT_MONITOR',
  orchestrationFile: 'DEV_TEAM_CONTEXT_ORCHESTRATION',
  resumptionStaleMinutes: 'DEV_TEAM_CONTEXT_RESUMPTION_STALE_MINUTES',
  bridgeMaxAgeMinutes: 'DEV_TEAM_CONTEXT_BRIDGE_MAX_AGE_MINUTES',
} as const;

/** Injected-text budgets in tokens, estimated as characters / 4 (design: "Tiers"). */
export const TOKEN_BUDGET = { monitorCalm: 100, monitorAlarm: 200, compactionAlert: 500, resumptionContext: 1000 } as const;

/**
 * Claude Code cuts PreCompact's plain stdout beyond this many characters before
 * handing it to the summariser (2.1.328 binary: "output cut: N characters is over
 * the 10000-character limit"). Our text must stay well inside it.
 */
export const PRECOMPACT_OUTPUT_LIMIT = 10_000;

/** Our own budget for the summariser brief: the summariser's instructions are not the place for an essay. */
export const SUMMARISER_BRIEF_CHARS = 4_000;

/** A kept compact_summary is capped: real summaries are a few thousand tokens; anything far beyond is not one. */
export const KEPT_SUMMARY_MAX_CHARS = 48_000;

/** How much of the kept summary a <resumption-context> after /clear quotes (its budget is 4,000 characters). */
export const KEPT_SUMMARY_EXCERPT_CHARS = 1_400;
