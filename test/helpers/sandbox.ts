/** A temp world for black-box runs: HOME, TMPDIR, a project, a transcript folder; removed afterwards. */
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve, sep } from 'node:path';
import { execa, type Result } from 'execa';
import { NODE_AS_FAST_AS_BUN } from '../../src/cli/replay-runtime.js';
import { afterEach, beforeEach, expect, TestRunner } from 'vitest';

export const ROOT = resolve(import.meta.dirname, '..', '..');
export const HOOK_BIN = join(ROOT, 'plugin', 'dist', 'hook.cjs');
export const CLI_BIN = join(ROOT, 'plugin', 'dist', 'cli.cjs');
/** Real 2.1.328 recordings, where a test needs one real transcript (951,005 tokens at its end); every version: real-clients.ts. */
export const FIXTURES = join(ROOT, 'test', 'fixtures', 'claude-code-2.1.328');

export type Sandbox = {
  root: string;
  home: string;
  tmp: string;
  project: string;
  /** Write a file under the sandbox root (parents created); returns its absolute path. */
  write(relative: string, content: string): string;
  /** The minimal, explicit environment every run starts from. */
  env(extra?: Record<string, string>): Record<string, string>;
  /**
   * Hook runs obey file permissions even as root: they run without CAP_DAC_OVERRIDE and
   * CAP_DAC_READ_SEARCH (`setpriv --bounding-set`), so a mode-000 file is unreadable to them,
   * as it is to a user. Off by default; a test that needs it sets it.
   */
  obeyPermissions?: boolean;
  cleanup(): void;
};

