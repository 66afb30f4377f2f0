/**
 * Config as one pipeline: layers (preset → user → project → policy file → env)
 * → flat merge keeping each value's source → rules → a resolved policy.
 * Pure: files arrive already read and parsed.
 */
import {
  DEFAULT_BRIDGE_MAX_AGE_MINUTES,
  DEFAULT_CEILING_PCT,
  DEFAULT_GATED_TOOLS,
  DEFAULT_MAX_SCAN_BYTES,
  DEFAULT_ORCHESTRATION_FILE,
  DEFAULT_RECOVERY_SKILLS,
  DEFAULT_RESUMPTION_STALE_MINUTES,
  DEFAULT_TIERS,
  ENV,
} from './constants.js';

export const TOOL_ACTIONS = ['auto', 'warn', 'block', 'off'] as const;
export type ToolAction = (typeof TOOL_ACTIONS)[number];

export const PRESET_NAMES = ['default', 'strict-ci', 'large-window', 'strict-skills'] as const;
export type PresetName = (typeof PRESET_NAMES)[number];

/**
 * A policy file's content once validated. Written out by hand so the hook
 * bundle needs no zod unless a policy file exists; policy-schema.ts proves
 * at compile time that it equals the schema's inferred type.
 */
export type PolicyFile = {
  $schema?: string | undefined;
  extends?: PresetName | undefined;
  enabled?: boolean | undefined;
  strict?: boolean | undefined;
  ceilingPct?: number | undefined;
  window?: number | undefined;
  tools?: Record<string, ToolAction> | undefined;
  recoverySkills?: string[] | undefined;
  tiers?: { warningPct?: number | undefined; criticalPct?: number | undefined; emergencyPct?: number | undefined } | undefined;
  maxScanBytes?: number | undefined;
  stateDir?: string | undefined;
  debug?: boolean | undefined;
  monitor?: boolean | undefined;
  orchestrationFile?: string | undefined;
  resumptionStaleMinutes?: number | undefined;
  bridgeMaxAgeMinutes?: number | undefined;
};

/** Policy values without the file-only keys. */
export type PolicyValues = Omit<PolicyFile, '$schema' | 'extends'>;

export type LayerName = 'default' | 'preset' | 'user' | 'project' | 'policy' | 'env';

export type Source = { layer: LayerName; detail?: string | undefined };

export type Layer = { source: Source; values: PolicyValues };

export type Policy = {
  enabled: boolean;
  strict: boolean;
  ceilingPct: number;
  window: number | undefined;
  tools: Record<string, ToolAction>;
  recoverySkills: string[];
  tiers: { warningPct: number; criticalPct: number; emergencyPct: number };
  maxScanBytes: number;
  stateDir: string | undefined;
  debug: boolean;
  monitor: boolean;
  orchestrationFile: string;
  resumptionStaleMinutes: number;
  bridgeMaxAgeMinutes: number;
};

export type ResolvedPolicy = {
  policy: Policy;
  /** Flat key (`ceilingPct`, `tools.Skill`, `tiers.warningPct`) → where its value came from. */
  sources: Record<string, Source>;
  /** Things a user should hear about that did not stop the policy from resolving. */
  warnings: string[];
};

export const DEFAULT_VALUES: PolicyValues = {
  enabled: true,
  strict: false,
  ceilingPct: DEFAULT_CEILING_PCT,
  tools: Object.fromEntries(DEFAULT_GATED_TOOLS.map((tool) => [tool, 'auto'])),
  recoverySkills: [...DEFAULT_RECOVERY_SKILLS],
  tiers: { ...DEFAULT_TIERS },
  maxScanBytes: DEFAULT_MAX_SCAN_BYTES,
  debug: false,
  monitor: true,
  orchestrationFile: DEFAULT_ORCHESTRATION_FILE,
  resumptionStaleMinutes: DEFAULT_RESUMPTION_STALE_MINUTES,
  bridgeMaxAgeMinutes: DEFAULT_BRIDGE_MAX_AGE_MINUTES,
};

