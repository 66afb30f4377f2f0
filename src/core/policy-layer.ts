/** Where policy values come from: each layer of the pipeline (policy.ts) and the source a value keeps. */
import type { PolicyValues } from './policy-fields.js';

export type LayerName = 'default' | 'preset' | 'user' | 'project' | 'policy' | 'env';

/** `byProject`: a preset a project policy file extends speaks for the repository, not the operator. */
export type Source = { layer: LayerName; detail?: string | undefined; byProject?: true | undefined };

export type Layer = { source: Source; values: PolicyValues };
