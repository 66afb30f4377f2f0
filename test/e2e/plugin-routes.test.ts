/**
 * The plugin routes README names, in the real client, from what a user has: the payload
 * inside the packed artifact added as a folder marketplace, and the repository served as a
 * git URL. Each checks that the hooks fire (a strict block reaches the model), which folder
 * the client runs the plugin from (its `init` event), what Claude Code copied, and that the
 * CLI, run as README says, finds the install.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BUN_FLOOR } from '../../src/core/bun-floor.js';
import { PAYLOAD_FILES, PAYLOAD_MAX_BYTES } from '../helpers/payload.js';
import { ROOT } from '../helpers/sandbox.js';
import { serveGit } from './git-http.js';
import { addPlugin, blockedLoad, blockReason, filesUnder, installTarballGlobally, pluginPath, userEnv } from './routes.js';
import { World, stopWorldsAfterEach } from './world.js';

let world: World | undefined;
stopWorldsAfterEach();

/** A plugin's block names the recovery skill by its plugin name, and carries no command line (a deny, not exit 2). */
function expectPluginBlock(afterBlock: string): void {
  expect(afterBlock).toContain(blockReason('context-ceiling:context-summarization'));
  expect(afterBlock).not.toContain('hook.cjs');
}

/** `node <cli> doctor --json` in the project, as a person would run it: the hooks check(s). */
/** What doctor says runs the hooks: Node, or in the Bun run (test/e2e/bun-runtime.test.ts) the pinned Bun on the PATH. */
const RUNNER = process.env.CC_HOOK_RUNTIME === 'bun' ? `Bun ${BUN_FLOOR}` : 'Node';

async function doctorHooks(w: World, cli: string): Promise<Array<{ status: string; detail: string }>> {
  const run = await execa(process.execPath, [cli, 'doctor', '--json'], {
    cwd: w.project,
    env: userEnv(w),
    extendEnv: false,
    reject: false,
  });
  expect(run.stderr).toBe('');
  return JSON.parse(String(run.stdout)).checks.filter((check: { name: string }) => check.name === 'hooks');
}

/** Claude Code's copy of the plugin holds the payload and nothing else (its own `.in_use` marker aside), under 1.25 MB. */
function expectOnlyPayload(copy: string): void {
  expect(filesUnder(copy).filter((file) => file !== '.in_use')).toEqual(PAYLOAD_FILES);
  expect(PAYLOAD_FILES.reduce((sum, file) => sum + statSync(join(copy, file)).size, 0)).toBeLessThan(PAYLOAD_MAX_BYTES);
}

describe('the plugin from a folder: the payload inside the packed artifact', () => {
  it('marketplace add <folder> + install: the hooks run from <folder>/plugin, which must stay there', async () => {
    world = new World();
    await world.start(null);
    const { pkg } = await installTarballGlobally(world);
    await addPlugin(world, pkg);
    const folder = join(pkg, 'plugin');
    const { afterBlock, run: blocked } = await blockedLoad(world);
    expectPluginBlock(afterBlock);
    expect(pluginPath(blocked)).toBe(folder);
    expectOnlyPayload(join(world.home, '.claude', 'plugins', 'cache', 'context-ceiling', 'context-ceiling', '0.1.0'));
    expect(await doctorHooks(world, join(folder, 'dist', 'cli.cjs'))).toEqual([
      {
        name: 'hooks',
        status: 'ok',
        detail: `plugin context-ceiling@context-ceiling enabled in ~/.claude/settings.json: its hooks run from ${folder}, in the folder its marketplace was added from (keep it there), by ${RUNNER}`,
      },
    ]);
    // Moved away, the plugin stops without a word from Claude Code; doctor (from the moved copy) says why.
    renameSync(pkg, `${pkg}-moved`);
    world.reply({ cacheRead: 10_000, text: 'fine' });
    const run = await world.claude('hello');
    expect(run.exitCode, run.stderr).toBe(0);
    expect(world.api.conversation.at(-1)!.text).not.toContain('<context-monitor>');
    expect(await doctorHooks(world, join(`${pkg}-moved`, 'plugin', 'dist', 'cli.cjs'))).toMatchObject([
      { status: 'fail', detail: expect.stringContaining(`but ${pkg} is gone: Claude Code skips the plugin without a word`) },
    ]);
  }, 180_000);
});

describe('the plugin from a git URL: the repository, as committed', () => {
  it('marketplace add <URL> + install: the hooks run from Claude Code’s copy, which holds only the payload', async () => {
    world = new World();
    await world.start(null);
    const served = join(world.root, 'served');
    mkdirSync(served);
    execFileSync('git', ['clone', '-q', '--bare', ROOT, join(served, 'context-ceiling.git')]);
    const git = await serveGit(served);
    try {
      await addPlugin(world, `${git.url}/context-ceiling.git`);
    } finally {
      await git.close();
    }
    const plugins = join(world.home, '.claude', 'plugins');
    const copy = join(plugins, 'cache', 'context-ceiling', 'context-ceiling', '0.1.0');
    const { afterBlock, run: blocked } = await blockedLoad(world);
    expectPluginBlock(afterBlock);
    expect(pluginPath(blocked)).toBe(copy);
    expectOnlyPayload(copy);
    // README's command for this route: the CLI in Claude Code's clone of the marketplace.
    expect(await doctorHooks(world, join(plugins, 'marketplaces', 'context-ceiling', 'plugin', 'dist', 'cli.cjs'))).toEqual([
      {
        name: 'hooks',
        status: 'ok',
        detail: `plugin context-ceiling@context-ceiling enabled in ~/.claude/settings.json: its hooks run from Claude Code's copy, ${copy}, by ${RUNNER}`,
      },
    ]);
  }, 180_000);
});

describe('the CLI inside a plugin session', () => {
  it('the plugin’s bin/ is on the PATH of Claude Code’s shell: `context-ceiling doctor` runs there (README: `! context-ceiling doctor`)', async () => {
    world = new World();
    await world.start(null);
    await addPlugin(world, ROOT);
    world.reply({ cacheRead: 10_000, toolUse: { name: 'Bash', input: { command: 'context-ceiling doctor', description: 'doctor' } } });
    world.reply({ cacheRead: 11_000, text: 'done' });
    const run = await world.claude('check the context-ceiling install', { args: ['--allowedTools', 'Bash(context-ceiling:*)'] });
    expect(run.exitCode, run.stderr).toBe(0);
    const afterTool = world.api.conversation.at(-1)!.text;
    expect(afterTool).toContain(
      `✓ hooks   plugin context-ceiling@context-ceiling enabled in ~/.claude/settings.json: its hooks run from ${ROOT}/plugin`,
    );
  }, 120_000);
});