/** Merge layers given lowest first; later layers win key by key (tools.* and tiers.* merge per entry). */
export function resolvePolicy(layers: readonly Layer[]): ResolvedPolicy {
  const flat = new Map<string, { value: unknown; source: Source }>();
  const all: Layer[] = [{ source: { layer: 'default' }, values: DEFAULT_VALUES }, ...layers];
  for (const layer of all) {
    for (const [key, value] of flattenValues(layer.values)) flat.set(key, { value, source: layer.source });
  }
  const get = <T>(key: string) => flat.get(key)?.value as T;
  const tools: Record<string, ToolAction> = {};
  const tiers: Policy['tiers'] = { ...DEFAULT_TIERS };
  for (const [key, { value }] of flat) {
    if (key.startsWith('tools.')) tools[key.slice('tools.'.length)] = value as ToolAction;
    if (key.startsWith('tiers.')) tiers[key.slice('tiers.'.length) as keyof typeof tiers] = value as number;
  }
  const policy: Policy = {
    enabled: get('enabled'),
    strict: get('strict'),
    ceilingPct: get('ceilingPct'),
    window: get('window'),
    tools,
    recoverySkills: get('recoverySkills'),
    tiers,
    maxScanBytes: get('maxScanBytes'),
    stateDir: get('stateDir'),
    debug: get('debug'),
    monitor: get('monitor'),
    orchestrationFile: get('orchestrationFile'),
    resumptionStaleMinutes: get('resumptionStaleMinutes'),
    bridgeMaxAgeMinutes: get('bridgeMaxAgeMinutes'),
  };
  const sources = Object.fromEntries([...flat].map(([key, entry]) => [key, entry.source]));
  const warnings = applyRules(policy, sources);
  return { policy, sources, warnings };
}

/** Cross-field rules. A broken combination falls back to the defaults for that group and says so. */
function applyRules(policy: Policy, sources: Record<string, Source>): string[] {
  const warnings: string[] = [];
  const { warningPct, criticalPct, emergencyPct } = policy.tiers;
  if (!(warningPct < criticalPct && criticalPct < emergencyPct)) {
    warnings.push(
      `tiers must rise warningPct < criticalPct < emergencyPct (got ${warningPct}, ${criticalPct}, ${emergencyPct}); using the defaults ${DEFAULT_TIERS.warningPct}, ${DEFAULT_TIERS.criticalPct}, ${DEFAULT_TIERS.emergencyPct}`,
    );
    policy.tiers = { ...DEFAULT_TIERS };
    for (const key of Object.keys(DEFAULT_TIERS)) sources[`tiers.${key}`] = { layer: 'default' };
  }
  return warnings;
}

/** Problems found in one policy file, as `key: message` lines. */
export function checkPolicyRules(values: PolicyValues): string[] {
  const t = values.tiers;
  if (!t) return [];
  const merged = { ...DEFAULT_TIERS, ...t };
  return merged.warningPct < merged.criticalPct && merged.criticalPct < merged.emergencyPct
    ? []
    : [`tiers: must rise warningPct < criticalPct < emergencyPct (with defaults filled in: ${merged.warningPct}, ${merged.criticalPct}, ${merged.emergencyPct})`];
}

export function flattenValues(values: PolicyValues): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [];
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined || key === '$schema' || key === 'extends') continue;
    if ((key === 'tools' || key === 'tiers') && typeof value === 'object' && value !== null) {
      for (const [sub, subValue] of Object.entries(value)) if (subValue !== undefined) out.push([`${key}.${sub}`, subValue]);
    } else {
      out.push([key, value]);
    }
  }
  return out;
}

export type EnvReading = { values: PolicyValues; warnings: string[] };

/**
 * Read the DEV_TEAM_CONTEXT_* variables. Opt-outs are strict literals (only
 * `off` disables, only `on` turns strict on); a malformed number is ignored
 * with a warning, so the next layer (ultimately the default) applies.
 */
