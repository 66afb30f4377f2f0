/**
 * Config as one pipeline: layers (preset → user → project → policy file → env)
 * → flat merge keeping each value's source → rules → a resolved policy.
 * Pure: files arrive already read and parsed.
 */
import { coerceEnvValue, FIELD_KEYS, POLICY_FIELDS, type FieldKey, type Policy, type PolicyValues } from './policy-fields.js';
import type { Layer, Source } from './policy-layer.js';
import { DEFAULT_MERGE_JSON, UNSET_POLICY_KEYS } from './policy-defaults.generated.js';
import { POLICY_RULES, type RuleProblem } from './policy-rules.js';
import { describeRelaxed, isProjectSource, tightenProjectLayers, type RelaxedKey } from './policy-tighten.js';

export { TOOL_ACTIONS, type ToolAction } from './policy-fields.js';
export { PRESET_NAMES, type Policy, type PolicyFile, type PolicyValues, type PresetName } from './policy-fields.js';
export type { Layer, LayerName, Source } from './policy-layer.js';

export type ResolvedPolicy = {
  policy: Policy;
  /** Flat key (`ceilingPct`, `tools.Skill`, `tiers.warningPct`) → where its value came from. */
  sources: Record<string, Source>;
  /** Things a user should hear about that did not stop the policy from resolving. */
  warnings: string[];
  /** Strict mode comes from the operator (environment, user policy, a policy the environment names): a project may only tighten. */
  strictFromOperator: boolean;
  /** Project keys left out because they would have loosened the operator's strict mode. */
  relaxed: RelaxedKey[];
};

/** Every field's default as flat entries (`tools.Skill`, `tiers.warningPct`), field by field. */
function defaultEntries(): Array<[string, unknown]> {
  return FIELD_KEYS.flatMap((key): Array<[string, unknown]> => {
    const value = POLICY_FIELDS[key].default;
    if (value === undefined) return [];
    if (Array.isArray(value)) return [[key, [...value]]];
    return typeof value === 'object' ? Object.entries(value).map(([sub, v]) => [`${key}.${sub}`, v]) : [[key, value]];
  });
}

/** Every field's default, shaped as a layer. */
export const DEFAULT_VALUES: PolicyValues = /* @__PURE__ */ unflatten(/* @__PURE__ */ defaultEntries());

/**
 * Merge layers given lowest first; later layers win key by key (tools.* and tiers.* merge per entry). When the
 * operator's own layers make the guard strict, a project layer may only tighten (core/policy-tighten.ts).
 */
export function resolvePolicy(given: readonly Layer[]): ResolvedPolicy {
  const operatorLayers = given.filter((layer) => !isProjectSource(layer.source));
  const operatorMerge = mergeLayers(operatorLayers);
  const operator = operatorMerge.policy;
  const { layers, relaxed } = tightenProjectLayers(given, operator);
  const strictFromOperator = operator.strict && operator.enabled;
  // With no project layer (the usual case) the operator's merge is the whole merge: not done twice on every hook run.
  const resolved = resolveMerged(layers, operatorLayers.length === given.length ? operatorMerge : mergeLayers(layers));
  return { ...resolved, strictFromOperator, relaxed, warnings: [...relaxed.map(describeRelaxed), ...resolved.warnings] };
}

function resolveMerged(
  layers: readonly Layer[],
  merged: Pick<ResolvedPolicy, 'policy' | 'sources'>,
): Omit<ResolvedPolicy, 'strictFromOperator' | 'relaxed'> {
  const problems = judgePolicy(merged.policy);
  if (problems.length === 0) return { ...merged, warnings: [] };
  // A broken combination falls back to the defaults for that key or group, whole, and says so.
  const broken = (key: string) => problems.some((problem) => key === problem.key || key.startsWith(`${problem.key}.`));
  const fallback = mergeLayers(layers, broken);
  const warnings = problems.map((problem) => {
    const defaults = defaultEntries()
      .filter(([key]) => broken(key))
      .map(([, value]) => String(value));
    return `${problem.key} ${problem.message} (got ${problem.values.join(', ')}); using the defaults ${defaults.join(', ')}`;
  });
  return { ...fallback, warnings };
}

