/** The host of one hook run: the process (or the SDK, or a test) around the handler. */
import type { PolicyParser } from '../io/config.js';
import type { RepositoryPath } from '../core/settings-env.js';
import type { YamlParser } from '../io/orchestration.js';

/**
 * What the process running a hook gives it: environment, folders, clock, a stderr sink, and the
 * services that stay out of the hook bundle until used. Made once per run (run.ts, hooks/linked-services.ts).
 */
export type HookHost = {
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  home: string;
  /** The folder holding the running bundle (dist/ in the plugin, the runtime copy after install). */
  runtimeDir?: string | undefined;
  /** Sink for debug lines when debugging goes to stderr. */
  writeStderr: (text: string) => void;
  /** Heavy parsers arrive as services so the hook bundle loads them only when needed. */
  parsePolicy: PolicyParser;
  parseYaml: YamlParser;
  now: () => Date;
  /** Claude Code's own numbers for the main session, when the Agent SDK gave them (query.getContextUsage()). */
  sdk?: SdkContextUsage | undefined;
  /** True once the hook has spent its wall-clock budget (run.ts); loops that could run long stop then. */
  timeUp?: (() => boolean) | undefined;
  /** Path variables left out of `env` because a repository's settings file set them (run.ts, withTrustedEnv). */
  ignoredPaths?: readonly RepositoryPath[] | undefined;
};

/** `maxTokens` and `totalTokens` of the SDK's context usage: the window, and the prompt side of the newest turn. */
export type SdkContextUsage = { windowTokens: number; occupancyTokens: number };
