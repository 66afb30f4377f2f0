/** Runs one hook event end to end and never throws: any failure is exit 0 with no output. */
import { dirname, resolve } from 'node:path';
import { createEnvDebug, describeError } from '../io/debug.js';
import { homeDirectory } from '../io/home.js';
import { loadConfig } from '../io/config.js';
import { hookEnvWithoutRepositoryPaths } from '../io/settings-env.js';
import { failureLine, packageVersion } from '../io/last-error.js';
import { resolveStateDir, writeLastError } from '../io/state.js';
import { ENV } from '../core/env-names.js';
import { readStdin, silent, writeAll, type HookOutcome } from './hook-io.js';
import { SKILL_COMMANDS, type EntryName } from '../core/hook-table.js';
import type { HookHost } from './host.js';

export type HookHandler = (stdin: string | undefined, host: HookHost) => HookOutcome;

/**
 * Claude Code kills our hooks at 10 s (30 s for PreCompact): every hook gives
 * up reading well before, counting from the process start, and fails open.
 */
export const HOOK_BUDGET_MS = 4_000;

/** Of that budget, the most ORCHESTRATION.yaml parsing may take. */
export const YAML_BUDGET_MS = 2_000;

/** The budget's clock, started when the hook's context is made (in hook.cjs, a few ms after the process starts). */
export function hookTimeUp(startedMs: number, nowMs: () => number = Date.now): () => boolean {
  // Looked at only once a transcript takes more than one read: compiled with the bundle (tsup.config.ts).
  return function timeUp() {
    'eager';
    return nowMs() - startedMs > HOOK_BUDGET_MS;
  };
}

/** Where a command's input comes from: hooks read stdin; skill commands take none. */
export function inputFor(name: EntryName, read: () => string | undefined = readStdin): () => string | undefined {
  return (SKILL_COMMANDS as readonly string[]).includes(name) ? () => undefined : read;
}

/**
 * Run a handler (looked up lazily, so a failing lookup also fails open). Every run ends with one
 * `verdict <event>: <reason>` line on the debug channel, silence and failure included.
 */
export function runHookEvent(
  event: string,
  lookup: () => HookHandler | undefined,
  host: HookHost,
  stdin: () => string | undefined = readStdin,
): HookOutcome {
  let debug = createEnvDebug({}, host.writeStderr);
  let outcome: HookOutcome;
  let trusted = host;
  try {
    trusted = withTrustedEnv(host);
    debug = createEnvDebug(trusted.env, trusted.writeStderr);
    const handler = lookup();
    outcome = handler ? handler(stdin(), trusted) : silent('no-handler');
  } catch (error) {
    debug(`unexpected ${describeError(error)}`);
    outcome = failedOpen(event, describeError(error), trusted);
  }
  debug(`verdict ${event}: ${outcome.reason}`);
  return outcome;
}

/**
 * An unexpected failure (not one of the expected fail-open cases, which a handler answers itself): the hook
 * still lets everything through, but says so in one stderr line and keeps a "last error" record in the
 * state directory, which `status` and `doctor` show (a half-updated runtime copy must not look like a quiet
 * session). The state directory here is the environment's or the default: the policy may be what failed.
 * The status line and the SDK guard fail the same way (`event`: io/last-error.ts STATUSLINE_EVENT, SDK_GUARD_EVENT).
 */
export function failedOpen(event: string, message: string, host: HookHost): HookOutcome {
  const line = failureLine(event, message);
  try {
    // Only once the repository's path variables are out of the environment (withTrustedEnv ran).
    if (host.ignoredPaths === undefined) throw new Error('environment not checked');
    writeLastError(failureStateDir(host), { at: host.now().toISOString(), event, error: line.error, version: packageVersion() });
  } catch {
    // nowhere private to keep it: the stderr line still says it
  }
  return { exitCode: 0, stdout: '', stderr: line.stderr, reason: 'failed-open unexpected-error' };
}

/**
 * Where the hooks keep state, as the configuration says when it can still be read (status and doctor look
 * there); when reading it is what failed, the environment's or the default.
 */
function failureStateDir(host: HookHost): string {
  const { env, home } = host;
  try {
    const projectDir = env.CLAUDE_PROJECT_DIR || host.cwd;
    return resolveStateDir({ policy: loadConfig({ env, projectDir, home }, host.parsePolicy).policy, env, home });
  } catch {
    return resolveStateDir({ policy: { stateDir: env[ENV.stateDir] || undefined }, env, home });
  }
}

/**
 * The host with path variables a repository's settings supplied taken out of its environment (Claude Code
 * merges a project's settings env into every hook's): the debug log, state directory, policy and
 * orchestration file are named only by the user (DESIGN.md, "Trust boundaries"). The project is Claude
 * Code's (CLAUDE_PROJECT_DIR), whose settings it applied.
 */
export function withTrustedEnv(host: HookHost): HookHost {
  if (host.ignoredPaths !== undefined) return host; // already looked
  const { env, ignored } = hookEnvWithoutRepositoryPaths(host.env, host.env.CLAUDE_PROJECT_DIR || host.cwd, host.home);
  return { ...host, env, ignoredPaths: ignored };
}

/** The host of a hook run in this process: its environment, folders and clock, with the parsers it was given. */
export function processHookHost(services: Pick<HookHost, 'parsePolicy' | 'parseYaml'>): HookHost {
  return {
    parsePolicy: services.parsePolicy,
    parseYaml: services.parseYaml,
    now: () => new Date(),
    // From now, not from process start: `context-ceiling hook` may also run inside a long-lived process (tests, the SDK).
    timeUp: hookTimeUp(Date.now()),
    env: process.env,
    cwd: process.cwd(),
    home: safeHome(),
    runtimeDir: runtimeDirOf(process.argv[1]),
    writeStderr: (text) => writeAll(2, text),
  };
}

/** Write the outcome and set the exit code; the only place a hook touches stdout/stderr. */
export function emitOutcome(outcome: HookOutcome): void {
  if (outcome.stdout) writeAll(1, outcome.stdout);
  if (outcome.stderr) writeAll(2, outcome.stderr);
  process.exitCode = outcome.exitCode;
}

/** The folder of the running entry (`node <dir>/hook.cjs`): how a hook knows it runs from the plugin. */
function runtimeDirOf(entry: string | undefined): string | undefined {
  return entry ? dirname(resolve(entry)) : undefined;
}

function safeHome(): string {
  try {
    return homeDirectory();
  } catch {
    return process.env.HOME ?? '/';
  }
}
