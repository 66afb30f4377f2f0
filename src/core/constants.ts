/** Built-in defaults. Each one says why it has the value it has. */

/** The seed ADR's 40 % context rule: room left to summarise and recover. */
export const DEFAULT_CEILING_PCT = 40;

/** Every Claude model shares a 200,000-token base window; 1M variants need an explicit window (seed 002). */
export const DEFAULT_WINDOW = 200_000;

/** Warnings repeat only when occupancy climbs into a new 5-point band (seed 002's dedup). */
export const DEDUP_BUCKET_PCT = 5;

/** Tier thresholds from seed 000: WARNING at 70 %, CRITICAL at 80 %, EMERGENCY at 88 % of the window. */
export const DEFAULT_TIERS = { warningPct: 70, criticalPct: 80, emergencyPct: 88 } as const;

/** Backward scan cap: far more than any tail we need, small enough that a hook never reads a whole multi-GB file. */
export const DEFAULT_MAX_SCAN_BYTES = 64 * 1024 * 1024;

/** Skills that bring context back under budget; gating them could deadlock recovery (seed 002). */
export const DEFAULT_RECOVERY_SKILLS = [
  'context-summarization',
  'context-loading-protocol',
  'continue',
  'review-summary',
  'session-review',
] as const;

/** Capability loads the seed gates. `Task` is the pre-2.1.63 name of `Agent`; both are gated. */
export const DEFAULT_GATED_TOOLS = ['Agent', 'Task', 'Skill'] as const;

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

/** The status line refreshes every turn and the window changes only with the model, so a day-old record is still right. */
export const DEFAULT_BRIDGE_MAX_AGE_MINUTES = 1440;

/** Where the orchestrator keeps its resumable state (seed 003), relative to the project. */
export const DEFAULT_ORCHESTRATION_FILE = 'ORCHESTRATION.yaml';

/** A resumption section older than this after a write is probably forgotten (seed 003's L3 check). */
export const DEFAULT_RESUMPTION_STALE_MINUTES = 30;

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

/** Claude Code's own auto-compaction override: shown by the monitor, set by `install --strict` just above the ceiling. */
export const AUTOCOMPACT_ENV = 'CLAUDE_AUTOCOMPACT_PCT_OVERRIDE';

/** Claude Code's auto-compact percent applies to the window minus this output reserve (debug log: effectiveWindow=980000 on 1M). */
export const AUTOCOMPACT_RESERVE_TOKENS = 20_000;
