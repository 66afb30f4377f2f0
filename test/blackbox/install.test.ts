/** install / uninstall as a user runs them, on real settings files in a temp project and HOME. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { expectedCommand, expectedHooks } from '../helpers/hook-table.js';
import { useProjectSandbox } from '../helpers/sandbox.js';
import { execa } from 'execa';

const { sandbox, cli, cliOk } = useProjectSandbox();
const settingsPath = () => join(sandbox().project, '.claude', 'settings.json');
const read = (path = settingsPath()) => readFileSync(path, 'utf8');
const backups = (dir = join(sandbox().project, '.claude')) => readdirSync(dir).filter((name) => name.includes('.bak-'));

const EXISTING = `{
    "permissions": { "allow": ["Bash(npm test)"] },
    "hooks": {
        "PreToolUse": [{ "matcher": "Bash", "hooks": [{ "type": "command", "command": "./guard.sh" }] }],
        "Stop": [{ "hooks": [{ "type": "command", "command": "say done" }] }]
    },
    "env": { "FOO": "bar" }
}
`;

describe('install', () => {
  it('creates the settings file with every hook, and a runtime copy that works', async () => {
    const run = await cliOk(['install']);
    expect(run.exitCode, run.stderr).toBe(0);
    const settings = JSON.parse(read());
    expect(settings.hooks).toEqual(expectedHooks('$CLAUDE_PROJECT_DIR/.claude/context-ceiling/runtime'));
    expect(backups()).toEqual([]); // nothing to back up
    // The installed command works from the project, as Claude Code would run it (bash, CLAUDE_PROJECT_DIR set).
    const transcript = sandbox().write('t.jsonl', aTranscript().assistant({ cacheRead: 450_000 }).toString());
    const command = settings.hooks.PreToolUse[0].hooks[0].command as string;
    const hook = await execa('bash', ['-c', command], {
      cwd: sandbox().project,
      env: sandbox().env({ CLAUDE_PROJECT_DIR: sandbox().project, DEV_TEAM_CONTEXT_STRICT: 'on' }),
      extendEnv: false,
      input: JSON.stringify({ session_id: 's', transcript_path: transcript, tool_name: 'Skill', tool_input: { skill: 'x' } }),
      reject: false,
    });
    expect(hook.exitCode).toBe(0);
    expect(JSON.parse(hook.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    expect(hook.stderr).toContain('blocked');
  });

  it('merges into an existing file: other settings and hooks kept, backup written first', async () => {
    sandbox().write('project/.claude/settings.json', EXISTING);
    expect((await cliOk(['install'])).exitCode).toBe(0);
    const settings = JSON.parse(read());
    expect(settings.permissions).toEqual({ allow: ['Bash(npm test)'] });
    expect(settings.env).toEqual({ FOO: 'bar' });
    expect(settings.hooks.Stop).toEqual([{ hooks: [{ type: 'command', command: 'say done' }] }]);
    expect(settings.hooks.PreToolUse[0]).toEqual({ matcher: 'Bash', hooks: [{ type: 'command', command: './guard.sh' }] });
    expect(settings.hooks.PreToolUse).toHaveLength(2);
    expect(read()).toMatch(/^\{\n {4}"permissions"/); // the file's 4-space indentation is kept
    const [backup] = backups();
    expect(readFileSync(join(sandbox().project, '.claude', backup!), 'utf8')).toBe(EXISTING);
  });

  it('running it twice changes nothing: same bytes, no second backup', async () => {
    sandbox().write('project/.claude/settings.json', EXISTING);
    await cliOk(['install', '--strict']);
    const once = read();
    const backupsOnce = backups();
    const second = await cliOk(['install', '--strict']);
    expect(second.stdout).toMatch(/already installed .*nothing changed/);
    expect(read()).toBe(once);
    expect(backups()).toEqual(backupsOnce);
  });

  it('--strict sets strict and the compaction point in env; uninstall removes exactly what install added', async () => {
    sandbox().write('project/.claude/settings.json', EXISTING);
    await cliOk(['install', '--strict']);
    expect(JSON.parse(read()).env).toEqual({ FOO: 'bar', DEV_TEAM_CONTEXT_STRICT: 'on', CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '41' });
    const run = await cliOk(['uninstall']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(JSON.parse(read())).toEqual(JSON.parse(EXISTING));
    expect(existsSync(join(sandbox().project, '.claude', 'context-ceiling'))).toBe(false);
    expect(existsSync(join(sandbox().project, '.claude', 'skills'))).toBe(false);
    expect(backups()).toHaveLength(2); // one before install, one before uninstall; neither replaced
  });

  it('a malformed settings file is reported and never overwritten', async () => {
    const broken = '{ "hooks": { "PreToolUse": [ }';
    sandbox().write('project/.claude/settings.json', broken);
    const run = await cli(['install']);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(/^context-ceiling: .*settings\.json: not valid JSON \(.*\); the file was left unchanged\n$/);
    expect(read()).toBe(broken);
    expect(backups()).toEqual([]);
  });

  it('a settings file of the wrong shape is reported and left alone', async () => {
    sandbox().write('project/.claude/settings.json', '{"hooks": []}');
    const run = await cli(['install']);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('"hooks" must be an object; the file was left unchanged');
  });

  it('--user writes ~/.claude/settings.json with an absolute runtime path', async () => {
    expect((await cliOk(['install', '--user'])).exitCode).toBe(0);
    const settings = JSON.parse(read(join(sandbox().home, '.claude', 'settings.json')));
    expect(settings.hooks.SessionStart[0].hooks[0].command).toBe(
      expectedCommand(join(sandbox().home, '.claude', 'context-ceiling', 'runtime'), 'session-start'),
    );
    expect(existsSync(join(sandbox().home, '.claude', 'context-ceiling', 'runtime', 'hook.cjs'))).toBe(true);
    expect(existsSync(settingsPath())).toBe(false);
    expect((await cliOk(['uninstall', '--user'])).exitCode).toBe(0);
    expect(JSON.parse(read(join(sandbox().home, '.claude', 'settings.json')))).toEqual({});
  });

  it('--local writes .claude/settings.local.json', async () => {
    await cliOk(['install', '--local']);
    expect(existsSync(join(sandbox().project, '.claude', 'settings.local.json'))).toBe(true);
    expect(existsSync(settingsPath())).toBe(false);
  });

  it('--dry-run changes nothing; --json describes the result', async () => {
    sandbox().write('project/.claude/settings.json', EXISTING);
    const dry = await cliOk(['install', '--dry-run', '--json']);
    expect(JSON.parse(dry.stdout)).toMatchObject({ changed: true, dryRun: true });
    expect(read()).toBe(EXISTING);
    expect(existsSync(join(sandbox().project, '.claude', 'context-ceiling'))).toBe(false);
  });

  it('uninstall when nothing is installed changes nothing', async () => {
    sandbox().write('project/.claude/settings.json', EXISTING);
    const run = await cliOk(['uninstall']);
    expect(run.stdout).toMatch(/not installed .*nothing changed/);
    expect(read()).toBe(EXISTING);
  });

  it.each([
    [['install', '--user', '--project'], 'choose one of --project, --local, --user'],
    [['install', 'now'], 'unexpected argument "now"'],
    [['uninstall', '--strict'], 'unknown option --strict'],
  ])('%j is a usage error', async (args, message) => {
    const run = await cli(args);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain(message);
  });
});

describe('doctor', () => {
  it("before install: fails on hooks, passes the rest (each session's window will come from its model)", async () => {
    const run = await cli(['doctor', '--json']);
    expect(run.exitCode).toBe(1);
    const report = JSON.parse(run.stdout) as { ok: boolean; checks: Array<{ name: string; status: string; fix?: string }> };
    expect(report.ok).toBe(false);
    expect(Object.fromEntries(report.checks.map((c) => [c.name, c.status]))).toEqual({
      node: 'ok',
      hooks: 'fail',
      config: 'ok',
      window: 'ok',
      compact: 'ok',
      state: 'ok',
      errors: 'ok',
    });
    expect(report.checks.find((c) => c.name === 'hooks')!.fix).toContain('context-ceiling install');
  });

  it('after install with a window set: all ok, exit 0', async () => {
    await cli(['install']);
    const run = await cliOk(['doctor'], { DEV_TEAM_CONTEXT_WINDOW: '1000000' });
    expect(run.exitCode, run.stdout).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^✓ hooks .*all 6 events/m);
    expect(run.stdout).toMatch(/^✓ window +1,000,000 tokens \(env\)$/m);
  });

  it('a deleted runtime, a broken policy and a symlinked state directory each fail with a fix', async () => {
    await cliOk(['install']);
    sandbox().write('project/.claude/context-ceiling/runtime/hook.cjs', '');
    const { rmSync, symlinkSync, mkdirSync } = await import('node:fs');
    rmSync(join(sandbox().project, '.claude', 'context-ceiling', 'runtime'), { recursive: true });
    sandbox().write('project/.claude/context-ceiling.json', '{"ceilingPct": 400}');
    mkdirSync(join(sandbox().root, 'real-state'));
    symlinkSync(join(sandbox().root, 'real-state'), join(sandbox().root, 'state-link'));
    const run = await cli(['doctor', '--json'], { DEV_TEAM_CONTEXT_STATE_DIR: join(sandbox().root, 'state-link') });
    const report = JSON.parse(run.stdout) as { checks: Array<{ name: string; status: string; detail: string; fix?: string }> };
    const by = Object.fromEntries(report.checks.map((c) => [c.name, c]));
    expect(by.hooks).toMatchObject({ status: 'fail', fix: 'run context-ceiling install again' });
    expect(by.config).toMatchObject({ status: 'fail' });
    expect(by.config!.detail).toContain('ceilingPct: must be at most 100');
    expect(by.state).toMatchObject({ status: 'fail' });
    expect(by.state!.detail).toContain('is a symlink');
    expect(run.exitCode).toBe(1);
  });
});

describe('install into a symlinked settings file', () => {
  it('refuses with one line, exit 1, and writes nothing (a cloned repository can link it to ~/.claude/settings.json)', async () => {
    const { symlinkSync, lstatSync, mkdirSync } = await import('node:fs');
    const target = sandbox().write('home/.claude/settings.json', '{"model": "opus"}\n');
    mkdirSync(join(sandbox().project, '.claude'), { recursive: true });
    symlinkSync(target, settingsPath());
    const run = await cli(['install']);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toBe(
      `context-ceiling: ${settingsPath()} is a symlink; install does not write through it (edit its target yourself, or replace the link with a file); nothing was changed\n`,
    );
    expect(lstatSync(settingsPath()).isSymbolicLink()).toBe(true);
    expect(read(target)).toBe('{"model": "opus"}\n');
    expect(readdirSync(join(sandbox().project, '.claude'))).toEqual(['settings.json']);
    expect(readdirSync(join(sandbox().home, '.claude'))).toEqual(['settings.json']);
  });
});
