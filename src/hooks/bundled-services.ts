/**
 * The hook bundles' services (see linked-services.ts): the policy parser (zod, policy-parse.cjs, its answer kept per text)
 * sits beside the running bundle and loads on first use only; the bounded YAML parser is linked in and runs the YAML
 * parser's bundle (yaml-parse.cjs) in a worker.
 */
import { join } from '../io/join-path.js';
import type * as PolicyParse from '../io/policy-parse.js';
import { parseYamlWithin } from '../io/yaml-bounded.js';
import { YAML_BUDGET_MS } from '../runtime/run.js';
import { CODE_CACHE_DIR } from './launch.js';
import { keptValidation } from '../io/policy-cache.js';
import type { HookServices } from './linked-services.js';
import { enableCompileCache } from './node-compile-cache.js';

/**
 * `stateDir`: the private state directory the launcher found (undefined: no code cache). `compileCache` turns on
 * Node's own compile cache there (node-compile-cache.ts), only when a policy file is first parsed: policy-parse.cjs
 * is the one bundle a hook require()s through Node's loader, and turning the cache on costs every run that needs
 * none ~1 M instructions on Node 24 (require('node:module'), a mkdir; measured).
 */
export function bundledServices(
  dir: string,
  stateDir: string | undefined,
  compileCache: (stateDir: string) => unknown = enableCompileCache,
): HookServices {
  let compileCacheAsked = false;
  return {
    // Validated once per text (io/policy-cache.ts): zod loads only when a policy file is new or changed.
    parsePolicy: (text, path) => {
      const validator = join(dir, 'policy-parse.cjs');
      return keptValidation(stateDir && join(stateDir, CODE_CACHE_DIR), validator, text, path, () => {
        if (stateDir && !compileCacheAsked) {
          compileCacheAsked = true;
          compileCache(stateDir);
        }
        return (require(validator) as typeof PolicyParse).parsePolicyText(text, path);
      });
    },
    parseYaml: (text) => parseYamlWithin(join(dir, 'yaml-parse.cjs'), text, YAML_BUDGET_MS),
  };
}
