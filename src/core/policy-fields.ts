/**
 * Every policy field as plain data: its default, bounds and variable (its meaning in words: policy-field-texts.ts).
 * The zod schema (policy-schema.ts) and the environment coercer are both built
 * from this table, so the hook reads its variables without loading zod (loading
 * and building the schema costs several ms; docs/architecture.md).
 */
import { ENV } from './env-names.js';

export const TOOL_ACTIONS = ['auto', 'warn', 'block', 'off'] as const;
export type ToolAction = (typeof TOOL_ACTIONS)[number];

/** Claude Code tool names, including MCP (`mcp__server__tool`) and plugin-qualified ones. */
export const TOOL_NAME = /^[A-Za-z0-9_.:-]+$/;

/** A skill name fits in a comma-separated variable. */
export const SKILL_NAME = /^[^\s,]+$/;

/** A path that does not depend on the folder a hook or command happens to run in. */
export const ABSOLUTE_PATH = /^\//;

/** Every field has its variable; its meaning in words is in policy-field-texts.ts, which no hook builds. */
type Described = { env: string };

/** A boolean whose variable takes only the literals `on` and `off`, so a typo never changes a team's posture. */
export type SwitchField = Described & { kind: 'switch'; default: boolean };
/** `debug`: `1`/`on`, `0`/`off`, or an absolute path (io/debug.ts appends to it). */
export type DebugField = Described & { kind: 'debug'; default: boolean };
/** A whole number from `min` to `max` (to the largest safe integer when `max` is absent). */
export type IntField = Described & { kind: 'int'; min: number; max?: number; default: number | undefined };
/** `absolute`: only an absolute path (a relative one would follow each process's working folder). */
export type TextField = Described & { kind: 'text'; default: string | undefined; absolute?: true };
export type NamesField = Described & { kind: 'names'; default: readonly string[] };
export type ToolsField = Described & { kind: 'tools'; default: Readonly<Record<string, ToolAction>> };

export type PolicyField = SwitchField | DebugField | IntField | TextField | NamesField | ToolsField;

const percent = (env: string, value: number): IntField => ({ kind: 'int', env, min: 1, max: 100, default: value });
const minutes = (env: string, value: number): IntField => ({ kind: 'int', env, min: 1, max: 525_600, default: value });

/**
 * Keyed by the flat key `config get` and the sources map use (`tiers.warningPct`);
 * listed in the order `config show` prints them.
 */
export const POLICY_FIELDS = {
  enabled: { kind: 'switch', env: ENV.ceiling, default: true },
  strict: { kind: 'switch', env: ENV.strict, default: false },
  // The seed ADR's 40 % context rule: room left to summarise and recover.
  ceilingPct: percent(ENV.ceilingPct, 40),
  // Unset on purpose: the session's own window (Claude Code's report for it, else its model's) is right.
  window: { kind: 'int', env: ENV.window, min: 1000, max: 100_000_000, default: undefined },
  // The capability loads the seed gates. `Task` is the pre-2.1.63 name of `Agent`; both are gated. `Workflow`
  // runs a script of several subagents (2.1.328 and later): a capability load too.
  tools: { kind: 'tools', env: ENV.tools, default: { Agent: 'auto', Task: 'auto', Skill: 'auto', Workflow: 'auto' } },
  // Skills that bring context back under budget; gating them could deadlock recovery (seed 002).
  recoverySkills: {
    kind: 'names',
    env: ENV.recoverySkills,
    default: ['context-summarization', 'context-loading-protocol', 'continue', 'review-summary', 'session-review'],
  },
  // Tier thresholds from seed 000: WARNING at 70 %, CRITICAL at 80 %, EMERGENCY at 88 % of the window.
  'tiers.warningPct': percent(ENV.warningPct, 70),
  'tiers.criticalPct': percent(ENV.criticalPct, 80),
  'tiers.emergencyPct': percent(ENV.emergencyPct, 88),
  // Far more than any tail we need, small enough that a hook never reads a whole multi-GB file.
  maxScanBytes: { kind: 'int', env: ENV.maxScanBytes, min: 64 * 1024, default: 64 * 1024 * 1024 },
  stateDir: { kind: 'text', env: ENV.stateDir, absolute: true, default: undefined },
  debug: { kind: 'debug', env: ENV.debug, default: false },
  monitor: { kind: 'switch', env: ENV.monitor, default: true },
  // Where the orchestrator keeps its resumable state (seed 003), relative to the project.
  orchestrationFile: { kind: 'text', env: ENV.orchestrationFile, default: 'ORCHESTRATION.yaml' },
  // A resumption section older than this after a write is probably forgotten (seed 003's L3 check).
  resumptionStaleMinutes: minutes(ENV.resumptionStaleMinutes, 30),
  // The status line refreshes every turn and the window changes only with the model, so a day-old record is still right.
  bridgeMaxAgeMinutes: minutes(ENV.bridgeMaxAgeMinutes, 1440),
} as const satisfies Record<string, PolicyField>;

