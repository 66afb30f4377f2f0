/**
 * What runs the hooks: by default the hook command runs Bun where it is installed and Node otherwise, decided by
 * the shell each time the hook runs (a Bun older than the floor hands the run to Node); `--runtime node` is Node. The written command is run as Claude Code runs it (bash), with `bun` and
 * `node` stand-ins on the PATH that log their call and hand over to the real runtime.
 */
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { expectedHooks } from '../helpers/hook-table.js';
import { FIXTURES, ROOT, useProjectSandbox } from '../helpers/sandbox.js';

const { sandbox, cli, cliOk } = useProjectSandbox();
const settingsPath = () => join(sandbox().project, '.claude', 'settings.json');
const settings = () => JSON.parse(readFileSync(settingsPath(), 'utf8'));
const RUNTIME = '$CLAUDE_PROJECT_DIR/.claude/context-ceiling/runtime';
/** The devDependency's Bun (package.json): the real runtime the bun stand-in hands over to. */
const REAL_BUN = join(ROOT, 'node_modules', '.bin', 'bun');

/**
 * A folder holding stand-ins for the runtimes named: each logs its name, then runs the real one. `old-bun` is the
 * real Bun made to report a version below the floor (a preload sets process.versions.bun), as an old install would.
 */
function standIns(names: ('bun' | 'node' | 'old-bun')[]): { bin: string; log: string } {
  const log = join(sandbox().root, 'runtimes.log');
  const bin = dirname(sandbox().write('bin/.keep', ''));
  const older = sandbox().write('old-bun.cjs', "process.versions.bun = '1.1.0';\n");
  for (const name of names) {
    const real = name === 'node' ? `"${process.execPath}"` : name === 'bun' ? `"${REAL_BUN}"` : `"${REAL_BUN}" --preload "${older}"`;
    const path = join(bin, name === 'old-bun' ? 'bun' : name);
    writeFileSync(path, `#!/bin/sh\necho ${name} >> "${log}"\nexec ${real} "$@"\n`);
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

const guardCommand = () => settings().hooks.PreToolUse[0].hooks[0].command as string;

describe('what runs the hooks (install --runtime)', () => {
  it('by default every hook runs Bun when bun is on the PATH, and the verdict is the same', async () => {
    const run = await cliOk(['install']);
    expect(run.stdout).toContain('the hooks run with Bun where `bun` 1.4.4 or newer is on the PATH, else with Node');
    expect(settings().hooks).toEqual(expectedHooks(RUNTIME));
    const { bin, log } = standIns(['bun', 'node']);
    const hook = await runInstalledGuard(guardCommand(), `${bin}:/usr/bin:/bin`);
    expect(hook.exitCode, hook.stderr).toBe(0);
    expect(readFileSync(log, 'utf8')).toBe('bun\n');
    expect(hook.reason).toBe('block over-ceiling-blocked');
    expect(JSON.parse(hook.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
  });

  it('by default, where bun is not installed when the hook runs, Node runs it instead', async () => {
    await cliOk(['install']);
    const { bin, log } = standIns(['node']);
    const hook = await runInstalledGuard(guardCommand(), `${bin}:/usr/bin:/bin`);
    expect(hook.exitCode, hook.stderr).toBe(0);
    expect(readFileSync(log, 'utf8')).toBe('node\n');
    expect(hook.reason).toBe('block over-ceiling-blocked');
    expect(hook.stderr).toContain('blocked');
  });

  it('a Bun older than the floor starts, and hands the run to Node: the same verdict reaches the client', async () => {
    await cliOk(['install']);
    const { bin, log } = standIns(['old-bun', 'node']);
    const hook = await runInstalledGuard(guardCommand(), `${bin}:/usr/bin:/bin`);
    expect(hook.exitCode, hook.stderr).toBe(0);
    expect(readFileSync(log, 'utf8')).toBe('old-bun\nnode\n');
    expect(hook.reason).toBe('block over-ceiling-blocked');
    expect(JSON.parse(hook.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
  });

  it('a Bun older than the floor with no Node to hand over to lets the call through, and says why', async () => {
    await cliOk(['install']);
    const { bin, log } = standIns(['old-bun']);
    const hook = await runInstalledGuard(guardCommand(), bin); // no system folder: no node anywhere on the PATH
    expect(readFileSync(log, 'utf8')).toBe('old-bun\n');
    expect(hook.exitCode).toBe(0);
    expect(hook.stdout).toBe('');
    expect(hook.stderr).toContain('Bun 1.1.0 is older than 1.4.4 and Node could not run the hook');
  });

  it('--runtime node runs Node even where bun is installed', async () => {
    const run = await cliOk(['install', '--runtime', 'node']);
    expect(run.stdout).toContain('the hooks run with Node (--runtime node)');
    expect(settings().hooks).toEqual(expectedHooks(RUNTIME, 'node'));
    const { bin, log } = standIns(['bun', 'node']);
    const hook = await runInstalledGuard(guardCommand(), `${bin}:/usr/bin:/bin`);
    expect(readFileSync(log, 'utf8')).toBe('node\n');
    expect(hook.reason).toBe('block over-ceiling-blocked');
  });

  it('auto and bun (an earlier name) are the default; switching updates the hooks in place; uninstall removes either form', async () => {
    await cliOk(['install', '--runtime', 'node']);
    expect(settings().hooks).toEqual(expectedHooks(RUNTIME, 'node'));
    for (const flag of ['auto', 'bun']) {
      await cliOk(['install', '--runtime', 'node']);
      const run = await cliOk(['install', '--runtime', flag]);
      expect(run.stdout).toContain('~ PreToolUse [Agent|Task|Skill|Workflow]: if command -v bun');
      expect(settings().hooks).toEqual(expectedHooks(RUNTIME));
    }
    const run = await cliOk(['uninstall']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(settings().hooks).toBeUndefined();
  });

  it('--json says what runs the hooks: auto by default, node when asked', async () => {
    expect(JSON.parse((await cliOk(['install', '--json'])).stdout).hookRuntime).toBe('auto');
    expect(JSON.parse((await cliOk(['install', '--runtime', 'node', '--json'])).stdout).hookRuntime).toBe('node');
  });

  it('an unknown runtime is a usage error', async () => {
    const run = await cli(['install', '--runtime', 'deno']);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('--runtime takes auto or node (got "deno")');
  });
});

describe('what runs the status line (install --statusline): as the hooks, Bun where installed', () => {
  /** Run the installed statusLine command as Claude Code does (bash -c), with a turn's status input. */
  const runStatusLine = (path: string) =>
    execa('/bin/bash', ['-c', settings().statusLine.command as string], {
      cwd: sandbox().project,
      env: sandbox().env({ PATH: path, CLAUDE_PROJECT_DIR: sandbox().project }),
      extendEnv: false,
      input: readFileSync(join(FIXTURES, 'statusline-after-turn.json'), 'utf8'),
      reject: false,
    });
  const LINE = /^ctx 12% .* 121,005\/1,000,000 /;

  it.each([
    [['bun', 'node'], 'bun\n'],
    [['node'], 'node\n'],
    [['old-bun', 'node'], 'old-bun\nnode\n'],
  ] as const)('by default, with %j on the PATH: run by %j, the same line', async (runtimes, ran) => {
    await cliOk(['install', '--statusline']);
    const { bin, log } = standIns([...runtimes]);
    const line = await runStatusLine(`${bin}:/usr/bin:/bin`);
    expect([line.exitCode, line.stderr]).toEqual([0, '']);
    expect(line.stdout).toMatch(LINE);
    expect(readFileSync(log, 'utf8')).toBe(ran);
  });

  it('an old Bun with no Node to hand over to shows the fallback line, and says why', async () => {
    await cliOk(['install', '--statusline']);
    const { bin, log } = standIns(['old-bun']);
    const line = await runStatusLine(bin);
    expect(readFileSync(log, 'utf8')).toBe('old-bun\n');
    expect(line.exitCode).toBe(0);
    expect(line.stdout).toBe('ctx – context-ceiling failed (context-ceiling doctor)');
    expect(line.stderr).toContain('Bun 1.1.0 is older than 1.4.4 and Node could not run the status line');
  });

  it("--runtime node: Node, whatever Bun is on the PATH; the user's wrapped command survives the switch", async () => {
    sandbox().write('project/.claude/settings.json', JSON.stringify({ statusLine: { type: 'command', command: "echo 'my line'" } }));
    await cliOk(['install', '--statusline']);
    await cliOk(['install', '--statusline', '--runtime', 'node']);
    expect(settings().statusLine.command).toBe(`node --preserve-symlinks-main "${RUNTIME}/statusline.cjs" --wrap 'echo '\\''my line'\\'''`);
    const { bin, log } = standIns(['bun', 'node']);
    const line = await runStatusLine(`${bin}:/usr/bin:/bin`);
    expect(line.stdout).toMatch(/^my line {2}ctx 12% /);
    expect(readFileSync(log, 'utf8')).toBe('node\n');
  });
});

describe('doctor names what runs the hooks, and proves it runs them', () => {
  const hooksLine = (stdout: string) => stdout.split('\n').find((line) => / hooks /.test(line)) ?? '';

  it('Bun where the shell finds it, Node where it does not, Node where only an old Bun is found', async () => {
    await cliOk(['install']);
    const withBun = standIns(['bun']).bin;
    expect(hooksLine((await cliOk(['doctor'], { PATH: `${withBun}:/usr/bin:/bin` })).stdout)).toMatch(
      /^✓ hooks .*all 6 events, .*, run by Bun 1\.4\.4$/,
    );
    expect(hooksLine((await cliOk(['doctor'], { PATH: '/usr/bin:/bin' })).stdout)).toMatch(/^✓ hooks .*, run by Node$/);
    const withOld = standIns(['old-bun']).bin;
    expect(hooksLine((await cliOk(['doctor'], { PATH: `${withOld}:/usr/bin:/bin` })).stdout)).toMatch(
      /^✓ hooks .*, run by Node \(.*\/bun is Bun 1\.1\.0, older than 1\.4\.4: each hook hands its run to Node\)$/,
    );
  });

  it('--runtime node: Node, whatever Bun is on the PATH', async () => {
    await cliOk(['install', '--runtime', 'node']);
    const { bin } = standIns(['bun']);
    expect(hooksLine((await cliOk(['doctor'], { PATH: `${bin}:/usr/bin:/bin` })).stdout)).toMatch(/^✓ hooks .*, run by Node$/);
  });

  it('a Bun that cannot run the hooks fails the check: doctor ran the hook with it', async () => {
    await cliOk(['install']);
    const bin = dirname(sandbox().write('broken/.keep', ''));
    writeFileSync(join(bin, 'bun'), `#!/bin/sh\n[ "$1" = -e ] && exec "${REAL_BUN}" "$@"\necho "bun: crashed" >&2; exit 3\n`);
    chmodSync(join(bin, 'bun'), 0o755);
    const run = await cli(['doctor'], { PATH: `${bin}:/usr/bin:/bin` });
    expect(run.exitCode).toBe(1);
    expect(hooksLine(run.stdout)).toMatch(/^✗ hooks .*which does not work \(hook\.cjs states no verdict: bun: crashed\)/);
  });
});

describe('doctor names what runs our status line, and proves it prints the fill', () => {
  const statusCheck = (stdout: string) =>
    stdout.split('\n').filter((line) => /^. status /.test(line) || /^ {10}fix: .*--statusline/.test(line));

  it('Bun where the shell finds it, Node where it does not; none checked when the status line is not ours', async () => {
    await cliOk(['install']);
    expect(statusCheck((await cliOk(['doctor'])).stdout)).toEqual([]); // no status line installed: nothing of ours to check
    await cliOk(['install', '--statusline']);
    const withBun = standIns(['bun', 'node']);
    expect(statusCheck((await cliOk(['doctor'], { PATH: `${withBun.bin}:/usr/bin:/bin` })).stdout)).toEqual([
      `✓ status  the status line of .claude/settings.json is ours, from ${sandbox().project}/.claude/context-ceiling/runtime, run by Bun 1.4.4: it shows the fill`,
    ]);
    expect(readFileSync(withBun.log, 'utf8')).toMatch(/^bun\n/m); // doctor ran it with that Bun
    expect(statusCheck((await cliOk(['doctor'], { PATH: '/usr/bin:/bin' })).stdout)).toEqual([
      `✓ status  the status line of .claude/settings.json is ours, from ${sandbox().project}/.claude/context-ceiling/runtime, run by Node: it shows the fill`,
    ]);
    // Someone else's status line (the local file's wins over the project's) is not ours to check.
    sandbox().write('project/.claude/settings.local.json', JSON.stringify({ statusLine: { type: 'command', command: 'echo mine' } }));
    expect(statusCheck((await cliOk(['doctor'])).stdout)).toEqual([]);
  });

  it("a status line that prints no fill fails the check, with the reason and the fix; the user's state is untouched", async () => {
    await cliOk(['install', '--user', '--statusline']);
    const runtime = join(sandbox().home, '.claude', 'context-ceiling', 'runtime');
    writeFileSync(join(runtime, 'statusline-main.cjs'), 'throw new Error("broken on purpose");\n');
    const run = await cli(['doctor']);
    expect(run.exitCode).toBe(1);
    expect(statusCheck(run.stdout)).toEqual([
      `✗ status  the status line of ~/.claude/settings.json is ours, from ${runtime}, which does not work (statusline.cjs printed no fill: context-ceiling: the status line failed and showed no measurement: broken on purpose (context-ceiling doctor shows the last error)): no fill shows, and the window Claude Code reports is not kept`,
      '          fix: run context-ceiling install --user --statusline again',
    ]);
    // Run in a home of its own: the failure it provoked is not recorded as the user's last error.
    expect(run.stdout).toMatch(/^✓ errors {2}no hook, status line or SDK guard has failed unexpectedly$/m);
  });
});

describe("doctor runs no code a project's settings name unless it is our own", () => {
  /** A runtime folder in the project whose every file, once run or loaded, leaves a mark: what a hostile clone ships. */
  const hostile = () => {
    const mark = join(sandbox().root, 'ran.log');
    for (const file of ['hook.cjs', 'statusline.cjs', 'statusline-main.cjs', 'policy-parse.cjs', 'hook-pre-tool-use.cjs'])
      sandbox().write(
        `project/tools/context-ceiling/${file}`,
        `require('node:fs').appendFileSync(${JSON.stringify(mark)}, ${JSON.stringify(`${file}\n`)});\n`,
      );
    return { dir: join(sandbox().project, 'tools', 'context-ceiling'), mark };
  };

  it("hooks and a status line naming a folder of the clone's own: reported, not run (nothing marked)", async () => {
    const { dir, mark } = hostile(); // named as ours are: a folder called context-ceiling
    sandbox().write(
      'project/.claude/settings.json',
      JSON.stringify({
        hooks: expectedHooks('$CLAUDE_PROJECT_DIR/tools/context-ceiling'),
        statusLine: { type: 'command', command: `node "$CLAUDE_PROJECT_DIR/tools/context-ceiling/statusline.cjs"` },
      }),
    );
    const run = await cli(['doctor', '--json']);
    const checks = JSON.parse(run.stdout).checks as { name: string; status: string; detail: string; fix?: string }[];
    expect(checks.filter((check) => check.name === 'hooks' || check.name === 'status')).toEqual([
      {
        name: 'hooks',
        status: 'warn',
        detail: `the hooks of .claude/settings.json run from ${dir}, whose hook.cjs is not this context-ceiling's own, so doctor did not run it (a project's settings can name any folder; Claude Code runs it once you trust the project)`,
        fix: "run context-ceiling install again to put this version's runtime there, or look at that folder yourself",
      },
      {
        name: 'status',
        status: 'warn',
        detail: `the status line of .claude/settings.json run from ${dir}, whose hook.cjs is not this context-ceiling's own, so doctor did not run it (a project's settings can name any folder; Claude Code runs it once you trust the project)`,
        fix: "run context-ceiling install --statusline again to put this version's runtime there, or look at that folder yourself",
      },
    ]);
    expect(existsSync(mark)).toBe(false);
  });

  it('the control: a copy of our own runtime in the project is run and checked', async () => {
    await cliOk(['install', '--statusline']);
    const run = await cliOk(['doctor']);
    expect(run.stdout).toMatch(/^✓ hooks /m);
    expect(run.stdout).toMatch(/^✓ status .* it shows the fill$/m);
  });

  it('one changed file in an installed copy is enough: not run, with the way to put ours back', async () => {
    await cliOk(['install']);
    const runtime = join(sandbox().project, '.claude', 'context-ceiling', 'runtime');
    const mark = join(sandbox().root, 'ran.log');
    writeFileSync(join(runtime, 'policy-parse.cjs'), `require('node:fs').writeFileSync(${JSON.stringify(mark)}, 'ran');\n`);
    const run = await cliOk(['doctor']);
    expect(run.stdout).toContain(
      `! hooks   the hooks of .claude/settings.json run from ${runtime}, whose policy-parse.cjs is not this context-ceiling's own, so doctor did not run it`,
    );
    expect(existsSync(mark)).toBe(false);
    await cliOk(['install']);
    expect((await cliOk(['doctor'])).stdout).toMatch(/^✓ hooks /m);
  });
});

describe('runtime files an earlier version wrote', () => {
  const recordPath = () => join(sandbox().project, '.claude', 'context-ceiling', 'install-settings.json');

  it.each(['hook-events.cjs', 'guard-voice.cjs'])(
    '%s is removed by the next install when the record proves it ours, and kept when not',
    async (file) => {
      const retired = () => join(sandbox().project, '.claude', 'context-ceiling', 'runtime', file);
      await cliOk(['install']);
      writeFileSync(retired(), 'module.exports = {}; // an earlier version\n');
      const record = JSON.parse(readFileSync(recordPath(), 'utf8'));
      record.runtimeHashes[file] = createHash('sha256').update(readFileSync(retired())).digest('hex');
      writeFileSync(recordPath(), JSON.stringify(record));
      await cliOk(['install', '--runtime', 'node']);
      expect(existsSync(retired())).toBe(false);
      writeFileSync(retired(), 'someone else wrote this\n');
      await cliOk(['install']);
      expect(existsSync(retired())).toBe(true);
    },
  );
});
