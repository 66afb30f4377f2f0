/**
 * The CLI reads the settings files' env the way Claude Code hands it to hooks,
 * checked against the real client: its hooks get the env blocks of
 * ~/.claude/settings.json < .claude/settings.json < .claude/settings.local.json
 * applied over the environment Claude Code was started with (a settings value
 * beats the shell's export of the same variable).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { CLI_BIN } from '../helpers/sandbox.js';
import { World, stopWorldsAfterEach } from './world.js';

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
