/** The CLI sees what the hooks see: the env blocks of Claude Code's settings files, a plugin install, the window in use. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { folderMarketplace } from '../helpers/plugin-records.js';
import { CLI_BIN, FIXTURES, runCliOk, useProjectSandbox } from '../helpers/sandbox.js';
import { execa } from 'execa';

const { sandbox, cli, cliOk } = useProjectSandbox();
const settings = (scope: 'user' | 'project' | 'local', content: unknown) =>
  sandbox().write(
    scope === 'user' ? 'home/.claude/settings.json' : `project/.claude/settings${scope === 'local' ? '.local' : ''}.json`,
    typeof content === 'string' ? content : JSON.stringify(content),
  );
const transcriptAt = (tokens: number) =>
  sandbox().write(
    't.jsonl',
    aTranscript()
      .assistant({ cacheRead: tokens - 5 })
      .toString(),
  );
const projectFolder = () => join(sandbox().home, '.claude', 'projects', sandbox().project.replace(/[^a-zA-Z0-9]/g, '-'));

describe('status and config read the settings env as Claude Code applies it over the process env', () => {
  it('after install --strict --window (settings env only): strict, the window, and which file said so', async () => {
    settings('project', { env: { DEV_TEAM_CONTEXT_STRICT: 'on', DEV_TEAM_CONTEXT_WINDOW: '1000000' } });
    const run = await cliOk(['status', '--transcript', transcriptAt(500_000), '--json']);
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toMatchObject({
      strict: true,
      strictSource: 'env (.claude/settings.json)',
      window: 1_000_000,
      windowSource: 'env',
      windowDetail: '.claude/settings.json',
      percent: 50,
      verdicts: { Skill: { kind: 'block' } },
    });
    const human = await cliOk(['status', '--transcript', transcriptAt(500_000)]);
    expect(human.stderr).toBe('');
    expect(human.stdout).toContain('Window      1,000,000 tokens (env (.claude/settings.json))\n');
    expect(human.stdout).toContain('Ceiling     40% (default), strict: over the ceiling blocks (env (.claude/settings.json))\n');
    const get = await cliOk(['config', 'get', 'strict']);
    expect(get).toMatchObject({ exitCode: 0, stdout: 'strict = true  (env (.claude/settings.json))\n', stderr: '' });
  });

  it('local > project > user, each over the process environment (verified in the real client: test/e2e/settings-env.test.ts)', async () => {
    settings('user', { env: { DEV_TEAM_CONTEXT_CEILING_PCT: '30', DEV_TEAM_CONTEXT_WINDOW: '500000', DEV_TEAM_CONTEXT_STRICT: 'on' } });
    settings('project', { env: { DEV_TEAM_CONTEXT_CEILING_PCT: '35', DEV_TEAM_CONTEXT_WINDOW: '800000' } });
    settings('local', { env: { DEV_TEAM_CONTEXT_CEILING_PCT: '45' } });
    const run = await cliOk(['config', 'show', '--json'], {
      DEV_TEAM_CONTEXT_STRICT: 'off',
      DEV_TEAM_CONTEXT_WINDOW: '200000',
      DEV_TEAM_CONTEXT_MONITOR: 'off',
    });
    expect(run.stderr).toBe('');
    const by = Object.fromEntries(
      (JSON.parse(run.stdout).settings as Array<{ key: string; value: unknown; source: string; detail: string | null }>).map((s) => [
        s.key,
        s,
      ]),
    );
    expect(by.ceilingPct).toMatchObject({ value: 45, source: 'env', detail: '.claude/settings.local.json' });
    expect(by.window).toMatchObject({ value: 800_000, source: 'env', detail: '.claude/settings.json' });
    expect(by.strict).toMatchObject({ value: true, source: 'env', detail: '~/.claude/settings.json' });
    expect(by.monitor).toMatchObject({ value: false, source: 'env', detail: null });
  });

  it('config show lists the settings files it read; a malformed value in one is a warning naming the file', async () => {
    settings('project', { env: { DEV_TEAM_CONTEXT_STRICT: 'yes' } });
    const warning =
      'context-ceiling: warning: DEV_TEAM_CONTEXT_STRICT="yes" ignored: only "on" or "off" is recognised (set in .claude/settings.json)\n';
    const show = await cli(['config', 'show']);
    expect(show.exitCode).toBe(0);
    expect(show.stderr).toBe(warning);
    expect(show.stdout).toContain(
      'Claude Code settings (their "env" blocks override the process environment):\n' +
        `  user    ${join(sandbox().home, '.claude', 'settings.json')} (missing)\n` +
        `  project ${join(sandbox().project, '.claude', 'settings.json')} (read)\n` +
        `  local   ${join(sandbox().project, '.claude', 'settings.local.json')} (missing)\n`,
    );
    // config get used to show the default silently here.
    expect(await cli(['config', 'get', 'strict'])).toMatchObject({ exitCode: 0, stdout: 'strict = false  (default)\n', stderr: warning });
  });

  it('status shows where Claude Code will compact, from the settings env, as a share of the effective window', async () => {
    settings('project', { env: { DEV_TEAM_CONTEXT_WINDOW: '1000000', CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '45' } });
    const run = await cliOk(['status', '--transcript', transcriptAt(300_000)]);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain(
      'Autocompact Claude Code auto-compacts at 45% of the effective window (CLAUDE_AUTOCOMPACT_PCT_OVERRIDE), about 441,000 tokens. Set in .claude/settings.json.\n',
    );
    const json = JSON.parse(
      (await cliOk(['status', '--transcript', transcriptAt(300_000), '--json'], { CLAUDE_CODE_AUTO_COMPACT_WINDOW: '500000' })).stdout,
    );
    expect(json).toMatchObject({ autocompactPct: 45, autocompactWindow: 500_000 });
  });

  it('a settings file that is a FIFO, a directory or huge is skipped, never hung on', async () => {
    mkdirSync(join(sandbox().project, '.claude'), { recursive: true });
    execFileSync('mkfifo', [join(sandbox().project, '.claude', 'settings.json')]);
    mkdirSync(join(sandbox().project, '.claude', 'settings.local.json'));
    settings('user', `{"env":{"DEV_TEAM_CONTEXT_STRICT":"on"},"pad":"${'x'.repeat(1024 * 1024)}"}`);
    const run = await execa(process.execPath, [CLI_BIN, 'config', 'show'], {
      env: sandbox().env({ CLAUDE_PROJECT_DIR: sandbox().project }),
      extendEnv: false,
      cwd: sandbox().project,
      reject: false,
      timeout: 20_000,
    });
    expect(run.timedOut).toBe(false);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/^strict +false +default$/m);
    expect(run.stdout).toContain(`${join(sandbox().project, '.claude', 'settings.json')} (not a regular file; ignored)`);
    expect(run.stdout).toContain(`${join(sandbox().project, '.claude', 'settings.local.json')} (not a regular file; ignored)`);
    expect(run.stdout).toContain(`${join(sandbox().home, '.claude', 'settings.json')} (larger than 1048576 bytes; ignored)`);
  });
});

describe('doctor', () => {
  type Report = { ok: boolean; checks: Array<{ name: string; status: string; detail: string; fix?: string }> };
  const doctor = async (env: Record<string, string> = {}) => {
    const run = await cli(['doctor', '--json'], env);
    const report = JSON.parse(run.stdout) as Report;
    return { run, report, by: Object.fromEntries(report.checks.map((c) => [c.name, c])) };
  };

  it('a plugin turned off by the project settings is not an install', async () => {
    settings('user', { enabledPlugins: { 'context-ceiling@m': true } });
    settings('project', { enabledPlugins: { 'context-ceiling@m': false } });
    const { run, by } = await doctor();
    expect(run.exitCode).toBe(1);
    expect(by.hooks).toMatchObject({
      status: 'fail',
      detail: 'no context-ceiling hooks in the project, local or user settings, and no context-ceiling plugin enabled',
    });
  });

  it('warns about strict mode on an assumed window, and about a block that nothing ends', async () => {
    folderMarketplace(sandbox());
    settings('project', { enabledPlugins: { 'context-ceiling@context-ceiling': true }, env: { DEV_TEAM_CONTEXT_STRICT: 'on' } });
    const run = await cli(['doctor']);
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain(
      '! strict  strict mode (env (.claude/settings.json)) on an assumed window: strict blocks nothing until the window is known\n' +
        "          fix: state it: DEV_TEAM_CONTEXT_WINDOW=1000000 (your model's window in tokens) (install --window N writes it), or run the status line\n" +
        '! compact strict mode, and Claude Code compacts only near the full window: in an unattended session a block lasts until then\n' +
        '          fix: set CLAUDE_AUTOCOMPACT_PCT_OVERRIDE at or just above the ceiling (context-ceiling install --strict does)\n',
    );
  });

  it('shows Claude Code’s compaction point and where it was set', async () => {
    folderMarketplace(sandbox());
    settings('project', {
      enabledPlugins: { 'context-ceiling@context-ceiling': true },
      env: { DEV_TEAM_CONTEXT_STRICT: 'on', DEV_TEAM_CONTEXT_WINDOW: '1000000', CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '42' },
    });
    const { by } = await doctor();
    expect(by.strict).toBeUndefined();
    expect(by.compact).toEqual({
      name: 'compact',
      status: 'ok',
      detail:
        'Claude Code auto-compacts at 42% of the effective window (CLAUDE_AUTOCOMPACT_PCT_OVERRIDE), about 411,600 tokens. Set in .claude/settings.json.',
    });
  });

  it('reports the window the hooks use for the newest session: the status line report', async () => {
    folderMarketplace(sandbox());
    settings('project', { enabledPlugins: { 'context-ceiling@context-ceiling': true } });
    const input = JSON.parse(readFileSync(join(FIXTURES, 'statusline-after-turn.json'), 'utf8'));
    const session = input.session_id as string;
    mkdirSync(projectFolder(), { recursive: true });
    sandbox().write(
      `${projectFolder().slice(sandbox().root.length + 1)}/${session}.jsonl`,
      aTranscript(session).assistant({ cacheRead: 100_000, model: input.model.id }).toString(),
    );
    await runCliOk(sandbox(), ['statusline'], { CLAUDE_PROJECT_DIR: sandbox().project }, JSON.stringify(input));
    const { by } = await doctor();
    expect(by.window).toMatchObject({ status: 'ok' });
    expect(by.window!.detail).toMatch(new RegExp(`^1,000,000 tokens \\(status line, \\d+s old\\) for session ${session}$`));
  });

  it('advises cleaning once the project keeps 256 sessions’ checkpoint folders (session starts look through each), not before', async () => {
    folderMarketplace(sandbox());
    settings('project', { enabledPlugins: { 'context-ceiling@context-ceiling': true } });
    const root = join(sandbox().project, '.claude', 'context-ceiling', 'checkpoints');
    for (let n = 0; n < 255; n++) mkdirSync(join(root, `session-${n}`), { recursive: true });
    sandbox().write('project/.claude/context-ceiling/checkpoints/cx-001-checkpoint.json', '{}'); // a file is no session folder
    const below = await doctor();
    expect(below.run.exitCode).toBe(0);
    expect(below.by.checkpoints).toBeUndefined();

    mkdirSync(join(root, 'session-255'));
    const { run, by } = await doctor();
    expect(run.exitCode).toBe(0); // a warning, not a failure
    expect(by.checkpoints).toEqual({
      name: 'checkpoints',
      status: 'warn',
      detail: `256 sessions' checkpoint folders in ${root}: every session start looks through each of them, so it slows as they grow`,
      fix: 'context-ceiling checkpoints clean --older-than 30d (with --dry-run first to see what would go)',
    });
    const text = await cli(['doctor']);
    expect(text.stdout).toContain(`! checkpoints 256 sessions' checkpoint folders in ${root}`);
  });

  it.each(['checkpoints', 'context-ceiling'])(
    'never counts through a symlinked %s folder (a repository can point it anywhere)',
    async (linked) => {
      folderMarketplace(sandbox());
      settings('project', { enabledPlugins: { 'context-ceiling@context-ceiling': true } });
      const elsewhere = join(sandbox().root, 'elsewhere');
      const sessions = linked === 'checkpoints' ? elsewhere : join(elsewhere, 'checkpoints');
      for (let n = 0; n < 300; n++) mkdirSync(join(sessions, `session-${n}`), { recursive: true });
      const link = linked === 'checkpoints' ? join('.claude', 'context-ceiling', 'checkpoints') : join('.claude', 'context-ceiling');
      mkdirSync(dirname(join(sandbox().project, link)), { recursive: true });
      symlinkSync(elsewhere, join(sandbox().project, link));
      const { run, by } = await doctor();
      expect(run.exitCode).toBe(0);
      expect(by.checkpoints).toBeUndefined();
    },
  );
});

describe('human output, byte for byte (explicit env, NO_COLOR=1, COLUMNS=80)', () => {
  const normalise = (text: string) =>
    text
      .split(sandbox().root)
      .join('<root>')
      .replace(/Node v[\d.]+/, 'Node v<version>')
      .replace(/context-ceiling-\d+/, 'context-ceiling-<uid>');

  it('status, config show and doctor after install --strict --window into the project settings', async () => {
    folderMarketplace(sandbox());
    settings('project', {
      enabledPlugins: { 'context-ceiling@context-ceiling': true },
      env: { DEV_TEAM_CONTEXT_STRICT: 'on', DEV_TEAM_CONTEXT_WINDOW: '1000000', CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '42' },
    });
    // A PATH without Bun: doctor names Node as what runs the plugin's hooks.
    const env = { COLUMNS: '80', PATH: `${dirname(process.execPath)}:/usr/bin:/bin` };
    for (const [name, args] of [
      ['status', ['status', '--transcript', transcriptAt(450_000)]],
      ['config-show', ['config', 'show']],
      ['doctor', ['doctor']],
    ] as const) {
      const run = await cli([...args], env);
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.stderr).toBe('');
      await expect(normalise(run.stdout)).toMatchFileSnapshot(`../golden/cli-${name}.txt`);
    }
  });
});
