/** Config rules: each names what is wrong and changes nothing; the pipeline (policy.ts, io/config.ts) decides what follows. */
import { ENV } from './env-names.js';
import type { Policy, PolicyValues } from './policy-fields.js';
import type { LayerName } from './policy-layer.js';

/** `key` is the field or group (`tiers`) at fault; `values` are the ones that broke the rule. */
export type RuleProblem = { key: string; message: string; values: readonly unknown[] };

export type PolicyRule = (policy: Policy) => RuleProblem[];

/** Tiers are bands: a WARNING above CRITICAL would name the wrong band. */
const tiersRise: PolicyRule = ({ tiers: { warningPct, criticalPct, emergencyPct } }) =>
  warningPct < criticalPct && criticalPct < emergencyPct
    ? []
    : [{ key: 'tiers', message: 'must rise warningPct < criticalPct < emergencyPct', values: [warningPct, criticalPct, emergencyPct] }];

export const POLICY_RULES: readonly PolicyRule[] = [tiersRise];

/** What one layer may set, by where it comes from: the loader leaves such a key out of that layer, `config set` refuses it. */
export type LayerRule = (layer: LayerName, values: PolicyValues) => RuleProblem[];

/** A repository must not choose where we create, chmod and write private files (DESIGN.md, "Trust boundaries"). */
const stateDirFromUserOrEnv: LayerRule = (layer, values) =>
  values.stateDir === undefined || layer === 'user' || layer === 'env'
    ? []
    : [
        {
          key: 'stateDir',
          message: `only ${ENV.stateDir} or ~/.claude/context-ceiling.json may set the state directory`,
          values: [values.stateDir],
        },
      ];

/**
 * Nor which file we read into checkpoints, the summariser's instructions and the model's context: a project
 * policy's orchestrationFile is ignored (the default, ORCHESTRATION.yaml in the project, still applies).
 */
const orchestrationFileFromOperator: LayerRule = (layer, values) =>
  values.orchestrationFile === undefined || layer !== 'project'
    ? []
    : [
        {
          key: 'orchestrationFile',
          message: `only ${ENV.orchestrationFile}, ~/.claude/context-ceiling.json or the policy ${ENV.policy} names may set the orchestration file`,
          values: [values.orchestrationFile],
        },
      ];

export const LAYER_RULES: readonly LayerRule[] = [stateDirFromUserOrEnv, orchestrationFileFromOperator];

export function judgeLayer(layer: LayerName, values: PolicyValues): RuleProblem[] {
  return LAYER_RULES.flatMap((rule) => rule(layer, values));
}