export type FieldKey = keyof typeof POLICY_FIELDS;

export const FIELD_KEYS = Object.keys(POLICY_FIELDS) as FieldKey[];

/** A group of dotted keys (`tiers.warningPct`) is one object in a policy file; its meaning as a whole. */
export const POLICY_GROUPS = {
  tiers: 'Tier thresholds, percent of the window; must rise warning < critical < emergency.',
} as const satisfies Record<string, string>;

export const PRESET_NAMES = ['default', 'strict-ci', 'large-window', 'strict-skills'] as const;
export type PresetName = (typeof PRESET_NAMES)[number];

// The policy's types, derived from the table: a field is declared once, above, and nowhere else.
type Fields = typeof POLICY_FIELDS;
type KindValue = { switch: boolean; debug: boolean; int: number; text: string; names: string[]; tools: Record<string, ToolAction> };
/** A field's value; a field without a default may be unset. */
type ValueOf<F extends PolicyField> = KindValue[F['kind']] | (F['default'] extends undefined ? undefined : never);
type TopKey = Exclude<FieldKey, `${string}.${string}`>;
type GroupKey = keyof typeof POLICY_GROUPS;
type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The resolved policy: every field with its value (groups nested). */
export type Policy = Simplify<
  { [K in TopKey]: ValueOf<Fields[K]> } & {
    [G in GroupKey]: { [K in FieldKey as K extends `${G}.${infer Sub}` ? Sub : never]: ValueOf<Fields[K]> };
  }
>;

/** Policy values as a layer holds them: every key optional, groups included. */
export type PolicyValues = Simplify<
  { [K in TopKey]?: ValueOf<Fields[K]> | undefined } & {
    [G in GroupKey]?: { [K in FieldKey as K extends `${G}.${infer Sub}` ? Sub : never]?: ValueOf<Fields[K]> | undefined } | undefined;
  }
>;

/** A policy file's content once validated: the values, a preset to start from, and the editor's `$schema`. */
export type PolicyFile = Simplify<{ $schema?: string | undefined; extends?: PresetName | undefined } & PolicyValues>;

export type Coerced = { value: unknown } | { why: string };

/** One variable's text to a value, or why it was refused. Bounds and patterns are the schema's (test/unit/policy-fields.test.ts). */
export function coerceEnvValue(field: PolicyField, raw: string): Coerced {
  switch (field.kind) {
    case 'switch':
      return raw === 'on' ? { value: true } : raw === 'off' ? { value: false } : { why: 'only "on" or "off" is recognised' };
    case 'debug':
      if (raw === '1' || raw === 'on' || raw.startsWith('/')) return { value: true };
      return raw === '0' || raw === 'off' ? { value: false } : { why: 'use 1, on, off, or an absolute file path' };
    case 'int':
      return coerceInt(field, raw);
    case 'text':
      return field.absolute && !ABSOLUTE_PATH.test(raw) ? { why: 'must be an absolute path' } : { value: raw };
    case 'names': {
      const list = raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      return list.length > 0 && list.every((s) => SKILL_NAME.test(s))
        ? { value: list }
        : { why: 'expected a comma-separated list of skill names' };
    }
    case 'tools': {
      const tools = coerceToolActions(raw);
      return tools ? { value: tools } : { why: `expected Tool=action pairs separated by commas, action one of ${TOOL_ACTIONS.join('|')}` };
    }
  }
}

/** Digits only: `040` is forty, never octal; `0x20`, `1e6` and `40.5` are refused. */
function coerceInt(field: IntField, raw: string): Coerced {
  const max = field.max ?? Number.MAX_SAFE_INTEGER;
  const value = /^[0-9]+$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  return Number.isSafeInteger(value) && value >= field.min && value <= max
    ? { value }
    : { why: `expected a whole number from ${field.min} to ${max}` };
}

function coerceToolActions(raw: string): Record<string, ToolAction> | undefined {
  const out: Record<string, ToolAction> = {};
  for (const pair of raw.split(',')) {
    const match = /^\s*([^=\s]+)\s*=\s*([a-z]+)\s*$/.exec(pair);
    if (!match || !TOOL_NAME.test(match[1]!) || !(TOOL_ACTIONS as readonly string[]).includes(match[2]!)) return undefined;
    out[match[1]!] = match[2] as ToolAction;
  }
  return out;
}
