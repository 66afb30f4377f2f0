/** The guard's decision (design: "The guard's contract"): data in, verdict out. */
import { DEDUP_BUCKET_PCT } from './constants.js';
import type { Occupancy } from './occupancy.js';
import type { Policy } from './policy.js';
import { computePercent, computeTier, type Tier } from './tiers.js';
import { isVerifiedWindow, isWindowContradicted, type ResolvedWindow } from './window.js';

export type VerdictKind = 'allow' | 'warn' | 'block';

export type MessageId =
  | 'disabled'
  | 'not-gated'
  | 'recovery-skill'
  | 'unmeasured'
  | 'unknown-since-compaction'
  | 'below-ceiling'
  | 'over-ceiling'
  | 'over-ceiling-blocked'
  | 'over-ceiling-assumed-window'
  | 'window-contradicted';

export type VerdictData = {
  tool: string;
  /** Skill name or agent type, when the call names one. */
  target?: string | undefined;
  occupancy?: number | undefined;
  percent?: number | undefined;
  ceilingPct: number;
  window: ResolvedWindow;
  /** The most tokens this session has been seen to hold, when that proves the window wrong. */
  evidenceTokens?: number | undefined;
  /** The recovery skill as it is invoked in this install; undefined when none is installed. */
  recoverySkill?: string | undefined;
  strict: boolean;
};

export type Verdict = { kind: VerdictKind; tier: Tier; messageId: MessageId; data: VerdictData };

export type GuardFacts = {
  toolName: string;
  toolInput: unknown;
  occupancy: Occupancy;
  window: ResolvedWindow;
  policy: Policy;
  /** The most tokens this session has held before (e.g. before a compaction hid it). */
  windowEvidence?: number | undefined;
  /** The installed recovery skill to name (src/io/recovery-skill.ts); absent: name none. */
  recoverySkill?: string | undefined;
};

/**
 * Judge one tool call. Never blocks on a measurement it does not have, on a
 * window proven wrong, or on a window that is only assumed (`default`).
 */
export function judgeCeiling(facts: GuardFacts): Verdict {
  const { policy, window, occupancy } = facts;
  const target = callTarget(facts.toolName, facts.toolInput);
  const tokens = occupancy.kind === 'measured' ? occupancy.tokens : undefined;
  const percent = tokens === undefined ? undefined : computePercent(tokens, window.tokens);
  const data: VerdictData = {
    tool: facts.toolName,
    target,
    occupancy: tokens,
    percent,
    ceilingPct: policy.ceilingPct,
    window,
    evidenceTokens: facts.windowEvidence !== undefined && facts.windowEvidence > window.tokens ? facts.windowEvidence : undefined,
    recoverySkill: facts.recoverySkill,
    strict: policy.strict,
  };
  const tier = computeTier(percent, { ceilingPct: policy.ceilingPct, ...policy.tiers });
  const verdict = (kind: VerdictKind, messageId: MessageId): Verdict => ({ kind, tier, messageId, data });

  if (!policy.enabled) return verdict('allow', 'disabled');
  const action = resolveToolAction(facts.toolName, policy);
  if (action === 'off') return verdict('allow', 'not-gated');
  if (isRecoveryCall(facts.toolName, target, policy.recoverySkills)) return verdict('allow', 'recovery-skill');
  if (occupancy.kind === 'unknown-since-compaction') return verdict('allow', 'unknown-since-compaction');
  if (tokens === undefined || percent === undefined) return verdict('allow', 'unmeasured');
  if (percent < policy.ceilingPct) return verdict('allow', 'below-ceiling');
  if (isWindowContradicted(tokens, window, facts.windowEvidence)) return verdict('warn', 'window-contradicted');
  if (!isVerifiedWindow(window)) return verdict('warn', 'over-ceiling-assumed-window');
  return action === 'block' ? verdict('block', 'over-ceiling-blocked') : verdict('warn', 'over-ceiling');
}

/** `auto` follows strict mode; tools absent from the table are not gated. */
export function resolveToolAction(toolName: string, policy: Pick<Policy, 'tools' | 'strict'>): 'warn' | 'block' | 'off' {
  const action = Object.hasOwn(policy.tools, toolName) ? policy.tools[toolName] : 'off';
  if (action === 'auto') return policy.strict ? 'block' : 'warn';
  return action ?? 'off';
}

/** A Skill call for a recovery skill, bare, slash-prefixed or plugin-qualified (`any-plugin:continue`). */
export function isRecoveryCall(toolName: string, target: string | undefined, recoverySkills: readonly string[]): boolean {
  if (toolName !== 'Skill' || target === undefined) return false;
  const bare = target.replace(/^\//, '');
  const unqualified = bare.slice(bare.lastIndexOf(':') + 1);
  return recoverySkills.some((skill) => skill === bare || skill === unqualified);
}

function callTarget(toolName: string, toolInput: unknown): string | undefined {
  if (typeof toolInput !== 'object' || toolInput === null) return undefined;
  const input = toolInput as Record<string, unknown>;
  const value = toolName === 'Skill' ? input.skill : input.subagent_type;
  return typeof value === 'string' && value.length > 0 ? value.slice(0, 200) : undefined;
}

/** The 5-point band a percent falls in; warnings repeat only in a higher band. */
export function bucketOf(percent: number): number {
  return Math.floor(percent / DEDUP_BUCKET_PCT);
}

/** Dedup rule: warn unless this band, or a higher one, already warned since the last compaction. */
export function shouldWarnAgain(bucket: number, warnedBuckets: readonly number[]): boolean {
  return !warnedBuckets.some((warned) => warned >= bucket);
}
