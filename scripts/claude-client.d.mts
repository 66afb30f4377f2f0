/** Types of scripts/claude-client.mjs: the Claude Code client and Agent SDK the end-to-end tests run, installed on demand. */

export type ClientOptions = {
  /** Exact version (default: package.json "config", or the environment's override). */
  version?: string;
  /** Default: ${XDG_CACHE_HOME:-~/.cache}/context-ceiling. */
  cacheDir?: string;
  /** One line per install step (default: stderr). */
  log?: (line: string) => void;
};

/** package.json "config" claudeCodeVersion / agentSdkVersion, unless CLAUDE_CODE_VERSION / AGENT_SDK_VERSION name others. */
export function clientVersions(env?: Record<string, string | undefined>): { claudeCode: string; agentSdk: string };

/** ${XDG_CACHE_HOME:-~/.cache}/context-ceiling */
export function clientCacheDir(env?: Record<string, string | undefined>): string;

/** Absolute path of the `claude` binary of that version, installed into the cache first when missing; checked with `claude --version`. Synchronous. */
export function claudeCodeBinary(options?: ClientOptions): string;

/** Absolute path of that Agent SDK version's sdk.mjs, installed first when missing (without its own client: pass `pathToClaudeCodeExecutable`). Synchronous. */
export function agentSdkEntry(options?: ClientOptions): string;
