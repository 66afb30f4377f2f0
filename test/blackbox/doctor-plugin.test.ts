/** doctor and a plugin install: where Claude Code runs the plugin from, and a folder that is gone. */
import { existsSync, renameSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { folderMarketplace, gitMarketplace } from '../helpers/plugin-records.js';
import { BUN_BIN, useProjectSandbox } from '../helpers/sandbox.js';

const { sandbox, cli } = useProjectSandbox();
type Check = { name: string; status: string; detail: string; fix?: string };

const enable = (extra: Record<string, unknown> = {}) =>
  sandbox().write(
    'home/.claude/settings.json',
    JSON.stringify({ enabledPlugins: { 'context-ceiling@context-ceiling': true }, env: { DEV_TEAM_CONTEXT_WINDOW: '1000000' }, ...extra }),
  );
/** doctor on a PATH without Bun (the plugin's hooks then run with Node), or with `bin` first on it. */
const hooksChecks = async (bin?: string) => {
  const run = await cli(['doctor', '--json'], { PATH: `${bin ? `${bin}:` : ''}${dirname(process.execPath)}:/usr/bin:/bin` });
  expect(run.stderr).toBe('');
  return { exitCode: run.exitCode, hooks: (JSON.parse(run.stdout).checks as Check[]).filter((check) => check.name === 'hooks') };
};

describe('doctor: the plugin route', () => {
  it('a marketplace added from a folder: the hooks run from <folder>/plugin, which must stay there', async () => {
    const clone = folderMarketplace(sandbox());
    enable();
    expect(await hooksChecks()).toEqual({
      exitCode: 0,
      hooks: [
        {
          name: 'hooks',
          status: 'ok',
          detail: `plugin context-ceiling@context-ceiling enabled in ~/.claude/settings.json: its hooks run from ${clone}/plugin, in the folder its marketplace was added from (keep it there), by Node`,
        },
      ],
    });
  });

  it('with Bun on the PATH the plugin’s hooks run with it: doctor names it, having run the hook with it', async () => {
    const clone = folderMarketplace(sandbox());
    enable();
    const bin = dirname(sandbox().write('bin/.keep', ''));
    symlinkSync(BUN_BIN, join(bin, 'bun'));
    expect((await hooksChecks(bin)).hooks).toMatchObject([
      { status: 'ok', detail: expect.stringMatching(new RegExp(`its hooks run from ${clone}/plugin, .*, by Bun 1\\.4\\.4$`)) },
    ]);
  });

  it('the folder moved: a failure that names it and the way back (Claude Code itself says nothing)', async () => {
    const clone = folderMarketplace(sandbox());
    enable();
    renameSync(clone, `${clone}-moved`);
    expect(await hooksChecks()).toEqual({
      exitCode: 1,
      hooks: [
        {
          name: 'hooks',
          status: 'fail',
          detail: `plugin context-ceiling@context-ceiling enabled in ~/.claude/settings.json, but ${clone} is gone: Claude Code skips the plugin without a word`,
          fix: 'put the folder back, or add the marketplace again from where it is now: claude plugin marketplace remove context-ceiling; claude plugin marketplace add <folder>; claude plugin install context-ceiling@context-ceiling',
        },
      ],
    });
  });

  it('a folder marketplace only declared in the settings (extraKnownMarketplaces) counts: Claude Code adds it on start', async () => {
    const clone = folderMarketplace(sandbox());
    sandbox().write('home/.claude/plugins/known_marketplaces.json', '{}');
    enable({ extraKnownMarketplaces: { 'context-ceiling': { source: { source: 'directory', path: clone } } } });
    const { hooks } = await hooksChecks();
    expect(hooks).toMatchObject([{ status: 'ok', detail: expect.stringContaining(`its hooks run from ${clone}/plugin,`) }]);
  });

  it("a folder a project's settings declare runs only when it holds our own code: a changed bundle is reported, not run", async () => {
    const clone = folderMarketplace(sandbox(), 'project/vendor');
    sandbox().write('home/.claude/plugins/known_marketplaces.json', '{}');
    const mark = join(sandbox().root, 'ran.log');
    sandbox().write('project/vendor/plugin/dist/hook.cjs', `require('node:fs').writeFileSync(${JSON.stringify(mark)}, 'ran');\n`);
    sandbox().write(
      'project/.claude/settings.json',
      JSON.stringify({
        enabledPlugins: { 'context-ceiling@context-ceiling': true },
        extraKnownMarketplaces: { 'context-ceiling': { source: { source: 'directory', path: clone } } },
      }),
    );
    expect((await hooksChecks()).hooks).toEqual([
      {
        name: 'hooks',
        status: 'warn',
        detail: `the hooks of plugin context-ceiling@context-ceiling of .claude/settings.json run from ${clone}/plugin/dist, whose hook.cjs is not this context-ceiling's own, so doctor did not run it (a project's settings can name any folder; Claude Code runs it once you trust the project)`,
        fix: 'check that folder is the context-ceiling you meant; once you add its marketplace yourself (claude plugin marketplace remove context-ceiling; claude plugin marketplace add <folder>), doctor runs it',
      },
    ]);
    expect(existsSync(mark)).toBe(false);
  });

  it('a marketplace added from a git URL: the hooks run from Claude Code’s copy; without the marketplace clone, nothing runs', async () => {
    const copy = gitMarketplace(sandbox());
    enable();
    expect((await hooksChecks()).hooks).toEqual([
      {
        name: 'hooks',
        status: 'ok',
        detail: `plugin context-ceiling@context-ceiling enabled in ~/.claude/settings.json: its hooks run from Claude Code's copy, ${copy}, by Node`,
      },
    ]);
    const clone = `${sandbox().home}/.claude/plugins/marketplaces/context-ceiling`;
    renameSync(clone, `${clone}-gone`);
    expect(await hooksChecks()).toMatchObject({
      exitCode: 1,
      hooks: [
        {
          status: 'fail',
          detail: expect.stringContaining(`but ${clone} is gone`),
          fix: 'claude plugin marketplace update context-ceiling',
        },
      ],
    });
  });

  it('enabled, but never installed on this machine: its hooks do not run', async () => {
    enable();
    expect(await hooksChecks()).toEqual({
      exitCode: 1,
      hooks: [
        {
          name: 'hooks',
          status: 'fail',
          detail: `plugin context-ceiling@context-ceiling enabled in ~/.claude/settings.json, but Claude Code has no record of it or its marketplace in ${sandbox().home}/.claude/plugins: its hooks do not run`,
          fix: 'claude plugin marketplace add <git URL or folder of context-ceiling>; claude plugin install context-ceiling@context-ceiling',
        },
      ],
    });
  });
});
