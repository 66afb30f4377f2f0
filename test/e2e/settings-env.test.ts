/**
 * The CLI reads the settings files' env the way Claude Code hands it to hooks,
 * checked against the real client: its hooks get the env blocks of
 * ~/.claude/settings.json < .claude/settings.json < .claude/settings.local.json
 * applied over the environment Claude Code was started with (a settings value
 * beats the shell's export of the same variable) — except the variables that
 * locate the user's home and Claude Code's folder, which the client takes from a
 * project's or local settings file never.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { CLI_BIN } from '../helpers/sandbox.js';
import { World, notices, stopWorldsAfterEach, verdicts } from './world.js';

let world: World | undefined;
stopWorldsAfterEach();

const PROBED = [
  'PROBE_USER',
  'PROBE_PROJECT',
  'PROBE_LOCAL',
  'PROBE_PROCESS',
  'PROBE_SHELL',
  'DEV_TEAM_CONTEXT_STRICT',
  'DEV_TEAM_CONTEXT_WINDOW',
  'DEV_TEAM_CONTEXT_CEILING_PCT',
];

describe('settings env, as hooks see it', () => {
  it('local > project > user, each over the process env; config show reports the same values', async () => {
    world = new World();
    await world.start();
    const out = join(world.root, 'probe.json');
    const probe = `node -e "const fs=require('fs');const n=${JSON.stringify(PROBED).replace(/"/g, "'")};fs.writeFileSync('${out}',JSON.stringify(Object.fromEntries(n.map(k=>[k,process.env[k]??null]))))"`;
    const settingsPath = join(world.project, '.claude', 'settings.json');
    const settings = JSON.parse(readFileSync(settingsPath, 'utf8'));
    settings.hooks.SessionStart = [...(settings.hooks.SessionStart ?? []), { hooks: [{ type: 'command', command: probe }] }];
    settings.env = {
      PROBE_PROJECT: 'project',
      PROBE_USER: 'project',
      PROBE_PROCESS: 'project',
      DEV_TEAM_CONTEXT_STRICT: 'on',
      DEV_TEAM_CONTEXT_WINDOW: '800000',
      DEV_TEAM_CONTEXT_CEILING_PCT: '35',
    };
    world.write('project/.claude/settings.json', JSON.stringify(settings));
    world.write(
      'project/.claude/settings.local.json',
      JSON.stringify({ env: { PROBE_LOCAL: 'local', PROBE_PROJECT: 'local', DEV_TEAM_CONTEXT_CEILING_PCT: '45' } }),
    );
    world.write(
      'home/.claude/settings.json',
      JSON.stringify({ env: { PROBE_USER: 'user', PROBE_LOCAL: 'user', DEV_TEAM_CONTEXT_WINDOW: '900000' } }),
    );
    const processEnv = { PROBE_PROCESS: 'process', PROBE_SHELL: 'process', DEV_TEAM_CONTEXT_STRICT: 'off' };

    world.reply({ cacheRead: 10_000, text: 'ok' });
    const run = await world.claude('hello', { env: processEnv });
    expect(run.exitCode, run.stderr).toBe(0);
    const seen = JSON.parse(readFileSync(out, 'utf8')) as Record<string, string | null>;

    const cli = await execa(process.execPath, [CLI_BIN, 'config', 'show', '--json'], {
      cwd: world.project,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: world.home,
        TMPDIR: world.tmp,
        NO_COLOR: '1',
        CLAUDE_PROJECT_DIR: world.project,
        ...processEnv,
      },
      extendEnv: false,
      reject: false,
    });
    expect(cli.exitCode, cli.stderr).toBe(0);
    expect(cli.stderr).toBe('');
    const shown = Object.fromEntries(
      (JSON.parse(cli.stdout).settings as Array<{ key: string; value: unknown; source: string; detail: string | null }>).map((s) => [
        s.key,
        s,
      ]),
    );
    expect({ seen, shown: { strict: shown.strict, window: shown.window, ceilingPct: shown.ceilingPct } }).toEqual({
      seen: {
        PROBE_USER: 'project',
        PROBE_PROJECT: 'local',
        PROBE_LOCAL: 'local',
        PROBE_PROCESS: 'project',
        PROBE_SHELL: 'process',
        DEV_TEAM_CONTEXT_STRICT: 'on',
        DEV_TEAM_CONTEXT_WINDOW: '800000',
        DEV_TEAM_CONTEXT_CEILING_PCT: '45',
      },
      shown: {
        strict: { key: 'strict', value: true, source: 'env', detail: '.claude/settings.json' },
        window: { key: 'window', value: 800_000, source: 'env', detail: '.claude/settings.json' },
        ceilingPct: { key: 'ceilingPct', value: 45, source: 'env', detail: '.claude/settings.local.json' },
      },
    });
  });
});

/** What locates the user's home and Claude Code's folder, and a path variable of ours (the control: it does reach hooks). */
const LOCATING = ['HOME', 'CLAUDE_CONFIG_DIR', 'XDG_STATE_HOME', 'TMPDIR', 'DEV_TEAM_CONTEXT_STATE_DIR'];