export function makeSandbox(): Sandbox {
  const root = mkdtempSync(join(tmpdir(), 'cc-test-'));
  const home = join(root, 'home');
  const tmp = join(root, 'tmp');
  const project = join(root, 'project');
  for (const dir of [home, tmp, project]) mkdirSync(dir, { recursive: true });
  return {
    root,
    home,
    tmp,
    project,
    write(relative, content) {
      const path = join(root, relative);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, content);
      return path;
    },
    env(extra = {}) {
      return { PATH: withoutNpmBins(process.env.PATH ?? '/usr/bin:/bin'), HOME: home, TMPDIR: tmp, NO_COLOR: '1', ...extra };
    },
    cleanup() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** What a run printed; for a hook run, also the reason its verdict states on the debug channel. */
export type HookRun = { exitCode: number; stdout: string; stderr: string; reason?: string | undefined };

let debugFiles = 0;

/**
 * Run the built hook entry as Claude Code would: JSON on stdin, explicit env, cwd = project. The debug
 * channel goes to a file of the sandbox (unless the test sets it), so `reason` is the verdict's stated
 * reason while stdout and stderr stay what Claude Code would get.
 */
export async function runHook(
  sandbox: Sandbox,
  input: unknown,
  env: Record<string, string> = {},
  entry: 'hook' | 'cli' = 'hook',
  event = 'pre-tool-use',
): Promise<HookRun> {
  expectHookTag();
  const [command, args] = withoutRootOverride(
    sandbox,
    standingIn(event)
      ? ['/bin/sh', [STANDIN, event]]
      : [hookRuntime(event), entry === 'hook' ? [HOOK_BIN, event] : [CLI_BIN, 'hook', event]],
  );
  debugFiles += 1;
  const debugFile = env.DEV_TEAM_CONTEXT_DEBUG === undefined ? join(sandbox.root, `debug-${process.pid}-${debugFiles}.log`) : undefined;
  const result: Result = await execa(command, args, {
    input: typeof input === 'string' ? input : JSON.stringify(input),
    env: sandbox.env(debugFile ? { DEV_TEAM_CONTEXT_DEBUG: debugFile, ...env } : env),
    extendEnv: false,
    cwd: sandbox.project,
    reject: false,
    stripFinalNewline: false,
  });
  const stderr = String(result.stderr);
  const sink = debugFile ?? (env.DEV_TEAM_CONTEXT_DEBUG?.startsWith('/') ? env.DEV_TEAM_CONTEXT_DEBUG : undefined);
  const debug = sink ? (existsSync(sink) ? readFileSync(sink, 'utf8') : '') : stderr;
  const reason = verdictReason(debug, event);
  // Every run that reaches a hook states its verdict: a run that states none is a hook that never ran (or died).
  if (sink || /^(1|on)$/.test(env.DEV_TEAM_CONTEXT_DEBUG ?? '')) expect(reason, `${event} stated no verdict (a dead hook?)`).toBeDefined();
  return { exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr, reason };
}

/**
 * The tag of every test that runs a hook (vitest.config.ts): the suites' runs again under Bun and against the
 * stand-in (hook-suites.ts) run only the tests that carry it. A test that runs a hook without it would drop out of
 * both unseen, so running one fails the test (in a test's body; a hook run by a beforeAll has no test to tag).
 */
export const HOOK_TAG = 'hook';

function expectHookTag(): void {
  const test = TestRunner.getCurrentTest();
  if (test && !test.tags?.includes(HOOK_TAG)) {
    throw new Error(
      `"${test.name}" runs a hook but carries no "${HOOK_TAG}" tag: tag the test, its describe, or its file (// @module-tag ${HOOK_TAG})`,
    );
  }
}

/** Root ignores permission bits; without its two DAC capabilities it obeys them like any user. */
function withoutRootOverride(sandbox: Sandbox, [command, args]: [string, string[]]): [string, string[]] {
  if (!sandbox.obeyPermissions || process.getuid?.() !== 0) return [command, args];
  return ['setpriv', ['--bounding-set', '-dac_override,-dac_read_search', command, ...args]];
}

/**
 * The silent stand-in (test/helpers/standin.sh: reads stdin, exits 0, says nothing) replaces the hooks
 * named in CC_STANDIN (`all`, or event names): what a crashed hook looks like from outside, since every
 * hook fails open. test/blackbox/standin.test.ts runs the hook suites so and counts what still passes;
 * each replaced run is logged (CC_STANDIN_LOG) with the test that made it.
 */
const STANDIN = join(ROOT, 'test', 'helpers', 'standin.sh');

function standingIn(event: string): boolean {
  const wanted = process.env.CC_STANDIN?.split(',');
  if (!wanted || !(wanted.includes('all') || wanted.includes(event))) return false;
  logHookRun(process.env.CC_STANDIN_LOG, event);
  return true;
}

/** One line per hook run, `event\ttest file\ttest name`, for a suite run that counts them (hook-suites.ts, testsPerHook). */
function logHookRun(log: string | undefined, event: string): void {
  if (!log) return;
  const state = expect.getState();
  appendFileSync(log, `${event}\t${state.testPath}\t${state.currentTestName}\n`);
}

/**
 * The runtime a hook runs under: Node (this process's), or Bun when CC_HOOK_RUNTIME=bun, as the hook command
 * runs it where Bun is installed. test/blackbox/bun-runtime.test.ts runs the hook suites so, logging each
 * run (CC_HOOK_RUNTIME_LOG) with the test that made it.
 */
export const BUN_BIN = join(ROOT, 'node_modules', '.bin', 'bun');

function hookRuntime(event: string): string {
  if (process.env.CC_HOOK_RUNTIME !== 'bun') return process.execPath;
  logHookRun(process.env.CC_HOOK_RUNTIME_LOG, event);
  return BUN_BIN;
}

/** Exit 0, nothing printed, and the verdict's stated reason is `reason` (a dead hook states none). */
export const expectSilent = (run: HookRun, reason: string) => expect(run).toEqual({ exitCode: 0, stdout: '', stderr: '', reason });

/** The reason of the last `verdict <event>:` line on the debug channel (undefined: the hook stated none, e.g. it never ran). */
export function verdictReason(debug: string, event: string): string | undefined {
  const lines = debug.split('\n').filter((line) => line.includes(`context-ceiling debug: verdict ${event}: `));
  return lines.at(-1)?.split(`verdict ${event}: `)[1];
}

/**
 * `path` without npm's node_modules/.bin folders. `npm test` puts this package's on the PATH, the pinned Bun among
 * it, which no user's machine has: what runs the hooks (and replay) there would be Bun in every test. So tests meet
 * a machine without Bun, as CI is, unless they put one on the PATH themselves (the Bun runs, the stand-ins).
 */
export function withoutNpmBins(path: string): string {
  const npmBin = `${sep}node_modules${sep}.bin`;
  return path
    .split(delimiter)
    .filter((dir) => dir !== '' && !dir.replace(/[\\/]+$/, '').endsWith(npmBin))
    .join(delimiter);
}

/** Run the CLI with args; same explicit environment. */
export async function runCli(sandbox: Sandbox, args: string[], env: Record<string, string> = {}, input?: string): Promise<HookRun> {
  const result: Result = await execa(process.execPath, [CLI_BIN, ...args], {
    env: sandbox.env(env),
    extendEnv: false,
    cwd: sandbox.project,
    reject: false,
    stripFinalNewline: false,
    ...(input === undefined ? { stdin: 'ignore' as const } : { input }),
  });
  return { exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) };
}

