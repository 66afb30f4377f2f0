/**
 * The policy file's schema. zod/mini keeps the hook bundle small (full zod
 * costs ~20 ms of start-up); `policies/schema.json` is generated from this.
 */
import * as z from 'zod/mini';
import { DEFAULT_BRIDGE_MAX_AGE_MINUTES, DEFAULT_MAX_SCAN_BYTES, DEFAULT_ORCHESTRATION_FILE, DEFAULT_RECOVERY_SKILLS, DEFAULT_RESUMPTION_STALE_MINUTES, DEFAULT_TIERS } from './constants.js';
import { PRESET_NAMES, TOOL_ACTIONS, type PolicyFile } from './policy.js';

const percent = (what: string) => z.number().check(z.int(), z.minimum(1), z.maximum(100), z.describe(what));
const skillName = z.string().check(z.minLength(1), z.regex(/^[^\s,]+$/));

/**
 * Keys with their meaning; every key is optional in a file and also has an
 * environment variable. Built on first use: most hook runs find no policy file.
 */
export function policyFileSchema() {
  return (cachedSchema ??= buildPolicyFileSchema());
}

let cachedSchema: ReturnType<typeof buildPolicyFileSchema> | undefined;

function buildPolicyFileSchema() {
  return z.strictObject({
  $schema: z.optional(z.string().check(z.describe('Path or URL of this JSON Schema, for editors.'))),
  extends: z.optional(
    z.enum(PRESET_NAMES).check(z.describe('A preset from the package\'s policies/ folder to start from; this file\'s keys win over it.')),
  ),
  enabled: z.optional(
    z.boolean().check(z.describe('Master switch for every hook (env DEV_TEAM_CONTEXT_CEILING=off|on). Default true.')),
  ),
  strict: z.optional(
    z.boolean().check(z.describe('Block (exit 2) instead of warn at the ceiling, for tools whose action is "auto" (env DEV_TEAM_CONTEXT_STRICT=on|off). Default false.')),
  ),
  ceilingPct: z.optional(percent('Guard ceiling as a percent of the window (env DEV_TEAM_CONTEXT_CEILING_PCT). Default 40.')),
  window: z.optional(
    z.number().check(
      z.int(),
      z.minimum(1000),
      z.maximum(100_000_000),
      z.describe('Context window in tokens, e.g. 1000000 for a 1M model (env DEV_TEAM_CONTEXT_WINDOW). Default: the status line bridge when fresh, else 200000.'),
    ),
  ),
  tools: z.optional(
    z.record(z.string().check(z.regex(/^[A-Za-z0-9_.:-]+$/)), z.enum(TOOL_ACTIONS)).check(
      z.describe('Per-tool action: "auto" (block when strict, else warn), "warn", "block" or "off". Merged over the default {Agent, Task, Skill: "auto"} (env DEV_TEAM_CONTEXT_TOOLS="Skill=block,Agent=warn").'),
    ),
  ),
  recoverySkills: z.optional(
    z.array(skillName).check(
      z.minLength(1),
      z.describe(`Skills never gated, with or without a plugin prefix; the first is the one the guard recommends (env DEV_TEAM_CONTEXT_RECOVERY_SKILLS, comma-separated). Default ${DEFAULT_RECOVERY_SKILLS.join(', ')}.`),
    ),
  ),
  tiers: z.optional(
    z.strictObject({
      warningPct: z.optional(percent(`WARNING tier starts here (env DEV_TEAM_CONTEXT_WARNING_PCT). Default ${DEFAULT_TIERS.warningPct}.`)),
      criticalPct: z.optional(percent(`CRITICAL tier starts here (env DEV_TEAM_CONTEXT_CRITICAL_PCT). Default ${DEFAULT_TIERS.criticalPct}.`)),
      emergencyPct: z.optional(percent(`EMERGENCY tier starts here (env DEV_TEAM_CONTEXT_EMERGENCY_PCT). Default ${DEFAULT_TIERS.emergencyPct}.`)),
    }).check(z.describe('Tier thresholds, percent of the window; must rise warning < critical < emergency.')),
  ),
  maxScanBytes: z.optional(
    z.number().check(
      z.int(),
      z.minimum(64 * 1024),
      z.describe(`Most transcript bytes a hook reads backwards looking for the latest usage (env DEV_TEAM_CONTEXT_MAX_SCAN_BYTES). Default ${DEFAULT_MAX_SCAN_BYTES}.`),
    ),
  ),
  stateDir: z.optional(
    z.string().check(
      z.minLength(1),
      z.describe('Private state directory (dedup markers, bridge files) (env DEV_TEAM_CONTEXT_STATE_DIR). Honoured only in ~/.claude/context-ceiling.json: a project file cannot move it. Default ${TMPDIR:-/tmp}/context-ceiling-<uid>.'),
    ),
  ),
  debug: z.optional(
    z.boolean().check(z.describe('Write diagnostics to stderr (env DEV_TEAM_CONTEXT_DEBUG=1, or a file path to append to). Default false.')),
  ),
  monitor: z.optional(
    z.boolean().check(z.describe('Inject the <context-monitor> status on every prompt (env DEV_TEAM_CONTEXT_MONITOR=off|on). Compaction alerts are not affected. Default true.')),
  ),
  orchestrationFile: z.optional(
    z.string().check(
      z.minLength(1),
      z.describe(`The orchestrator's state file whose resumption: section checkpoints record, relative to the project (env DEV_TEAM_CONTEXT_ORCHESTRATION). Default ${DEFAULT_ORCHESTRATION_FILE}.`),
    ),
  ),
  resumptionStaleMinutes: z.optional(
    z.number().check(
      z.int(),
      z.minimum(1),
      z.maximum(525_600),
      z.describe(`After a write to the orchestration file, warn when resumption.updated_at is older than this many minutes (env DEV_TEAM_CONTEXT_RESUMPTION_STALE_MINUTES). Default ${DEFAULT_RESUMPTION_STALE_MINUTES}.`),
    ),
  ),
  bridgeMaxAgeMinutes: z.optional(
    z.number().check(
      z.int(),
      z.minimum(1),
      z.maximum(525_600),
      z.describe(`How old the window the status line bridge recorded may be and still be used (env DEV_TEAM_CONTEXT_BRIDGE_MAX_AGE_MINUTES). Default ${DEFAULT_BRIDGE_MAX_AGE_MINUTES}.`),
    ),
  ),
  });
}

