/** Cross-field rules: each reads a merged policy and names what is wrong; resolvePolicy decides what follows. */
import type { Policy } from './policy.js';

/** `key` is the field or group (`tiers`) at fault; `values` are the ones that broke the rule. */
export type RuleProblem = { key: string; message: string; values: readonly unknown[] };

export type PolicyRule = (policy: Policy) => RuleProblem[];

/** Tiers are bands: a WARNING above CRITICAL would name the wrong band. */
const tiersRise: PolicyRule = ({ tiers: { warningPct, criticalPct, emergencyPct } }) =>
  warningPct < criticalPct && criticalPct < emergencyPct
    ? []
    : [{ key: 'tiers', message: 'must rise warningPct < criticalPct < emergencyPct', values: [warningPct, criticalPct, emergencyPct] }];

export const POLICY_RULES: readonly PolicyRule[] = [tiersRise];
