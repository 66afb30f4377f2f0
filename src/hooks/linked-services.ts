/**
 * The services a hook run gets from its host beyond the handler: the policy parser and the bounded YAML
 * parser. Built in two places only: here, linked in (the CLI, the SDK), and in
 * bundled-services.ts, loaded from the bundles beside the running one (the plugin's hook.cjs, statusline.cjs).
 */
import { join } from '../io/join-path.js';
import { parsePolicyText } from '../io/policy-parse.js';
import { parseYamlWithin } from '../io/yaml-bounded.js';
import type { HookHost } from '../runtime/host.js';
import { YAML_BUDGET_MS } from '../runtime/run.js';

export type HookServices = Pick<HookHost, 'parsePolicy' | 'parseYaml'>;

/**
 * Everything linked into the running code. YAML is parsed as in the hook bundle, in a worker with a
 * deadline, by the yaml-parse.cjs in `bundleDir`; without one (the SDK, whose guard reads no YAML) it is refused.
 */
export function linkedServices(bundleDir?: string | undefined): HookServices {
  return {
    parsePolicy: parsePolicyText,
    parseYaml: bundleDir
      ? (text) => parseYamlWithin(join(bundleDir, 'yaml-parse.cjs'), text, YAML_BUDGET_MS)
      : () => ({ ok: false, error: 'no YAML parser here: the guard reads no YAML' }),
  };
}
