/** What every hook starts from: its environment, and the settings resolved from it. */
import { resolveWindow, type ResolvedWindow } from '../core/window.js';
import type { Policy } from '../core/policy.js';
import { loadConfig, type LoadedConfig, type PolicyParser } from '../io/config.js';
import { createDebug, type Debug } from '../io/debug.js';

export type HookContext = {
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  home: string;
  /** Sink for debug lines when debugging goes to stderr. */
  writeStderr: (text: string) => void;
  parsePolicy: PolicyParser;
};

export type Settings = { config: LoadedConfig; policy: Policy; window: ResolvedWindow; debug: Debug };

/** Resolve config for a hook; broken policy files are skipped (and named in the debug output). */
export function loadSettings(ctx: HookContext, inputCwd: string | undefined): Settings {
  const projectDir = ctx.env.CLAUDE_PROJECT_DIR || inputCwd || ctx.cwd;
  const config = loadConfig({ env: ctx.env, projectDir, home: ctx.home }, ctx.parsePolicy);
  const debug = createDebug(ctx.env, config.policy.debug, ctx.writeStderr);
  for (const line of [...config.problems, ...config.warnings]) debug(`config: ${line}`);
  return { config, policy: config.policy, window: windowFromConfig(config), debug };
}

/** env → policy → default (the statusline bridge joins between policy and default). */
export function windowFromConfig(config: LoadedConfig): ResolvedWindow {
  const source = config.sources.window;
  const configured =
    config.policy.window !== undefined && source
      ? { tokens: config.policy.window, source: source.layer === 'env' ? ('env' as const) : ('policy' as const), detail: source.layer === 'env' ? undefined : source.detail }
      : undefined;
  return resolveWindow({ configured });
}