describe("a project's settings env cannot move the user's home", () => {
  it.each(['settings.json', 'settings.local.json'])(
    '.claude/%s setting HOME, CLAUDE_CONFIG_DIR, XDG_STATE_HOME and TMPDIR: a user hook sees the real ones; the guard keeps its state and policy there, and the CLI looks there too',
    async (file) => {
      world = new World();
      await world.start(['--user']); // the user's own hooks: the repository commits only data
      const out = join(world.root, 'probe.json');
      const probe = `node -e "const fs=require('fs');const n=${JSON.stringify(LOCATING).replace(/"/g, "'")};fs.writeFileSync('${out}',JSON.stringify(Object.fromEntries(n.map(k=>[k,process.env[k]??null]))))"`;
      const userSettings = JSON.parse(readFileSync(join(world.home, '.claude', 'settings.json'), 'utf8'));
      userSettings.hooks.SessionStart = [...(userSettings.hooks.SessionStart ?? []), { hooks: [{ type: 'command', command: probe }] }];
      world.write('home/.claude/settings.json', JSON.stringify(userSettings));
      // A home the repository would choose: its "user's" policy moves the state directory into the clone.
      const forged = join(world.project, 'forged-home');
      world.write('project/forged-home/.claude/context-ceiling.json', JSON.stringify({ stateDir: join(world.project, 'forged-state') }));
      const named = join(world.root, 'public_html');
      world.write(
        `project/.claude/${file}`,
        JSON.stringify({
          env: {
            HOME: forged,
            CLAUDE_CONFIG_DIR: join(forged, '.claude'),
            XDG_STATE_HOME: join(forged, '.local', 'state'),
            TMPDIR: join(forged, 'tmp'),
            DEV_TEAM_CONTEXT_STATE_DIR: named,
          },
        }),
      );
      world.skill('deep-dive');
      const xdg = join(world.root, 'xdg'); // the user's own XDG_STATE_HOME, exported in the shell
      // A first turn at 450,000 tokens, so the Skill call is judged by it even when its own turn reaches the
      // transcript after the guard has looked.
      const session = await world.sessionAt(450_000, { XDG_STATE_HOME: xdg });
      world.reply({ cacheRead: 450_000, toolUse: { name: 'Skill', input: { skill: 'deep-dive' } } }, { text: 'done', cacheRead: 450_000 });
      const run = await world.claude('load the skill', { resume: session, stream: true, verdicts: true, env: { XDG_STATE_HOME: xdg } });
      expect(run.exitCode, run.stderr).toBe(0);
      // Claude Code withholds what locates the home from a project's or local settings file; our own path variable
      // from the same file does reach the hook (and the guard ignores it, saying so once).
      expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({
        HOME: world.home,
        CLAUDE_CONFIG_DIR: null,
        XDG_STATE_HOME: xdg,
        TMPDIR: world.tmp,
        DEV_TEAM_CONTEXT_STATE_DIR: named,
      });
      expect(verdicts(run), JSON.stringify(verdicts(run))).toContain('pre-tool-use: warn over-ceiling +notice');
      expect(notices(run).join('\n')).toContain(
        `context-ceiling: ignored DEV_TEAM_CONTEXT_STATE_DIR from .claude/${file}: a project's settings may not name a path for context-ceiling`,
      );
      expect(notices(run).join('\n')).not.toMatch(/\bHOME\b|CLAUDE_CONFIG_DIR|XDG_STATE_HOME/);
      // The warning was kept in the user's own state directory, nowhere the repository named.
      const state = join(xdg, 'context-ceiling');
      expect(readdirSync(state)).toContain('events.jsonl');
      expect([existsSync(named), existsSync(join(world.project, 'forged-state')), existsSync(join(forged, '.local'))]).toEqual([
        false,
        false,
        false,
      ]);
      // The CLI, run from the same shell, looks where the hooks wrote, and warns only of the path variable.
      const doctor = await execa(process.execPath, [CLI_BIN, 'doctor', '--json'], {
        cwd: world.project,
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: world.home,
          TMPDIR: world.tmp,
          XDG_STATE_HOME: xdg,
          NO_COLOR: '1',
          CLAUDE_PROJECT_DIR: world.project,
        },
        extendEnv: false,
        reject: false,
      });
      const checks = JSON.parse(doctor.stdout).checks as Array<{ name: string; detail: string }>;
      expect(checks.find((c) => c.name === 'state')!.detail).toContain(state);
      const config = checks.find((c) => c.name === 'config')!.detail;
      expect(config).toContain(`DEV_TEAM_CONTEXT_STATE_DIR="${named}" ignored: set in .claude/${file}`);
      expect(config).not.toMatch(/\bHOME\b|CLAUDE_CONFIG_DIR|XDG_STATE_HOME/);
    },
  );
});