/** Cross-field problems in one policy file, judged with the defaults filled in, as `key: message` lines. */
export function checkPolicyRules(values: PolicyValues): string[] {
  return judgePolicy(mergeLayers([{ source: { layer: 'policy' }, values }]).policy).map(
    (problem) => `${problem.key}: ${problem.message} (with defaults filled in: ${problem.values.join(', ')})`,
  );
}

function judgePolicy(policy: Policy): RuleProblem[] {
  return POLICY_RULES.flatMap((rule) => rule(policy));
}

/** Defaults, then each layer in turn, flat key by flat key; `skip` leaves keys at their default. */
function mergeLayers(layers: readonly Layer[], skip: (key: string) => boolean = keepAll): Pick<ResolvedPolicy, 'policy' | 'sources'> {
  const { policy, sources } = defaultMerge();
  for (const layer of layers) {
    for (const [key, value] of flattenValues(layer.values)) {
      if (skip(key)) continue;
      setFlat(policy, key, value);
      sources[key] = layer.source;
    }
  }
  return { policy: policy as Policy, sources };
}

const keepAll = () => false;

type DefaultMerge = { policy: Record<string, unknown>; sources: Record<string, Source> };

/**
 * The defaults as a merge starts from them, fresh objects for every merge: parsed from the JSON text generated from the
 * field table (policy-defaults.generated.ts). Built in JavaScript, key by key, the same objects cost a hook ~0.6 M
 * instructions (each property a new hidden class on first use, in interpreted code); the native parser ~0.15 M.
 */
function defaultMerge(): DefaultMerge {
  const merge = JSON.parse(DEFAULT_MERGE_JSON) as DefaultMerge;
  for (const key of UNSET_POLICY_KEYS) merge.policy[key] = undefined;
  return merge;
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

/** The inverse of flattenValues: `tools.Skill` and `tiers.warningPct` nest one level (a tool name may hold dots). */
function unflatten(entries: Iterable<[string, unknown]>): PolicyValues {
  const out: Record<string, unknown> = {};
  for (const [key, value] of entries) setFlat(out, key, value);
  return out as PolicyValues;
}

/** Set flat `key` in nested `values`: `tiers.warningPct` in the `tiers` group (made when missing), others at the top. */
function setFlat(values: Record<string, unknown>, key: string, value: unknown): void {
  const dot = key.indexOf('.');
  if (dot < 0) {
    values[key] = value;
    return;
  }
  const group = key.slice(0, dot);
  values[group] ??= {};
  (values[group] as Record<string, unknown>)[key.slice(dot + 1)] = value;
}

export type EnvReading = { values: PolicyValues; warnings: string[] };

/**
 * Read the DEV_TEAM_CONTEXT_* variables, each coerced by its field's kind and
 * bounds. A malformed value is left out with a warning, so the next layer
 * (ultimately the default) applies.
 */
export function readEnvLayer(env: Readonly<Record<string, string | undefined>>): EnvReading {
  const entries: Array<[FieldKey, unknown]> = [];
  const warnings: string[] = [];
  for (const key of FIELD_KEYS) {
    const field = POLICY_FIELDS[key];
    const raw = env[field.env];
    if (raw === undefined || raw === '') continue;
    const coerced = coerceEnvValue(field, raw);
    if ('value' in coerced) entries.push([key, coerced.value]);
    else warnings.push(`${field.env}=${JSON.stringify(raw)} ignored: ${coerced.why}`);
  }
  return { values: unflatten(entries), warnings };
}

/** How a source reads in `config show` and in guard messages. */
export function describeSource(source: Source): string {
  return source.detail ? `${source.layer} (${source.detail})` : source.layer;
}
