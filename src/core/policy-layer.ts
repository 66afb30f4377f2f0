/** Where policy values come from: each layer of the pipeline (policy.ts) and the source a value keeps. */
import type { PolicyValues } from './policy-fields.js';

export type LayerName = 'default' | 'preset' | 'user' | 'project' | 'policy' | 'env';

/** `byProject`: a preset a project policy file extends speaks for the repository, not the operator. */
export type Source = { layer: LayerName; detail?: string | undefined; byProject?: true | undefined };

export type Layer = { source: Source; values: PolicyValues };

/** Where an operator states things: their environment, their own policy file, or a policy file they name. */
const OPERATOR_LAYERS: ReadonlySet<string> = new Set(['env', 'user', 'policy']);

/**
 * policy.recoverySkills when the operator set it; otherwise none. A message names a recovery skill only when it is
 * ours or one the user configured, never a repository's skill under a recovery name from the default list.
 */
export function operatorRecoverySkills(loaded: {
  policy: { recoverySkills: readonly string[] };
  sources: Readonly<Record<string, Source>>;
}): readonly string[] {
  const source = loaded.sources.recoverySkills;
  return source && OPERATOR_LAYERS.has(source.layer) && !source.byProject ? loaded.policy.recoverySkills : [];
}
