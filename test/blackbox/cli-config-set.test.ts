/**
 * `config set KEY VALUE` and `config unset KEY`: values coerced as their variables are, validated as the
 * loader validates a file, written atomically into the user's (default) or the project's policy file, and
 * what the hooks then do follows.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { expectWarned } from '../helpers/guard-runners.js';
import { preToolUse, runHook, useProjectSandbox } from '../helpers/sandbox.js';

const { sandbox, cli, cliOk } = useProjectSandbox();

const userFile = () => join(sandbox().home, '.claude', 'context-ceiling.json');
const projectFile = () => join(sandbox().project, '.claude', 'context-ceiling.json');
const read = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
const normalise = (text: string) => text.split(sandbox().root).join('<root>');

describe('config set and unset', () => {
  it('config set ceilingPct 35: the user file by default, and the guard then warns at 37%', { tags: ['hook'] }, async () => {
    const transcript = sandbox().write('t.jsonl', aTranscript().user('go').assistant({ cacheRead: 370_000 }).toString());
    const guard = () => runHook(sandbox(), preToolUse(transcript, 'Agent', { subagent_type: 'Explore' }));
    expect((await guard()).reason).toBe('allow below-ceiling');
    const run = await cliOk(['config', 'set', 'ceilingPct', '35']);
    expect(normalise(run.stdout)).toBe(
      'context-ceiling: set ceilingPct to 35 in <root>/home/.claude/context-ceiling.json (user file; it was not set there)\n' +
        'in force: ceilingPct = 35  (user (<root>/home/.claude/context-ceiling.json))\n',
    );
    expect(readFileSync(userFile(), 'utf8')).toBe('{\n  "ceilingPct": 35\n}\n');
    expectWarned(await guard());
  });

  it.each([
    ['ceilingPct', '040', { ceilingPct: 40 }],
    ['strict', 'on', { strict: true }],
    ['monitor', 'off', { monitor: false }],
    ['tools.Skill', 'block', { tools: { Skill: 'block' } }],
    ['tools.mcp__github__search', 'warn', { tools: { mcp__github__search: 'warn' } }],
    ['tools', 'Skill=block,Agent=warn', { tools: { Skill: 'block', Agent: 'warn' } }],
    ['recoverySkills', 'a,b', { recoverySkills: ['a', 'b'] }],
    ['tiers.warningPct', '65', { tiers: { warningPct: 65 } }],
    ['window', '1000000', { window: 1_000_000 }],
    ['debug', 'on', { debug: true }],
    ['orchestrationFile', 'docs/STATE.yaml', { orchestrationFile: 'docs/STATE.yaml' }],
  ])('config set %s %s writes it as its variable would set it', async (key, value, expected) => {
    await cliOk(['config', 'set', key, value]);
    expect(read(userFile())).toEqual(expected);
  });

  it.each([
    ['ceilingPct', 'abc', 'ceilingPct: "abc" refused: expected a whole number from 1 to 100'],
    ['ceilingPct', '101', 'ceilingPct: "101" refused: expected a whole number from 1 to 100'],
    ['ceilingPct', '1e2', 'ceilingPct: "1e2" refused: expected a whole number from 1 to 100'],
    ['strict', 'true', 'strict: "true" refused: only "on" or "off" is recognised'],
    ['tools.Skill', 'maybe', 'tools.Skill: "maybe" refused: expected an action, one of auto|warn|block|off'],
    [
      'debug',
      '/tmp/debug.log',
      'debug: "/tmp/debug.log" refused: expected on or off (a file for diagnostics is named by DEV_TEAM_CONTEXT_DEBUG only)',
    ],
    [
      'ceilingPC',
      '35',
      expect.stringMatching(/^unknown key "ceilingPC"; keys are enabled, strict, ceilingPct, .*, tools\.<Tool>, extends$/),
    ],
  ])('config set %s %s is refused with one line and usage, exit 1; the file is untouched', async (key, value, message) => {
    mkdirSync(join(sandbox().home, '.claude'));
    writeFileSync(userFile(), '{ "ceilingPct": 30 }\n');
    const run = await cli(['config', 'set', key, value]);
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toBe('');
    const [line, usage, ...rest] = run.stderr.split('\n');
    expect(line!.replace(/^context-ceiling: /, '')).toEqual(message);
    expect(usage).toMatch(/^Usage: context-ceiling config show .* set KEY VALUE \[--user\|--project\]/);
    expect(rest).toEqual(['']);
    expect(readFileSync(userFile(), 'utf8')).toBe('{ "ceilingPct": 30 }\n');
  });

  it('a value that would make the file invalid (tiers that do not rise) is refused with the rule, nothing written', async () => {
    const run = await cli(['config', 'set', 'tiers.warningPct', '85']);
    expect(run).toMatchObject({ exitCode: 1, stdout: '' });
    expect(normalise(run.stderr)).toBe(
      'context-ceiling: <root>/home/.claude/context-ceiling.json was not changed: it would not be valid:\n' +
        'context-ceiling: <root>/home/.claude/context-ceiling.json: tiers: must rise warningPct < criticalPct < emergencyPct (with defaults filled in: 85, 80, 88)\n',
    );
    expect(existsSync(userFile())).toBe(false);
  });

  it("keeps the file's other keys, their order, its indentation and its mode", async () => {
    mkdirSync(join(sandbox().home, '.claude'));
    writeFileSync(
      userFile(),
      '{\n    "$schema": "./schema.json",\n    "extends": "strict-ci",\n    "ceilingPct": 30,\n    "monitor": false\n}\n',
    );
    chmodSync(userFile(), 0o600);
    await cliOk(['config', 'set', 'ceilingPct', '45']);
    await cliOk(['config', 'set', 'tools.Agent', 'warn']);
    expect(readFileSync(userFile(), 'utf8')).toBe(
      '{\n    "$schema": "./schema.json",\n    "extends": "strict-ci",\n    "ceilingPct": 45,\n    "monitor": false,\n    "tools": {\n        "Agent": "warn"\n    }\n}\n',
    );
    expect(statSync(userFile()).mode & 0o777).toBe(0o600);
  });

  it('unset removes a key, and a group emptied with it; what then applies is shown', async () => {
    await cliOk(['config', 'set', 'tools.Skill', 'block']);
    await cliOk(['config', 'set', 'ceilingPct', '35']);
    const run = await cliOk(['config', 'unset', 'tools.Skill']);
    expect(normalise(run.stdout)).toBe(
      'context-ceiling: removed tools.Skill from <root>/home/.claude/context-ceiling.json (user file; it was block)\n' +
        'in force: tools.Skill = auto  (default)\n',
    );
    expect(read(userFile())).toEqual({ ceilingPct: 35 });
    expect(normalise((await cliOk(['config', 'unset', 'tools.Skill'])).stdout)).toBe(
      'context-ceiling: tools.Skill is not set in <root>/home/.claude/context-ceiling.json (user file); nothing changed\n' +
        'in force: tools.Skill = auto  (default)\n',
    );
  });

  it('says when a variable still wins over the file it wrote', async () => {
    const run = await cliOk(['config', 'set', 'ceilingPct', '30'], { DEV_TEAM_CONTEXT_CEILING_PCT: '50' });
    expect(run.stdout.split('\n')[1]).toBe('in force: ceilingPct = 50  (env)');
  });

  it('--json: what changed, where, and what is in force', async () => {
    await cliOk(['config', 'set', 'ceilingPct', '30']);
    const run = await cliOk(['config', 'set', 'ceilingPct', '35', '--json']);
    expect(JSON.parse(run.stdout)).toEqual({
      action: 'set',
      key: 'ceilingPct',
      scope: 'user',
      path: userFile(),
      changed: true,
      before: 30,
      after: 35,
      inForce: [{ key: 'ceilingPct', value: 35, source: 'user', detail: userFile() }],
    });
  });
});

describe('config set --project, and the files it refuses', () => {
  it('--project writes the project file, which the project layer then reads', async () => {
    const run = await cliOk(['config', 'set', 'tools.Skill', 'block', '--project']);
    expect(normalise(run.stdout)).toBe(
      'context-ceiling: set tools.Skill to block in <root>/project/.claude/context-ceiling.json (project file; it was not set there)\n' +
        'in force: tools.Skill = block  (project (<root>/project/.claude/context-ceiling.json))\n',
    );
    expect(read(projectFile())).toEqual({ tools: { Skill: 'block' } });
    expect(existsSync(userFile())).toBe(false);
  });

  it("a project file may not set stateDir: refused in the layer rule's words; the user file may", async () => {
    const run = await cli(['config', 'set', 'stateDir', join(sandbox().tmp, 'state'), '--project']);
    expect(run).toMatchObject({ exitCode: 1, stdout: '' });
    expect(normalise(run.stderr)).toBe(
      'context-ceiling: <root>/project/.claude/context-ceiling.json: stateDir not set: only DEV_TEAM_CONTEXT_STATE_DIR or ~/.claude/context-ceiling.json may set the state directory\n',
    );
    expect(existsSync(projectFile())).toBe(false);
    await cliOk(['config', 'set', 'stateDir', join(sandbox().tmp, 'state')]);
    expect(read(userFile())).toEqual({ stateDir: join(sandbox().tmp, 'state') });
  });

  it.each(['user', 'project'] as const)('a symlinked %s file is refused; neither the link nor its target changes', async (scope) => {
    const target = sandbox().write('elsewhere.json', '{"ceilingPct": 30}\n');
    const file = scope === 'user' ? userFile() : projectFile();
    mkdirSync(join(file, '..'), { recursive: true });
    symlinkSync(target, file);
    const run = await cli(['config', 'set', 'ceilingPct', '35', `--${scope}`]);
    expect(run).toMatchObject({ exitCode: 1, stdout: '' });
    expect(normalise(run.stderr)).toBe(
      `context-ceiling: ${normalise(file)} is a symlink; config does not write through it (edit its target yourself, or replace the link with a file); nothing was changed\n`,
    );
    expect(readFileSync(target, 'utf8')).toBe('{"ceilingPct": 30}\n');
  });

  it("a project .claude symlinked out of the project (to someone's ~/.claude) is refused; nothing is written there", async () => {
    const outside = join(sandbox().root, 'outside-claude');
    mkdirSync(outside);
    symlinkSync(outside, join(sandbox().project, '.claude'));
    const run = await cli(['config', 'set', 'ceilingPct', '35', '--project']);
    expect(run).toMatchObject({ exitCode: 1, stdout: '' });
    expect(normalise(run.stderr)).toBe(
      'context-ceiling: <root>/project/.claude leads out of the project (to <root>/outside-claude); config writes only inside the project; nothing was changed\n',
    );
    expect(existsSync(join(outside, 'context-ceiling.json'))).toBe(false);
  });

  it.each([
    ['that is not JSON', '{ "ceilingPct": 30,', /: not valid JSON \(.+\); fix or remove it; nothing was changed\n$/],
    ['that is not an object', '[1, 2]', /: not a JSON object; fix or remove it; nothing was changed\n$/],
    [
      'a duplicate key',
      '{"ceilingPct": 30, "ceilingPct": 31}',
      /: the key "ceilingPct" appears twice in one object, which rewriting would lose; fix that first; nothing was changed\n$/,
    ],
  ])('a file %s is refused and left as it was', async (_what, text, message) => {
    mkdirSync(join(sandbox().home, '.claude'));
    writeFileSync(userFile(), text);
    const run = await cli(['config', 'set', 'monitor', 'off']);
    expect(run).toMatchObject({ exitCode: 1, stdout: '' });
    expect(run.stderr).toMatch(message);
    expect(readFileSync(userFile(), 'utf8')).toBe(text);
  });

  it.skipIf(process.getuid?.() !== 0)('a file another uid owns is refused (needs root to give the file away)', async () => {
    const file = sandbox().write('project/.claude/context-ceiling.json', '{}\n');
    const { chownSync } = await import('node:fs');
    chownSync(file, 4242, 4242);
    const run = await cli(['config', 'set', 'monitor', 'off', '--project']);
    expect(run).toMatchObject({ exitCode: 1, stdout: '' });
    expect(run.stderr).toMatch(/context-ceiling\.json belongs to uid 4242, not you; nothing was changed\n$/);
    expect(readFileSync(file, 'utf8')).toBe('{}\n');
  });

  it.each([
    [['config', 'set', 'ceilingPct'], 'config set needs a KEY and a VALUE'],
    [['config', 'unset'], 'config unset needs exactly one KEY'],
    [['config', 'set', 'ceilingPct', '35', '--user', '--project'], 'choose --user or --project, not both'],
    [['config', 'show', '--project'], '--user and --project choose the file config set and unset write'],
  ])('%j: one line and usage, exit 1', async (args, message) => {
    const run = await cli(args);
    expect(run).toMatchObject({ exitCode: 1, stdout: '' });
    expect(run.stderr.split('\n')[0]).toBe(`context-ceiling: ${message}`);
  });
});

describe('config set: negative numbers, relative state directories, presets', () => {
  it.each([
    [['config', 'set', 'ceilingPct', '-5'], 'ceilingPct: "-5" refused: expected a whole number from 1 to 100'],
    [['config', 'set', 'ceilingPct', '-5', '--user'], 'ceilingPct: "-5" refused: expected a whole number from 1 to 100'],
    [['config', 'set', 'window', '-1000000'], 'window: "-1000000" refused: expected a whole number from 1000 to 100000000'],
    [['config', 'set', 'stateDir', 'state'], 'stateDir: "state" refused: must be an absolute path'],
    [['config', 'set', 'stateDir', '~/state'], 'stateDir: "~/state" refused: must be an absolute path'],
    [
      ['config', 'set', 'extends', 'strict'],
      'extends: "strict" refused: expected a preset, one of default, strict-ci, large-window, strict-skills',
    ],
  ])('%j: refused for the value, one line and usage, exit 1, nothing written', async (args, message) => {
    const run = await cli(args);
    expect(run).toMatchObject({ exitCode: 1, stdout: '' });
    const [line, usage] = run.stderr.split('\n');
    expect(line).toBe(`context-ceiling: ${message}`);
    expect(usage).toMatch(/^Usage: context-ceiling config show /);
    expect(existsSync(userFile())).toBe(false);
  });

  it('config set extends strict-ci: written, validated, and what the preset now supplies is shown in force', async () => {
    const run = await cliOk(['config', 'set', 'extends', 'strict-ci']);
    expect(read(userFile())).toEqual({ extends: 'strict-ci' });
    expect(normalise(run.stdout.split('\n')[0]!)).toBe(
      'context-ceiling: set extends to strict-ci in <root>/home/.claude/context-ceiling.json (user file; it was not set there)',
    );
    expect(run.stdout).toContain('in force: strict = true  (preset (strict-ci, extended by');
    await cliOk(['config', 'unset', 'extends']);
    expect(read(userFile())).toEqual({});
  });

  it('a relative stateDir in the user file: config validate and config show name it and exit 1', async () => {
    mkdirSync(join(sandbox().home, '.claude'));
    writeFileSync(userFile(), '{ "stateDir": "state" }\n');
    for (const args of [
      ['config', 'validate'],
      ['config', 'show'],
    ]) {
      const run = await cli(args);
      expect(run.exitCode).toBe(1);
      expect(normalise(run.stderr)).toContain('<root>/home/.claude/context-ceiling.json: stateDir: must be an absolute path');
    }
  });

  it('a relative DEV_TEAM_CONTEXT_STATE_DIR: ignored with its reason; the hooks keep state in the default directory', {
    tags: ['hook'],
  }, async () => {
    const show = await cli(['config', 'show'], { DEV_TEAM_CONTEXT_STATE_DIR: 'state' });
    expect(show.stderr).toContain('DEV_TEAM_CONTEXT_STATE_DIR="state" ignored: must be an absolute path');
    const transcript = sandbox().write('claude/t.jsonl', aTranscript().assistant({ cacheRead: 449_995 }).toString());
    const run = await runHook(sandbox(), preToolUse(transcript, 'Agent', {}, { cwd: sandbox().project }), {
      CLAUDE_PROJECT_DIR: sandbox().project,
      DEV_TEAM_CONTEXT_STATE_DIR: 'state',
    });
    expectWarned(run);
    expect(existsSync(join(sandbox().project, 'state'))).toBe(false);
    expect(existsSync(join(sandbox().home, '.local', 'state', 'context-ceiling', 'sessions'))).toBe(true);
  });
});
