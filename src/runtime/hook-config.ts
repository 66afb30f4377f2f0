/** The configuration one hook run resolves, once, from its host. */
import type { Policy } from '../core/policy.js';
import { describeRepositoryPath } from '../core/settings-env.js';
import { loadConfig, type LoadedConfig } from '../io/config.js';
import { createDebug, type Debug } from '../io/debug.js';
import { resolveStateDir } from '../io/state.js';
import type { HookHost } from './host.js';

/** What a hook run resolved from its host: the configuration in force, where state lives, the debug channel. */
export type HookConfig = {
  loaded: LoadedConfig;
  policy: Policy;
  /** The private state directory in force (io/state.ts, resolveStateDir). */
  stateDir: string;
  debug: Debug;
  projectDir: string;
  env: Readonly<Record<string, string | undefined>>;
  timeUp?: (() => boolean) | undefined;
};

/** Resolve config for a hook; broken policy files are skipped (and named in the debug output). */
export function loadHookConfig(host: HookHost, inputCwd: string | undefined): HookConfig {
  const projectDir = host.env.CLAUDE_PROJECT_DIR || inputCwd || host.cwd;
  const config = loadConfig({ env: host.env, projectDir, home: host.home }, host.parsePolicy);
  const debug = createDebug(host.env, config.policy.debug, host.writeStderr);
  const ignored = (host.ignoredPaths ?? []).map(describeRepositoryPath);
  for (const line of [...ignored, ...config.problems, ...config.warnings]) debug(`config: ${line}`);
  const stateDir = resolveStateDir({ policy: config.policy, env: host.env, home: host.home });
  return { loaded: config, policy: config.policy, stateDir, debug, projectDir, env: host.env, timeUp: host.timeUp };
}
