/**
 * Does a runtime folder work, not only exist? Every bundle a hook may load is loaded in a child Node and
 * used once, and the hook entry is run on a canned input by what runs the hooks here (Bun or Node, as the hook
 * command picks): a half-updated copy (an event's bundle or policy-parse.cjs missing) makes every hook fail open,
 * which from outside looks like a quiet session.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from '../io/join-path.js';
import { BUN_FLOOR, bunTooOld } from '../core/bun-floor.js';
import { ENTRY_NAMES, entryBundleFile } from '../core/hook-table.js';
import { bundleDir } from '../io/bundle-dir.js';
import { findOnPath } from '../io/on-path.js';
import { readRegularFile } from '../io/read-safe.js';
import { RUNTIME_FILES } from './install-target.js';
import { cliMessage } from './messages.js';

/** Loads every bundle a hook may load (argv[2]: the entry bundles) and uses each once; prints nothing when they work. */
const LOAD_BUNDLES = `
const { join } = require('node:path');
const dir = process.argv[1];
for (const file of JSON.parse(process.argv[2])) {
  if (typeof require(join(dir, file)).runBundle !== 'function') throw new Error(file + ' holds no hook entry');
}
if (typeof require(join(dir, 'launch-failed.cjs')).launchFailed !== 'function') throw new Error('launch-failed.cjs holds no launchFailed');
const policy = require(join(dir, 'policy-parse.cjs')).parsePolicyText('{}', 'check');
if (policy.kind !== 'ok') throw new Error('policy-parse.cjs does not parse a policy');
const yaml = require(join(dir, 'yaml-parse.cjs')).parseYamlText('a: 1');
if (!yaml.ok) throw new Error('yaml-parse.cjs does not parse YAML: ' + yaml.error);
`;

/** Far above any runtime file (the largest is ~120 KB): a larger one is not ours. */
const MAX_RUNTIME_FILE_BYTES = 4 * 1024 * 1024;

/**
 * The first runtime file in `dir` that is not byte for byte this package's own (in `own`, the running CLI's
 * bundles), or undefined when every one there is. doctor runs a folder that a project's settings name only
 * when it holds our own code, for running it is then running ours: a cloned repository's settings can name
 * any folder, and Claude Code itself runs its hooks only once the user trusts it. A file that is absent is
 * skipped (nothing runs it: the checks below say it is missing); one that cannot be read is not ours.
 */
export function foreignRuntimeFile(dir: string, own: string = bundleDir()): string | undefined {
  for (const file of RUNTIME_FILES) {
    try {
      const theirs = readRegularFile(join(dir, file), MAX_RUNTIME_FILE_BYTES);
      if (theirs === undefined) continue;
      const ours = readRegularFile(join(own, file), MAX_RUNTIME_FILE_BYTES);
      if (ours === undefined || !theirs.equals(ours)) return file;
    } catch {
      return file; // not a regular file, too large, unreadable
    }
  }
  return undefined;
}

/** Claude Code's PreToolUse and UserPromptSubmit need no more than this to state a verdict. */
const CANNED_INPUT = JSON.stringify({ session_id: 'doctor-check', transcript_path: '/nonexistent/doctor-check.jsonl', prompt: 'check' });

/** What runs a hook here: the executable the hook entry is run with, and how doctor names it. */
export type HookRunner = { path: string; label: string };

/** The Node doctor itself runs on: what a hook runs where no Bun takes it. */
const NODE_RUNNER: HookRunner = { path: process.execPath, label: 'Node' };

/**
 * What the hook commands run on this PATH: where a command is the default form (Bun where installed), the `bun`
 * the shell's `command -v` finds, when it is the floor's or newer; otherwise Node (this one, the Node doctor runs on).
 */
export function hookRunner(auto: boolean, env: Readonly<Record<string, string | undefined>>): HookRunner {
  const bun = auto ? findOnPath('bun', env.PATH) : undefined;
  if (bun === undefined) return NODE_RUNNER;
  // The version the launcher sees (process.versions.bun), asked of the runtime itself.
  const asked = spawnSync(bun, ['-e', 'process.stdout.write(String(process.versions.bun))'], {
    encoding: 'utf8',
    timeout: 15_000,
    env: { PATH: env.PATH ?? '' },
  });
  const version = asked.status === 0 ? asked.stdout.trim() : '';
  // One that cannot say is still what the command runs: the hook check below shows whether it works.
  if (version === '') return { path: bun, label: cliMessage('doctor.runner-unknown-bun', { bun }) };
  if (!bunTooOld(version)) return { path: bun, label: `Bun ${version}` };
  return { ...NODE_RUNNER, label: cliMessage('doctor.runner-old-bun', { bun, version, floor: BUN_FLOOR }) };
}

