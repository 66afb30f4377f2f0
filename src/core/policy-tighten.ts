/**
 * A repository cannot loosen what the operator set (DESIGN.md, "Trust boundaries"): when strict mode comes
 * from the operator (the environment, the user's policy file, a policy file the environment names), a
 * project layer (the project's policy file and a preset it extends) may only tighten. A relaxing key is left
 * out, with a warning that names it.
 */
import type { PolicyValues, ToolAction } from './policy-fields.js';
import type { Layer, Source } from './policy-layer.js';

export type RelaxedKey = { key: string; value: unknown; by: string };

/** How strongly an action gates, with strict mode on: `auto` blocks. */
const STRENGTH: Record<ToolAction, number> = { off: 0, warn: 1, auto: 2, block: 2 };

export function isProjectSource(source: Source): boolean {
  return source.layer === 'project' || source.byProject === true;
}

/**
 * The layers with every project key that would loosen the operator's strict posture left out, and those keys.
 * `operator` is what the operator's layers resolve to on their own (defaults included).
 */
export function tightenProjectLayers(
  layers: readonly Layer[],
  operator: { strict: boolean; enabled: boolean; ceilingPct: number; tools: Record<string, ToolAction> },
): { layers: Layer[]; relaxed: RelaxedKey[] } {
  if (!operator.strict) return { layers: [...layers], relaxed: [] };
  const relaxed: RelaxedKey[] = [];
  const out = layers.map((layer) => {
    if (!isProjectSource(layer.source)) return layer;
    const by = layer.source.detail ?? layer.source.layer;
    const values: PolicyValues = { ...layer.values };
    const drop = (key: keyof PolicyValues, value: unknown) => {
      relaxed.push({ key, value, by });
      delete values[key];
    };
    if (values.enabled === false) drop('enabled', false);
    if (values.strict === false) drop('strict', false);
    if (values.ceilingPct !== undefined && values.ceilingPct > operator.ceilingPct) drop('ceilingPct', values.ceilingPct);
    if (values.recoverySkills !== undefined) drop('recoverySkills', values.recoverySkills);
    if (values.tools) {
      const tools: Record<string, ToolAction> = {};
      for (const [tool, action] of Object.entries(values.tools)) {
        const current = operator.tools[tool] ?? 'off';
        if (STRENGTH[action] < STRENGTH[current]) relaxed.push({ key: `tools.${tool}`, value: action, by });
        else tools[tool] = action;
      }
      values.tools = tools;
    }
    return { ...layer, values };
  });
  return { layers: out, relaxed };
}

/** One line per key left out, for the warnings `status`, `doctor` and the guard's notice show. */
export function describeRelaxed(r: RelaxedKey): string {
  return `${r.by}: ${r.key} ${JSON.stringify(r.value)} ignored: a project policy cannot loosen strict mode the operator set`;
}
