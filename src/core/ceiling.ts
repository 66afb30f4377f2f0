/** The guard's decision (design: "The guard's contract"): data in, verdict out. */
import { DEDUP_BUCKET_PCT } from './limits.js';
import type { Occupancy } from './occupancy.js';
import type { Policy } from './policy.js';
import { computePercent, computeTier, sessionTiers, type Tier } from './tiers.js';
import type { ResolvedWindow } from './window.js';

export type VerdictKind = 'allow' | 'warn' | 'block';

/** Why a call passes without its context being measured. */
export type PassReason = 'disabled' | 'not-gated' | 'recovery-skill';

export type MessageId =
  | PassReason
  | 'unmeasured'
  | 'unknown-since-compaction'
  | 'below-ceiling'
  | 'over-ceiling'
  | 'over-ceiling-blocked'
  | 'over-ceiling-assumed-window';

/** One capability load as the guard sees it: the tool, and the skill, agent type or workflow it names. */
export type GuardCall = { tool: string; target?: string | undefined };

export type VerdictData = GuardCall & {
  /** Set when a recovery name was gated because the project defines that skill (projectSkillUnderRecoveryName). */
  projectSkill?: string | undefined;
  occupancy?: number | undefined;
  percent?: number | undefined;
  ceilingPct: number;
  window?: ResolvedWindow | undefined;
  strict: boolean;
};

export type Verdict = { kind: VerdictKind; tier: Tier; messageId: MessageId; data: VerdictData };

/** Whether a call is judged at all, and how: decided before anything is measured. */
export type Gate = { kind: 'pass'; reason: PassReason } | { kind: 'gated'; action: 'warn' | 'block'; projectSkill?: string | undefined };

/**
 * What the gate may ask the caller's I/O edge, only for a call under a recovery name: whether a bare Skill call of
 * `name` runs a skill the project itself defines (not ours, not the person's), and which recovery skills the
 * operator configured (their environment or own policy: a project skill they list is theirs to exempt). Callers
 * that cannot know (replay, report, status) pass none, and recovery names pass as before.
 */
export type GateFacts = {
  projectOwnsSkill?: ((name: string) => boolean) | undefined;
  operatorRecoverySkills?: readonly string[] | undefined;
};

/** The call and the policy decide whether the context matters; nothing is read for a call that passes. */
export function resolveGate(
  call: GuardCall,
  policy: Pick<Policy, 'enabled' | 'tools' | 'strict' | 'recoverySkills'>,
  facts: GateFacts = {},
): Gate {
  if (!policy.enabled) return { kind: 'pass', reason: 'disabled' };
  const action = resolveToolAction(call.tool, policy);
  if (action === 'off') return { kind: 'pass', reason: 'not-gated' };
  if (!isRecoveryCall(call, policy.recoverySkills)) return { kind: 'gated', action };
  const projectSkill = projectSkillUnderRecoveryName(call, facts);
  return projectSkill === undefined ? { kind: 'pass', reason: 'recovery-skill' } : { kind: 'gated', action, projectSkill };
}

/**
 * A repository can ship `.claude/skills/continue/SKILL.md`: a bare call of that name runs the repository's skill, not
 * a recovery skill, so it is gated like any skill unless the operator configured the name. A plugin-qualified name is
 * no safer: a folder named `context-ceiling:context-summarization` in the repository's skills/ answers that call before
 * the plugin does (Claude Code 2.1.331, test/e2e/skill-precedence.test.ts), so the whole name is asked. Returns the
 * name when so.
 */