export function readEnvLayer(env: Readonly<Record<string, string | undefined>>): EnvReading {
  const values: PolicyValues = {};
  const warnings: string[] = [];
  const ignore = (name: string, raw: string, why: string) => warnings.push(`${name}=${JSON.stringify(raw)} ignored: ${why}`);

  const onOff = (name: string): boolean | undefined => {
    const raw = env[name];
    if (raw === undefined || raw === '') return undefined;
    if (raw === 'on') return true;
    if (raw === 'off') return false;
    ignore(name, raw, 'only "on" or "off" is recognised');
    return undefined;
  };
  const integer = (name: string, min: number, max: number): number | undefined => {
    const raw = env[name];
    if (raw === undefined || raw === '') return undefined;
    const value = /^[0-9]+$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
    if (Number.isSafeInteger(value) && value >= min && value <= max) return value;
    ignore(name, raw, `expected a whole number from ${min} to ${max}`);
    return undefined;
  };

  values.enabled = onOff(ENV.ceiling);
  values.strict = onOff(ENV.strict);
  values.monitor = onOff(ENV.monitor);
  values.resumptionStaleMinutes = integer(ENV.resumptionStaleMinutes, 1, 525_600);
  values.bridgeMaxAgeMinutes = integer(ENV.bridgeMaxAgeMinutes, 1, 525_600);
  const orchestration = env[ENV.orchestrationFile];
  if (orchestration) values.orchestrationFile = orchestration;
  values.ceilingPct = integer(ENV.ceilingPct, 1, 100);
  values.window = integer(ENV.window, 1000, 100_000_000);
  values.maxScanBytes = integer(ENV.maxScanBytes, 64 * 1024, Number.MAX_SAFE_INTEGER);
  const tiers = {
    warningPct: integer(ENV.warningPct, 1, 100),
    criticalPct: integer(ENV.criticalPct, 1, 100),
    emergencyPct: integer(ENV.emergencyPct, 1, 100),
  };
  if (Object.values(tiers).some((v) => v !== undefined)) values.tiers = tiers;

  const stateDir = env[ENV.stateDir];
  if (stateDir) values.stateDir = stateDir;

  const debug = env[ENV.debug];
  if (debug === '1' || debug === 'on' || debug?.startsWith('/')) values.debug = true;
  else if (debug === '0' || debug === 'off') values.debug = false;
  else if (debug) ignore(ENV.debug, debug, 'use 1, on, off, or an absolute file path');

  const skills = env[ENV.recoverySkills];
  if (skills !== undefined && skills !== '') {
    const list = skills.split(',').map((s) => s.trim()).filter(Boolean);
    if (list.length > 0 && list.every((s) => /^[^\s,]+$/.test(s))) values.recoverySkills = list;
    else ignore(ENV.recoverySkills, skills, 'expected a comma-separated list of skill names');
  }

  const tools = env[ENV.tools];
  if (tools !== undefined && tools !== '') {
    const parsed = parseToolActions(tools);
    if (parsed) values.tools = parsed;
    else ignore(ENV.tools, tools, `expected Tool=action pairs separated by commas, action one of ${TOOL_ACTIONS.join('|')}`);
  }

  for (const key of Object.keys(values) as Array<keyof PolicyValues>) if (values[key] === undefined) delete values[key];
  return { values, warnings };
}

function parseToolActions(raw: string): Record<string, ToolAction> | undefined {
  const out: Record<string, ToolAction> = {};
  for (const pair of raw.split(',')) {
    const match = /^\s*([A-Za-z0-9_.:-]+)\s*=\s*([a-z]+)\s*$/.exec(pair);
    if (!match || !(TOOL_ACTIONS as readonly string[]).includes(match[2]!)) return undefined;
    out[match[1]!] = match[2] as ToolAction;
  }
  return out;
}

/** How a source reads in `config show` and in guard messages. */
export function describeSource(source: Source): string {
  return source.detail ? `${source.layer} (${source.detail})` : source.layer;
}
