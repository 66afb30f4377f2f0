/** Built-in limits and sizes, each with why it has its value. Policy defaults live in policy-fields.ts. */

/** Every Claude model shares a 200,000-token base window; 1M variants need an explicit window (seed 002). */
export const DEFAULT_WINDOW = 200_000;

/** Warnings repeat only when occupancy climbs into a new 5-point band (seed 002's dedup). */
export const DEDUP_BUCKET_PCT = 5;

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

/**
 * What a checkpoint keeps of ORCHESTRATION.yaml's header and resumption sections. The templates show at
 * most 2,000 characters of a field and 50 entries of a list, so these keep all a reader uses while a file
 * whose aliases expand it a hundredfold still writes a checkpoint of a few hundred kilobytes.
 */
export const CHECKPOINT_ORCHESTRATION_LIMITS = { maxString: 8_000, maxItems: 200, maxDepth: 12, maxTotal: 256 * 1024 } as const;

/**
 * ORCHESTRATION.yaml is refused when its aliases expand it past this many characters: the input cap
 * (2 MiB) bounds the file, not the tree a parser builds from it (60 aliases of a 25 KB mapping: 90 MB).
 */
export const MAX_YAML_EXPANDED_CHARS = 8 * 1024 * 1024;

/** Longest text a checkpoint keeps of a path or other one-line field from a hook input. */
export const CHECKPOINT_FIELD_CHARS = 4_096;
