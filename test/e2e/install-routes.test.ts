/**
 * The settings routes README names, from the packed artifact, in the real client:
 * `npm i -g ./context-ceiling-*.tgz`, then `context-ceiling install --project` or
 * `--user`. The hooks must fire and run from the runtime copy install made, so they
 * keep working once the package itself is gone (README: "the hooks do not depend on
 * where the package lives"). The clone route (`node plugin/dist/cli.cjs install`) is
 * how every other end-to-end World installs. The e2e project's PATH holds no Bun (test/e2e/path-setup.ts), as
 * on a machine without it: these hooks run with Node; the last test puts a Bun on the PATH.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { expectedCommand } from '../helpers/hook-table.js';
import { BUN_BIN } from '../helpers/sandbox.js';
import { blockedLoad, blockReason, installTarballGlobally, userEnv } from './routes.js';
import { World, stopWorldsAfterEach } from './world.js';

let world: World | undefined;
stopWorldsAfterEach();

describe.each([
  {
    flag: '--project',
    settings: (w: World) => join(w.project, '.claude', 'settings.json'),
    runtime: (w: World) => join(w.project, '.claude', 'context-ceiling', 'runtime'),
    command: () => '$CLAUDE_PROJECT_DIR/.claude/context-ceiling/runtime',
  },
  {
    flag: '--user',
    settings: (w: World) => join(w.home, '.claude', 'settings.json'),
    runtime: (w: World) => join(w.home, '.claude', 'context-ceiling', 'runtime'),
    command: (w: World) => join(w.home, '.claude', 'context-ceiling', 'runtime'),
  },
])('npm i -g ./context-ceiling-*.tgz, then context-ceiling install $flag', ({ flag, settings, runtime, command }) => {
  it('the hooks fire in the real client, from the runtime copy, with the package uninstalled', async () => {
    world = new World();
    await world.start(null);
    const { prefix, bin } = await installTarballGlobally(world);
    const run = (args: string[]) => execa(bin, args, { cwd: world!.project, env: userEnv(world!), extendEnv: false, reject: false });
    const install = await run(['install', flag]);
    expect(install.exitCode, install.stderr).toBe(0);
    expect(install.stdout).toContain(
      `copied runtime (hook.cjs, hook-pre-tool-use.cjs, hook-user-prompt-submit.cjs, hook-pre-compact.cjs, hook-post-compact.cjs, hook-session-start.cjs, hook-post-tool-use.cjs, hook-save-checkpoint.cjs, launch-failed.cjs, policy-parse.cjs, yaml-parse.cjs, statusline.cjs, statusline-main.cjs) to ${runtime(world)}`,
    );
    const doctor = await run(['doctor']);
    expect(doctor.stdout).toMatch(new RegExp(`✓ hooks .*all 6 events, runtime ${runtime(world).replace(/[.]/g, '\\.')}`));
    // The guard the client runs is the runtime copy: settings.json names it, and it is the only copy left.
    const hooks = JSON.parse(readFileSync(settings(world), 'utf8')).hooks;
    expect(hooks.PreToolUse).toEqual([
      {
        matcher: 'Agent|Task|Skill|Workflow',
        hooks: [expect.objectContaining({ command: expectedCommand(command(world), 'pre-tool-use') })],
      },
    ]);
    rmSync(prefix, { recursive: true, force: true }); // npm uninstall -g, or a cleaned npx cache
    const { afterBlock } = await blockedLoad(world);
    expect(world.api.conversation[0]!.text).toContain('<context-monitor>');
    expect(afterBlock).toContain(blockReason('context-summarization')); // a deny: the reason, no command line in front of it
    expect(afterBlock).not.toContain('hook.cjs');
  }, 180_000);
});

describe('install, nothing else: Bun where it is installed', () => {
  it('the real client runs every hook with Bun where it is on the PATH, and the block reaches the model', async () => {
    // A `bun` first on the PATH that notes each run, then runs the pinned Bun: proof of which runtime ran.
    const shim = mkdtempSync(join(tmpdir(), 'cc-bun-shim-'));
    const log = join(shim, 'runs.log');
    writeFileSync(join(shim, 'bun'), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${BUN_BIN}' "$@"\n`, { mode: 0o755 });
    try {
      world = new World(undefined, { PATH: `${shim}:${dirname(process.execPath)}:${process.env.PATH ?? '/usr/bin:/bin'}` });
      await world.start();
      const hooks = JSON.parse(readFileSync(join(world.project, '.claude', 'settings.json'), 'utf8')).hooks;
      const runtime = '$CLAUDE_PROJECT_DIR/.claude/context-ceiling/runtime';
      expect(hooks.PreToolUse[0].hooks[0].command).toBe(expectedCommand(runtime, 'pre-tool-use'));
      const { afterBlock } = await blockedLoad(world);
      expect(world.api.conversation[0]!.text).toContain('<context-monitor>');
      expect(afterBlock).toContain(blockReason('context-summarization'));
      const events = readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split(' ').at(-1));
      // No PostToolUse: the denied Skill call never ran.
      expect(new Set(events)).toEqual(new Set(['session-start', 'user-prompt-submit', 'pre-tool-use']));
    } finally {
      rmSync(shim, { recursive: true, force: true });
    }
  }, 180_000);
});
