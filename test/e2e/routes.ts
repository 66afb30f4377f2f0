/**
 * What the install-route tests share: the packed artifact installed as a user would
 * (globally, into a temp prefix, offline), `claude plugin …` in a World, a strict block
 * as the proof that the hooks fire, and where the client says a plugin runs from (its
 * `init` event). A block is a `deny` decision, so its tool result no longer carries the
 * hook's command line (CLAUDE-CODE-FACTS.md, "What a block looks like").
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { execa } from 'execa';
import { expect, inject } from 'vitest';
import { CLAUDE_BIN, type ClaudeResult, type World } from './world.js';

/** A stated window and strict mode: a load at 45 % (90,005 of 200,000) blocks. */
export const STRICT = { DEV_TEAM_CONTEXT_STRICT: 'on', DEV_TEAM_CONTEXT_WINDOW: '200000' };

/** The environment a person's shell would give: the World's HOME and TMPDIR, no network beyond loopback. */
export function userEnv(world: World): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: world.home,
    TMPDIR: world.tmp,
    NO_COLOR: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    npm_config_cache: join(world.root, 'npm-cache'),
    npm_config_update_notifier: 'false',
  };
}

export type GlobalInstall = { prefix: string; bin: string; pkg: string };

/** `npm i -g ./context-ceiling-*.tgz`, into `<world>/prefix`, offline (the package has no dependencies). */
export async function installTarballGlobally(world: World): Promise<GlobalInstall> {
  const prefix = join(world.root, 'prefix');
  await execa('npm', ['install', '--global', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', inject('tarball')], {
    cwd: world.root,
    env: userEnv(world),
    extendEnv: false,
  });
  return { prefix, bin: join(prefix, 'bin', 'context-ceiling'), pkg: join(prefix, 'lib', 'node_modules', 'context-ceiling') };
}

/** `claude <args>` (plugin management) in the World's project, with no prompt to answer. */
async function claudeCommand(world: World, args: string[]): Promise<void> {
  const run = await execa(CLAUDE_BIN, args, {
    cwd: world.project,
    env: userEnv(world),
    extendEnv: false,
    reject: false,
    timeout: 90_000,
    stdin: 'ignore',
  });
  expect(run.exitCode, `claude ${args.join(' ')}: ${run.stdout}${run.stderr}`).toBe(0);
}

/** `claude plugin marketplace add <source>` then `claude plugin install context-ceiling@context-ceiling`. */
export async function addPlugin(world: World, source: string): Promise<void> {
  await claudeCommand(world, ['plugin', 'marketplace', 'add', source]);
  await claudeCommand(world, ['plugin', 'install', 'context-ceiling@context-ceiling']);
}

/**
 * A strict session at 45 % loads a skill (streamed, so the run's events say which plugins the client loaded from
 * where): everything the model is shown after the call (`PreToolUse:Skill hook error: <reason>` when our guard
 * blocked it), and the run.
 */
export async function blockedLoad(world: World, args: string[] = []): Promise<{ afterBlock: string; run: ClaudeResult }> {
  world.skill('deep-dive');
  world.reply({ cacheRead: 89_000, text: 'ready' });
  const first = await world.claude('get ready', { env: STRICT, args });
  expect(first.exitCode, first.stderr).toBe(0);
  const mark = world.api.requests.length - 1;
  world.reply({ cacheRead: 90_000, toolUse: { name: 'Skill', input: { skill: 'deep-dive' } } }, { cacheRead: 90_500, text: 'done' });
  const run = await world.claude('use the deep-dive skill', { resume: first.sessionId!, env: STRICT, args, stream: true });
  expect(run.exitCode, run.stderr).toBe(0);
  const [, afterTool] = world.api.conversation.filter((request) => request.index > mark);
  return { afterBlock: afterTool!.text, run };
}

/** The block blockedLoad provokes, as the model reads it, for a recovery skill invoked as `/<recovery>`. */
export function blockReason(recovery: string): string {
  return (
    'PreToolUse:Skill hook error: Blocked by the context ceiling (strict mode), not an error in the Skill tool: ' +
    'context is at 45% (90,005 of 200,000 tokens; window: env), over the 40% ceiling, so Skill "deep-dive" was not loaded. ' +
    `To bring context back under the ceiling, run the /${recovery} skill, then retry; recovery skills are never blocked.`
  );
}

/** Where the client says it loaded the context-ceiling plugin from in this run (its stream-json `init` event). */
export function pluginPath(run: ClaudeResult): string | undefined {
  const init = run.events.find((e) => e.type === 'system' && e.subtype === 'init');
  const plugins = (init?.plugins ?? []) as Array<{ name: string; path: string }>;
  return plugins.find((plugin) => plugin.name === 'context-ceiling')?.path;
}

/** Every file under `dir`, relative, sorted. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}
