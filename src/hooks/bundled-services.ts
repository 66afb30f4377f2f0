/**
 * The hook bundles' services (see services.ts): the policy parser (zod, policy-parse.cjs) and the guard's
 * voice (guard-voice.cjs) sit beside the running bundle and load on first use only; the bounded YAML
 * parser is linked in and runs the YAML parser's bundle (yaml-parse.cjs) in a worker.
 */
import { join } from 'node:path';
import type * as PolicyParse from '../io/policy-parse.js';
import { parseYamlWithin } from '../io/yaml-bounded.js';
import { YAML_BUDGET_MS } from '../runtime/run.js';
import type * as GuardVoice from './guard-voice.js';
import type { HookServices } from './services.js';

export function bundledServices(dir: string): HookServices {
  return {
    parsePolicy: (text, path) => (require(join(dir, 'policy-parse.cjs')) as typeof PolicyParse).parsePolicyText(text, path),
    parseYaml: (text) => parseYamlWithin(join(dir, 'yaml-parse.cjs'), text, YAML_BUDGET_MS),
    voice: () => (require(join(dir, 'guard-voice.cjs')) as typeof GuardVoice).GUARD_VOICE,
  };
}
