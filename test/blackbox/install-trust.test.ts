/** install / uninstall against a hostile repository and on the knobs strict mode needs (issues 9 and 11), through the built CLI. */
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useProjectSandbox } from '../helpers/sandbox.js';

const { sandbox, cli, cliOk } = useProjectSandbox();
const settingsPath = () => join(sandbox().project, '.claude', 'settings.json');
const env = () => JSON.parse(readFileSync(settingsPath(), 'utf8')).env as Record<string, string> | undefined;
const skillPath = (base = join(sandbox().project, '.claude')) => join(base, 'skills', 'context-summarization', 'SKILL.md');
const runtimeDir = () => join(sandbox().project, '.claude', 'context-ceiling', 'runtime');

describe('install --strict --window', () => {
  it('writes both knobs and the compaction point just above the ceiling, and says why', async () => {
    const run = await cliOk(['install', '--strict', '--window', '200000']);
    expect(run.exitCode, run.stderr).toBe(0);
    // 40 % of 200,000 = 80,000; Claude Code's percent is of 180,000 (window minus its 20,000 reserve): 45 % = 81,000
    expect(env()).toEqual({ DEV_TEAM_CONTEXT_WINDOW: '200000', DEV_TEAM_CONTEXT_STRICT: 'on', CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '45' });
    expect(run.stdout).toContain(
      'Claude Code compacts at CLAUDE_AUTOCOMPACT_PCT_OVERRIDE=45 of its effective 180,000-token window, just above the 40% ceiling (80,000 of 200,000 tokens)',
    );
  });

  it("--user in a clone computes what it writes from the user's scope only: the clone's policy and settings env count for nothing", async () => {
    // The clone would bring the compaction point down to 2 % (about 3,600 tokens) for every project of the user's.
    sandbox().write('project/.claude/context-ceiling.json', JSON.stringify({ ceilingPct: 2, window: 200_000 }));
    sandbox().write('project/.claude/settings.json', JSON.stringify({ env: { DEV_TEAM_CONTEXT_CEILING_PCT: '2' } }));
    sandbox().write('home/.claude/context-ceiling.json', JSON.stringify({ ceilingPct: 35 }));
    const run = await cliOk(['install', '--user', '--strict']);
    const user = JSON.parse(readFileSync(join(sandbox().home, '.claude', 'settings.json'), 'utf8')).env as Record<string, string>;
    // 35 % (the user's own policy) of the assumed 1,000,000 window; Claude Code's percent is of 980,000: 36 %.
    expect(user).toEqual({ DEV_TEAM_CONTEXT_STRICT: 'on', CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '36' });
    expect(run.stdout).toContain('just above the 35% ceiling');
  });

  it.each(['abc', '999', '0', '-5', '1.5', '1e6', '200k'])('--window %j is a one-line usage error and changes nothing', async (value) => {
    const run = await cli(['install', `--window=${value}`]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr.split('\n')[0]).toBe(
      `context-ceiling: --window takes a whole number of tokens, at least 1000 (got ${JSON.stringify(value)})`,
    );
    expect(existsSync(join(sandbox().project, '.claude'))).toBe(false);
  });

  it("re-running with other flags converges: what install added goes, the user's own earlier value comes back", async () => {
    sandbox().write('project/.claude/settings.json', JSON.stringify({ env: { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '90', FOO: 'bar' } }));
    await cliOk(['install', '--strict', '--window', '1000000']);
    expect(env()).toEqual({
      CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '41',
      FOO: 'bar',
      DEV_TEAM_CONTEXT_WINDOW: '1000000',
      DEV_TEAM_CONTEXT_STRICT: 'on',
    });
    await cliOk(['install', '--strict', '--window', '200000']);
    expect(env()).toMatchObject({ CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '45', DEV_TEAM_CONTEXT_WINDOW: '200000' });
    const plain = await cliOk(['install']);
    expect(plain.stdout).toContain('~ env CLAUDE_AUTOCOMPACT_PCT_OVERRIDE=90 (restored)');
    expect(env()).toEqual({ CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '90', FOO: 'bar' });
    await cliOk(['install', '--strict']);
    await cliOk(['uninstall']);
    expect(env()).toEqual({ CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '90', FOO: 'bar' });
  });

  it('a value the user changed after install is theirs: neither removed by a plain install nor by uninstall', async () => {
    await cliOk(['install', '--strict']);
    const settings = JSON.parse(readFileSync(settingsPath(), 'utf8'));
    settings.env.CLAUDE_AUTOCOMPACT_PCT_OVERRIDE = '30';
    writeFileSync(settingsPath(), JSON.stringify(settings));
    await cliOk(['install']);
    expect(env()).toEqual({ CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '30' });
    await cliOk(['uninstall']);
    expect(env()).toEqual({ CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '30' });
  });
});