/** Undefined when the folder's hooks work, run by `runner`; otherwise the first problem, as one line. */
export function checkRuntime(
  dir: string,
  env: Readonly<Record<string, string | undefined>>,
  runner: HookRunner = NODE_RUNNER,
): string | undefined {
  const missing = RUNTIME_FILES.filter((file) => !existsSync(join(dir, file)));
  if (missing.length > 0) return cliMessage('doctor.runtime-missing', { files: missing.join(', ') });
  const childEnv = { PATH: env.PATH ?? '/usr/bin:/bin', HOME: env.HOME ?? '/', NO_COLOR: '1' };
  const load = spawnSync(process.execPath, ['-e', LOAD_BUNDLES, dir, JSON.stringify(ENTRY_NAMES.map(entryBundleFile))], {
    env: childEnv,
    encoding: 'utf8',
    timeout: 15_000,
  });
  if (load.status !== 0) return cliMessage('doctor.runtime-unloadable', { line: firstErrorLine(load.stderr) });
  // The entry itself, as Claude Code runs it (by `runner`): the launcher loads the monitor's bundle, which states its verdict. It runs
  // in an empty project and home of its own, so it finds (and acknowledges) nothing of the user's.
  const scratch = mkdtempSync(join(tmpdir(), 'context-ceiling-doctor-'));
  const run = (() => {
    try {
      return spawnSync(runner.path, [join(dir, 'hook.cjs'), 'user-prompt-submit'], {
        input: CANNED_INPUT,
        cwd: scratch,
        env: { ...childEnv, HOME: scratch, CLAUDE_PROJECT_DIR: scratch, DEV_TEAM_CONTEXT_DEBUG: '1', DEV_TEAM_CONTEXT_MONITOR: 'off' },
        encoding: 'utf8',
        timeout: 15_000,
      });
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  })();
  const verdict = /verdict user-prompt-submit: (.+)/.exec(run.stderr ?? '')?.[1];
  if (run.status !== 0 || verdict === undefined) return cliMessage('doctor.runtime-no-verdict', { line: firstErrorLine(run.stderr) });
  if (verdict.startsWith('failed-open'))
    return cliMessage('doctor.runtime-fails', { line: firstErrorLine(run.stderr.replace(/^context-ceiling debug: .*\n/gm, '')) });
  return undefined;
}

/** What Claude Code gives a status line after a turn (test/fixtures/claude-code-<version>/statusline-after-turn.json), trimmed. */
const CANNED_STATUS = JSON.stringify({
  session_id: 'doctor-check',
  transcript_path: '/nonexistent/doctor-check.jsonl',
  model: { id: 'claude-opus-5-5' },
  context_window: { context_window_size: 200_000, current_usage: { input_tokens: 5, cache_read_input_tokens: 60_000 } },
});

/**
 * Undefined when the status line in `dir` prints its line, run by `runner` as the settings' command runs it (without
 * the user's command it may wrap); otherwise the problem, as one line. Run in an empty home of its own, so the record
 * it keeps of the window is not the user's.
 */
export function checkStatusLine(
  dir: string,
  env: Readonly<Record<string, string | undefined>>,
  runner: HookRunner = NODE_RUNNER,
): string | undefined {
  const missing = ['statusline.cjs', 'statusline-main.cjs'].filter((file) => !existsSync(join(dir, file)));
  if (missing.length > 0) return cliMessage('doctor.runtime-missing', { files: missing.join(', ') });
  const scratch = mkdtempSync(join(tmpdir(), 'context-ceiling-doctor-'));
  try {
    const run = spawnSync(runner.path, [join(dir, 'statusline.cjs')], {
      input: CANNED_STATUS,
      cwd: scratch,
      env: { PATH: env.PATH ?? '/usr/bin:/bin', HOME: scratch, CLAUDE_PROJECT_DIR: scratch, NO_COLOR: '1' },
      encoding: 'utf8',
      timeout: 15_000,
    });
    if (run.status === 0 && /^ctx \d+% /.test(run.stdout ?? '')) return undefined;
    return cliMessage('doctor.statusline-no-line', { line: firstErrorLine(`${run.stderr ?? ''}\n${run.stdout ?? ''}`) });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function firstErrorLine(stderr: string | null | undefined): string {
  const lines = (stderr ?? '').split('\n').filter((line) => line.trim() !== '');
  return (lines.find((line) => /Error|context-ceiling:/.test(line)) ?? lines[0] ?? 'no output').trim().slice(0, 300);
}
