/**
 * `install --runtime`: the hook command runs Bun where it is installed and Node otherwise, decided by the
 * shell each time the hook runs. The written command is run as Claude Code runs it (bash), with `bun` and
 * `node` stand-ins on the PATH that log their call and hand over to the real runtime.
 */
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { expectedHooks } from '../helpers/hook-table.js';
import { ROOT, useProjectSandbox } from '../helpers/sandbox.js';

const { sandbox, cli, cliOk } = useProjectSandbox();
const settingsPath = () => join(sandbox().project, '.claude', 'settings.json');
const settings = () => JSON.parse(readFileSync(settingsPath(), 'utf8'));
const RUNTIME = '$CLAUDE_PROJECT_DIR/.claude/context-ceiling/runtime';
/** The devDependency's Bun (package.json): the real runtime the bun stand-in hands over to. */
const REAL_BUN = join(ROOT, 'node_modules', '.bin', 'bun');

/** A folder holding stand-ins for the runtimes named: each logs its name, then runs the real one. */
function standIns(names: ('bun' | 'node')[]): { bin: string; log: string } {
  const log = join(sandbox().root, 'runtimes.log');
  const bin = dirname(sandbox().write('bin/.keep', ''));
  for (const name of names) {
    const real = name === 'bun' ? REAL_BUN : process.execPath;
    const path = join(bin, name);
    writeFileSync(path, `#!/bin/sh\necho ${name} >> "${log}"\nexec "${real}" "$@"\n`);
    chmodSync(path, 0o755);
  }
  return { bin, log };
}

/** Run an installed PreToolUse command as Claude Code does (bash -c), over the ceiling in strict mode. */
async function runInstalledGuard(command: string, path: string) {
  const transcript = sandbox().write('t.jsonl', aTranscript().assistant({ cacheRead: 450_000 }).toString());
  const debug = join(sandbox().root, 'debug.log');
  const run = await execa('/bin/bash', ['-c', command], {
    cwd: sandbox().project,
    env: sandbox().env({
      PATH: path,
      CLAUDE_PROJECT_DIR: sandbox().project,
      DEV_TEAM_CONTEXT_STRICT: 'on',
      DEV_TEAM_CONTEXT_WINDOW: '1000000',
      DEV_TEAM_CONTEXT_DEBUG: debug,
    }),
    extendEnv: false,
    input: JSON.stringify({ session_id: 's', transcript_path: transcript, tool_name: 'Skill', tool_input: { skill: 'x' } }),
    reject: false,
  });
  const reason = /verdict pre-tool-use: (.*)$/m.exec(existsSync(debug) ? readFileSync(debug, 'utf8') : '')?.[1];
  return { ...run, reason };
}

describe('install --runtime', () => {
  it('bun: every hook runs Bun when bun is on the PATH, and the verdict is the same', async () => {
    const run = await cliOk(['install', '--runtime', 'bun']);
    expect(run.stdout).toContain('the hooks run with Bun where `bun` is on the PATH, else with Node');
    expect(settings().hooks).toEqual(expectedHooks(RUNTIME, 'bun'));
    const { bin, log } = standIns(['bun', 'node']);
    const hook = await runInstalledGuard(settings().hooks.PreToolUse[0].hooks[0].command, `${bin}:/usr/bin:/bin`);
    expect(hook.exitCode, hook.stderr).toBe(0);
    expect(readFileSync(log, 'utf8')).toBe('bun\n');
    expect(hook.reason).toBe('block over-ceiling-blocked');
    expect(JSON.parse(hook.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
  });

  it('bun: where bun is not installed when the hook runs, Node runs it instead', async () => {
    await cliOk(['install', '--runtime', 'bun']);
    const { bin, log } = standIns(['node']);
    const hook = await runInstalledGuard(settings().hooks.PreToolUse[0].hooks[0].command, `${bin}:/usr/bin:/bin`);
    expect(hook.exitCode, hook.stderr).toBe(0);
    expect(readFileSync(log, 'utf8')).toBe('node\n');
    expect(hook.reason).toBe('block over-ceiling-blocked');
    expect(hook.stderr).toContain('blocked');
  });

  it('auto: bun when bun is on the PATH at install time, else node', async () => {
    const { bin } = standIns(['bun']);
    await cliOk(['install', '--runtime', 'auto'], { PATH: `${bin}:${dirname(process.execPath)}:/usr/bin:/bin` });
    expect(settings().hooks).toEqual(expectedHooks(RUNTIME, 'bun'));
    const again = await cliOk(['install', '--runtime', 'auto'], { PATH: `${dirname(process.execPath)}:/usr/bin:/bin` });
    expect(again.stdout).toContain('~ PreToolUse [Agent|Task|Skill|Workflow]: node --preserve-symlinks-main "');
    expect(settings().hooks).toEqual(expectedHooks(RUNTIME, 'node'));
  });

  it('node is the default; switching runtimes updates the hooks in place, and uninstall removes the Bun form too', async () => {
    await cliOk(['install']);
    expect(settings().hooks).toEqual(expectedHooks(RUNTIME, 'node'));
    await cliOk(['install', '--runtime', 'bun']);
    expect(settings().hooks).toEqual(expectedHooks(RUNTIME, 'bun'));
    const run = await cliOk(['uninstall']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(settings().hooks).toBeUndefined();
  });

  it('an unknown runtime is a usage error', async () => {
    const run = await cli(['install', '--runtime', 'deno']);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('--runtime takes bun, node or auto (got "deno")');
  });
});

describe('runtime files an earlier version wrote', () => {
  const retired = () => join(sandbox().project, '.claude', 'context-ceiling', 'runtime', 'hook-events.cjs');
  const recordPath = () => join(sandbox().project, '.claude', 'context-ceiling', 'install-settings.json');

  it('hook-events.cjs is removed by the next install when the record proves it ours, and kept when not', async () => {
    await cliOk(['install']);
    writeFileSync(retired(), 'module.exports = {}; // an earlier version\n');
    const record = JSON.parse(readFileSync(recordPath(), 'utf8'));
    record.runtimeHashes['hook-events.cjs'] = createHash('sha256').update(readFileSync(retired())).digest('hex');
    writeFileSync(recordPath(), JSON.stringify(record));
    await cliOk(['install', '--runtime', 'bun']);
    expect(existsSync(retired())).toBe(false);
    writeFileSync(retired(), 'someone else wrote this\n');
    await cliOk(['install']);
    expect(existsSync(retired())).toBe(true);
  });
});
