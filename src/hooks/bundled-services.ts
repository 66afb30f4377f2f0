/**
 * The hook bundles' services (see services.ts): the policy parser (zod, policy-parse.cjs), the events
 * other than the guard with the guard's voice and the bounded YAML parser (hook-events.cjs), and the
 * YAML parser's worker (yaml-parse.cjs) sit beside the running bundle and load on first use only.
 */
import { join } from 'node:path';
import type * as PolicyParse from '../io/policy-parse.js';
import { YAML_BUDGET_MS } from '../runtime/run.js';
import type * as Handlers from './handlers.js';
import type { HookServices } from './services.js';

export function bundledServices(dir: string): HookServices {
  const events = () => require(join(dir, 'hook-events.cjs')) as typeof Handlers;
  return {
    parsePolicy: (text, path) => (require(join(dir, 'policy-parse.cjs')) as typeof PolicyParse).parsePolicyText(text, path),
    parseYaml: (text) => events().parseYamlWithin(join(dir, 'yaml-parse.cjs'), text, YAML_BUDGET_MS),
    voice: () => events().GUARD_VOICE,
  };
}