// The hand-written PolicyFile type (policy.ts, kept zod-free for the hook bundle) must match the schema exactly.
type Inferred = z.infer<ReturnType<typeof buildPolicyFileSchema>>;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const policyTypeMatchesSchema: Same<Inferred, PolicyFile> = true;

type Issue = { readonly code?: string; readonly path: readonly PropertyKey[]; readonly message: string };

/** zod issues as `key: message` lines, worded without loading a locale (the hook bundle stays small). */
export function formatPolicyIssues(issues: readonly Issue[]): string[] {
  return issues.map((issue) => {
    const where = formatPath(issue.path);
    return where ? `${where}: ${describeIssue(issue)}` : describeIssue(issue);
  });
}

function describeIssue(plain: Issue): string {
  const issue = plain as Issue & Record<string, unknown>;
  const list = (values: unknown) => (Array.isArray(values) ? values.map((v) => JSON.stringify(v)).join(', ') : '');
  switch (issue.code) {
    case 'unrecognized_keys':
      return `unknown key${(issue.keys as unknown[]).length > 1 ? 's' : ''} ${list(issue.keys)}`;
    case 'invalid_type':
      return `must be ${issue.expected === 'int' ? 'a whole number' : `a${/^[aeiou]/.test(String(issue.expected)) ? 'n' : ''} ${String(issue.expected)}`}`;
    case 'too_big':
      return issue.origin === 'array' ? `must have at most ${String(issue.maximum)} entries` : `must be at most ${String(issue.maximum)}`;
    case 'too_small':
      if (issue.origin === 'array') return `must have at least ${String(issue.minimum)} entr${issue.minimum === 1 ? 'y' : 'ies'}`;
      if (issue.origin === 'string') return 'must not be empty';
      return `must be at least ${String(issue.minimum)}`;
    case 'invalid_value':
      return `must be one of ${list(issue.values)}`;
    case 'invalid_format':
      return 'must be a name without spaces or commas';
    case 'invalid_key':
      return 'tool names may use letters, digits, "_", ".", ":" and "-" only';
    default:
      return issue.message;
  }
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, key) => (typeof key === 'number' ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)), '');
}