export function projectSkillUnderRecoveryName(call: GuardCall, facts: GateFacts): string | undefined {
  if (!facts.projectOwnsSkill || call.target === undefined) return undefined;
  const bare = call.target.replace(/^\//, '');
  if (facts.operatorRecoverySkills?.includes(bare)) return undefined;
  return facts.projectOwnsSkill(bare) ? bare : undefined;
}

/** `compactAt`: tokens at which Claude Code compacts the session (compactionPointTokens), which places the default tiers. */
export type MeasuredFacts = { occupancy: Occupancy; window: ResolvedWindow; compactAt?: number | undefined };

/**
 * Judge one call, once: the gate first, then, for a gated call only, its measured context (`measure`
 * is how the caller reads it; a passing call never pays for a read). Never blocks on a measurement it
 * does not have, or on a window that is only assumed.
 */
export function judgeCall(call: GuardCall, policy: Policy, measure: () => MeasuredFacts, facts?: GateFacts): Verdict {
  const gate = resolveGate(call, policy, facts);
  const base: VerdictData = extend(call, { ceilingPct: policy.ceilingPct, strict: policy.strict });
  if (gate.kind === 'pass') return { kind: 'allow', tier: 'UNKNOWN', messageId: gate.reason, data: base };
  if (gate.projectSkill !== undefined) base.projectSkill = gate.projectSkill;
  return judgeMeasured(gate, base, measure(), policy);
}

function judgeMeasured(gate: Extract<Gate, { kind: 'gated' }>, base: VerdictData, facts: MeasuredFacts, policy: Policy): Verdict {
  const { occupancy, window } = facts;
  const tokens = occupancy.kind === 'measured' ? occupancy.tokens : undefined;
  const percent = tokens === undefined ? undefined : computePercent(tokens, window.tokens);
  const data: VerdictData = extend(base, { occupancy: tokens, percent, window });
  const tier = computeTier(percent, sessionTiers(policy, window.tokens, facts.compactAt));
  const verdict = (kind: VerdictKind, messageId: MessageId): Verdict => ({ kind, tier, messageId, data });
  if (occupancy.kind === 'unknown-since-compaction') return verdict('allow', 'unknown-since-compaction');
  if (percent === undefined) return verdict('allow', 'unmeasured');
  if (percent < policy.ceilingPct) return verdict('allow', 'below-ceiling');
  if (!window.verified) return verdict('warn', 'over-ceiling-assumed-window');
  return gate.action === 'block' ? verdict('block', 'over-ceiling-blocked') : verdict('warn', 'over-ceiling');
}

/**
 * `{ ...base, ...fields }`, built as a bare spread plus stores: V8 (Node 20) takes a slow path for a spread
 * followed by more properties in one literal, about 2 µs each, and replay makes six verdicts per recorded call.
 */
function extend<A extends object, B extends object>(base: A, fields: B): A & B {
  const result = { ...base } as A & B;
  for (const key of Object.keys(fields) as Array<keyof B>) (result as B)[key] = fields[key];
  return result;
}

/** `auto` follows strict mode; tools absent from the table are not gated. */
export function resolveToolAction(toolName: string, policy: Pick<Policy, 'tools' | 'strict'>): 'warn' | 'block' | 'off' {
  const action = Object.hasOwn(policy.tools, toolName) ? policy.tools[toolName] : 'off';
  if (action === 'auto') return policy.strict ? 'block' : 'warn';
  return action ?? 'off';
}

/** A Skill call for a recovery skill, bare, slash-prefixed or plugin-qualified (`any-plugin:continue`). */
export function isRecoveryCall(call: GuardCall, recoverySkills: readonly string[]): boolean {
  if (call.tool !== 'Skill' || call.target === undefined) return false;
  const bare = call.target.replace(/^\//, '');
  const unqualified = bare.slice(bare.lastIndexOf(':') + 1);
  return recoverySkills.some((skill) => skill === bare || skill === unqualified);
}

/**
 * What a call loads, for messages: the skill (`Skill {skill}`), the agent type (`Agent`/`Task`
 * `{subagent_type}`), the workflow (`Workflow {name}`, `{scriptPath}`, or an inline `{script}`).
 */
export function describeCall(toolName: string, toolInput: unknown): GuardCall {
  const input = typeof toolInput === 'object' && toolInput !== null ? (toolInput as Record<string, unknown>) : {};
  const text = (value: unknown) => (typeof value === 'string' && value.length > 0 ? value.slice(0, 200) : undefined);
  if (toolName === 'Skill') return { tool: toolName, target: text(input.skill) };
  if (toolName === 'Workflow') {
    const path = text(input.scriptPath);
    return {
      tool: toolName,
      target: text(input.name) ?? path?.slice(path.lastIndexOf('/') + 1) ?? (text(input.script) && 'inline script'),
    };
  }
  return { tool: toolName, target: text(input.subagent_type) };
}

/** The 5-point band a percent falls in; warnings repeat only in a higher band. */
export function bucketOf(percent: number): number {
  return Math.floor(percent / DEDUP_BUCKET_PCT);
}

/** Dedup rule: warn unless this band, or a higher one, already warned since the last compaction. */
export function shouldWarnAgain(bucket: number, warnedBuckets: readonly number[]): boolean {
  return !warnedBuckets.some((warned) => warned >= bucket);
}