/** runCli for a run that must succeed: exit 0 and nothing on stderr (a warning there is a failure to notice). */
export async function runCliOk(sandbox: Sandbox, args: string[], env: Record<string, string> = {}, input?: string): Promise<HookRun> {
  const run = await runCli(sandbox, args, env, input);
  expect(run.exitCode, run.stderr).toBe(0);
  expect(run.stderr, `stderr of ${args.join(' ')}`).toBe('');
  return run;
}

/**
 * A fresh sandbox for every test of the calling file, and the CLI run in its
 * project (CLAUDE_PROJECT_DIR set): `cli` returns the run, `cliOk` also
 * asserts exit 0 and an empty stderr.
 */
export function useProjectSandbox(): { sandbox: () => Sandbox; cli: ProjectCli; cliOk: ProjectCli } {
  let current: Sandbox | undefined;
  beforeEach(() => {
    current = makeSandbox();
  });
  afterEach(() => current?.cleanup());
  const sandbox = () => current!;
  const env = (extra: Record<string, string>) => ({ CLAUDE_PROJECT_DIR: sandbox().project, ...extra });
  return {
    sandbox,
    cli: (args, extra = {}) => runCli(sandbox(), args, env(extra)),
    cliOk: (args, extra = {}) => runCliOk(sandbox(), args, env(extra)),
  };
}

type ProjectCli = (args: string[], env?: Record<string, string>) => Promise<HookRun>;

/**
 * A PreToolUse input. No tool_use_id unless `extra` gives one: with an id the
 * guard waits for the calling turn's record (built transcripts rarely hold it).
 */
export function preToolUse(
  transcriptPath: string,
  toolName: string,
  toolInput: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
) {
  return {
    session_id: 'sess-1',
    transcript_path: transcriptPath,
    cwd: '/home/dev/project',
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: toolName,
    tool_input: toolInput,
    ...extra,
  };
}

/**
 * A `--require` for NODE_OPTIONS that makes the Node it runs in report itself as 20 when it is 22 or newer: replay
 * hands its run to Bun only from a Node older than 22 (cli/replay-runtime.ts), so the handover is tested whatever Node
 * runs the tests (on the machine's Node 20 it changes nothing).
 */
export function olderNodePreload(sandbox: Sandbox): string {
  const path = sandbox.write(
    'older-node.cjs',
    `if (Number.parseInt(process.versions.node, 10) >= ${NODE_AS_FAST_AS_BUN}) Object.defineProperty(process.versions, 'node', { value: '20.20.2' });\n`,
  );
  return `--require ${path}`;
}