describe('the recovery skill install copies', () => {
  it("lands in the scope's skills folder, runs the runtime copy from its own folder, and uninstall removes it", async () => {
    expect((await cliOk(['install'])).exitCode).toBe(0);
    const text = readFileSync(skillPath(), 'utf8');
    expect(text).toContain('name: context-summarization');
    expect(text).toContain('!`node "${CLAUDE_SKILL_DIR}/../../context-ceiling/runtime/hook.cjs" save-checkpoint`');
    expect(text).not.toContain('CLAUDE_PLUGIN_ROOT');
    await cliOk(['uninstall']);
    expect(existsSync(join(sandbox().project, '.claude', 'skills'))).toBe(false);
  });

  it('--user: ~/.claude/skills, same relative route to ~/.claude/context-ceiling/runtime', async () => {
    await cliOk(['install', '--user']);
    expect(readFileSync(skillPath(join(sandbox().home, '.claude')), 'utf8')).toContain(
      '"${CLAUDE_SKILL_DIR}/../../context-ceiling/runtime/hook.cjs"',
    );
    expect(existsSync(join(sandbox().project, '.claude'))).toBe(false);
  });

  it('a different skill of that name is left alone and reported, and uninstall never touches it; an edited copy is kept too', async () => {
    const theirs = sandbox().write(
      'project/.claude/skills/context-summarization/SKILL.md',
      "---\nname: context-summarization\ndescription: the team's own\n---\n",
    );
    const run = await cliOk(['install']);
    expect(run.stdout).toContain(`left alone: ${theirs} is a different skill named context-summarization`);
    await cliOk(['uninstall']);
    expect(readFileSync(theirs, 'utf8')).toContain("the team's own");

    writeFileSync(theirs, ''); // now install may not write either: an empty file is still someone's
    await cliOk(['install']);
    expect(readFileSync(theirs, 'utf8')).toBe('');
  });

  it('an older copy install wrote is updated; one the user edited since is kept by uninstall', async () => {
    await cliOk(['install']);
    writeFileSync(skillPath(), `${readFileSync(skillPath(), 'utf8')}\nTeam note.\n`);
    const run = await cliOk(['uninstall']);
    expect(run.stdout).toContain(`kept ${skillPath()}: not the skill install wrote`);
    expect(readFileSync(skillPath(), 'utf8')).toContain('Team note.');
  });
});

describe('a hostile repository', () => {
  it('a committed .claude symlinked out of the project: install refuses, nothing is written there', async () => {
    const outside = join(sandbox().root, 'outside');
    mkdirSync(outside);
    symlinkSync(outside, join(sandbox().project, '.claude'));
    const run = await cli(['install']);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toBe(
      `context-ceiling: ${join(sandbox().project, '.claude')} leads out of the project (to ${outside}); install writes only inside the project; nothing was changed\n`,
    );
    expect(readdirSync(outside)).toEqual([]);
  });

  it('a committed .claude/context-ceiling symlinked out: refused, nothing written outside', async () => {
    const outside = join(sandbox().root, 'outside');
    mkdirSync(outside);
    mkdirSync(join(sandbox().project, '.claude'));
    symlinkSync(outside, join(sandbox().project, '.claude', 'context-ceiling'));
    expect((await cli(['install'])).exitCode).toBe(1);
    expect((await cli(['uninstall'])).exitCode).toBe(1);
    expect(readdirSync(outside)).toEqual([]);
    expect(existsSync(settingsPath())).toBe(false);
  });

  it('a committed install record naming another runtimeDir: uninstall deletes nothing there, and only runtime files install wrote', async () => {
    await cliOk(['install']);
    const victim = join(sandbox().root, 'victim');
    mkdirSync(victim);
    writeFileSync(join(victim, 'hook.cjs'), 'precious');
    writeFileSync(join(victim, 'notes.txt'), 'precious');
    const recordPath = join(sandbox().project, '.claude', 'context-ceiling', 'install-settings.json');
    const record = JSON.parse(readFileSync(recordPath, 'utf8'));
    writeFileSync(recordPath, JSON.stringify({ ...record, runtimeDir: victim, runtimeHashes: {} }));
    writeFileSync(join(runtimeDir(), 'extra.txt'), 'not ours');
    writeFileSync(join(runtimeDir(), 'statusline.cjs'), 'changed since');
    const run = await cliOk(['uninstall']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(readdirSync(victim).sort()).toEqual(['hook.cjs', 'notes.txt']);
    expect(readdirSync(runtimeDir()).sort()).toEqual(['extra.txt', 'statusline.cjs']);
    expect(run.stdout).toContain('kept (not as install wrote them): statusline.cjs');
  });

  it.each([
    ['duplicate keys', '{"env": {"A": "1"}, "env": {"B": "2"}}', 'the key "env" appears twice in one object'],
    ['a __proto__ key', '{"__proto__": {"x": 1}}', 'a "__proto__" key'],
    [
      'a number JavaScript cannot keep',
      '{"cleanupPeriodDays": 12345678901234567890}',
      'the number 12345678901234567890 cannot be kept exactly',
    ],
  ])('settings with %s are refused with one line and left byte for byte', async (_name, text, why) => {
    sandbox().write('project/.claude/settings.json', text);
    const run = await cli(['install']);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toBe(
      `context-ceiling: ${settingsPath()}: ${why}, which rewriting would lose; fix that first; the file was left unchanged\n`,
    );
    expect(readFileSync(settingsPath(), 'utf8')).toBe(text);
  });

  it("keeps the settings file's mode (a private file stays private)", async () => {
    sandbox().write('project/.claude/settings.json', '{"model": "opus"}');
    chmodSync(settingsPath(), 0o600);
    await cliOk(['install']);
    expect(statSync(settingsPath()).mode & 0o777).toBe(0o600);
    const backup = readdirSync(join(sandbox().project, '.claude')).find((name) => name.includes('.bak-'))!;
    expect(statSync(join(sandbox().project, '.claude', backup)).mode & 0o777).toBe(0o600);
  });
});

describe('uninstall without its record', () => {
  it('still removes the skill and runtime files whose content is exactly what this version writes, and nothing else', async () => {
    await cliOk(['install']);
    const { rmSync } = await import('node:fs');
    rmSync(join(sandbox().project, '.claude', 'context-ceiling', 'install-settings.json'));
    writeFileSync(join(runtimeDir(), 'notes.txt'), 'mine');
    await cliOk(['uninstall']);
    expect(existsSync(skillPath())).toBe(false);
    expect(readdirSync(runtimeDir())).toEqual(['notes.txt']);
  });
});
