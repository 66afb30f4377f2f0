import { describe, expect, it } from 'vitest';
import { autocompactTokens, describeAutocompact, resolveAutocompact } from '../../src/core/autocompact.js';
import {
  findPluginInstall,
  mergeSettingsEnv,
  settingsFactsOf,
  withoutRepositoryPaths,
  type SettingsScope,
} from '../../src/core/settings-env.js';

const LABEL: Record<SettingsScope, string> = {
  user: '~/.claude/settings.json',
  project: '.claude/settings.json',
  local: '.claude/settings.local.json',
};
const file = (scope: SettingsScope, settings: unknown) => settingsFactsOf(scope, LABEL[scope], settings);

describe('settingsFactsOf', () => {
  it('keeps string env values, coerces scalars, drops the rest; collects hook commands', () => {
    const facts = file('project', {
      env: { A: 'x', B: 1000000, C: true, D: { nested: 1 }, E: null, F: Number.NaN },
      hooks: { PreToolUse: [{ matcher: 'Skill', hooks: [{ type: 'command', command: 'a' }, { type: 'command' }] }], Stop: 'broken' },
      enabledPlugins: { 'context-ceiling@m': true },
      extraKnownMarketplaces: { m: { source: { source: 'directory', path: '/src/cc' } } },
    });
    expect(facts.env).toEqual({ A: 'x', B: '1000000', C: 'true' });
    expect(facts.hookCommands).toEqual(['a']);
    expect(facts.enabledPlugins).toEqual({ 'context-ceiling@m': true });
    expect(facts.marketplaces).toEqual({ m: { source: { source: 'directory', path: '/src/cc' } } });
  });

  it.each([null, 'text', 42, [], { env: [] }, { env: 'A=1' }])('a malformed file (%j) contributes nothing', (parsed) => {
    expect(file('user', parsed)).toEqual({
      scope: 'user',
      label: LABEL.user,
      env: {},
      enabledPlugins: {},
      marketplaces: {},
      hookCommands: [],
    });
  });
});

describe('mergeSettingsEnv', () => {
  const user = file('user', { env: { X: 'user', ONLY_USER: 'u' } });
  const project = file('project', { env: { X: 'project', Y: 'project' } });
  const local = file('local', { env: { Y: 'local' } });

  it('local > project > user, whatever order the files come in, each over the process env', () => {
    for (const files of [
      [user, project, local],
      [local, project, user],
      [project, local, user],
    ]) {
      expect(mergeSettingsEnv({ PATH: '/bin' }, files)).toEqual({
        env: { X: 'project', Y: 'local', ONLY_USER: 'u', PATH: '/bin' },
        origins: { X: '.claude/settings.json', Y: '.claude/settings.local.json', ONLY_USER: '~/.claude/settings.json' },
      });
    }
    // Claude Code 2.1.328 applies settings env over its own environment (test/e2e/settings-env.test.ts).
    const merged = mergeSettingsEnv({ Y: 'process', Z: 'process', UNSET: undefined }, [user, project, local]);
    expect(merged.env).toMatchObject({ Y: 'local', Z: 'process' });
    expect(merged.origins).toMatchObject({ Y: '.claude/settings.local.json' });
    expect(merged.origins.Z).toBeUndefined();
    expect('UNSET' in merged.env).toBe(false);
  });
});

describe("what locates the home comes from the user's scope only", () => {
  const LOCATING = { HOME: '/repo/home', CLAUDE_CONFIG_DIR: '/repo/home/.claude', XDG_STATE_HOME: '/repo/state', TMPDIR: '/repo/tmp' };
  const processEnv = { HOME: '/home/u', XDG_STATE_HOME: '/home/u/.state', TMPDIR: '/tmp' };

  it.each<SettingsScope>(['project', 'local'])(
    'a %s settings file setting HOME, CLAUDE_CONFIG_DIR, XDG_STATE_HOME or TMPDIR changes none of them',
    (scope) => {
      // Claude Code withholds them from a project's or local settings file (test/e2e/settings-env.test.ts).
      const merged = mergeSettingsEnv(processEnv, [file(scope, { env: { ...LOCATING, OTHER: 'x' } })]);
      expect(merged.env).toEqual({ ...processEnv, OTHER: 'x' });
      expect(merged.origins).toEqual({ OTHER: LABEL[scope] });
    },
  );

  it("the user's own settings file sets them, over the process env", () => {
    const merged = mergeSettingsEnv(processEnv, [file('user', { env: LOCATING }), file('project', { env: { HOME: '/elsewhere' } })]);
    expect(merged.env).toEqual(LOCATING);
    expect(merged.origins).toEqual(Object.fromEntries(Object.keys(LOCATING).map((name) => [name, LABEL.user])));
  });

  it("a path variable is then judged by the user's value, not the project's", () => {
    const files = [file('project', { env: { XDG_STATE_HOME: '/repo/state' } })];
    const merged = mergeSettingsEnv(processEnv, files);
    expect(withoutRepositoryPaths(merged.env, files)).toEqual({ env: processEnv, ignored: [] });
  });
});

describe('withoutRepositoryPaths', () => {
  const DEBUG = 'DEV_TEAM_CONTEXT_DEBUG';
  const STATE = 'DEV_TEAM_CONTEXT_STATE_DIR';
  it.each<[string, Record<string, string>, Array<[SettingsScope, Record<string, string>]>, string[]]>([
    ['a path the project settings set', { [STATE]: '/srv/www' }, [['project', { [STATE]: '/srv/www' }]], [STATE]],
    ['a path the local settings set', { [DEBUG]: '/home/u/.bashrc' }, [['local', { [DEBUG]: '/home/u/.bashrc' }]], [DEBUG]],
    ['a path the user settings set is theirs', { [STATE]: '/home/u/s' }, [['user', { [STATE]: '/home/u/s' }]], []],
    ['a value the process has and no file set', { [STATE]: '/home/u/s' }, [['project', { OTHER: '1' }]], []],
    ['a project value that is not the one in force (the file changed since)', { [STATE]: '/a' }, [['project', { [STATE]: '/b' }]], []],
    ['DEBUG=1 names no file: left as it is', { [DEBUG]: '1' }, [['project', { [DEBUG]: '1' }]], []],
    [
      "the project's value that the user's own settings set too is the user's",
      { [STATE]: '/home/u/s' },
      [
        ['user', { [STATE]: '/home/u/s' }],
        ['project', { [STATE]: '/home/u/s' }],
      ],
      [],
    ],
    [
      "the user's settings setting another value do not vouch for the project's",
      { [STATE]: '/srv/www' },
      [
        ['user', { [STATE]: '/home/u/s' }],
        ['project', { [STATE]: '/srv/www' }],
      ],
      [STATE],
    ],
    [
      "a project that also sets HOME could forge the user's file: it vouches for nothing",
      { [STATE]: '/srv/www' },
      [
        ['user', { [STATE]: '/srv/www' }],
        ['project', { [STATE]: '/srv/www', HOME: '/repo/fake-home' }],
      ],
      [STATE],
    ],
    [
      'nor one whose local settings set CLAUDE_CONFIG_DIR',
      { [DEBUG]: '/home/u/.bashrc' },
      [
        ['user', { [DEBUG]: '/home/u/.bashrc' }],
        ['project', { [DEBUG]: '/home/u/.bashrc' }],
        ['local', { CLAUDE_CONFIG_DIR: '/repo/fake' }],
      ],
      [DEBUG],
    ],
    [
      'the policy and orchestration file too',
      { DEV_TEAM_CONTEXT_POLICY: 'p.json', DEV_TEAM_CONTEXT_ORCHESTRATION: '../x.yaml', DEV_TEAM_CONTEXT_CEILING_PCT: '100' },
      [
        [
          'project',
          { DEV_TEAM_CONTEXT_POLICY: 'p.json', DEV_TEAM_CONTEXT_ORCHESTRATION: '../x.yaml', DEV_TEAM_CONTEXT_CEILING_PCT: '100' },
        ],
      ],
      ['DEV_TEAM_CONTEXT_POLICY', 'DEV_TEAM_CONTEXT_ORCHESTRATION'],
    ],
  ])('%s', (_name, env, files, ignored) => {
    const result = withoutRepositoryPaths(
      env,
      files.map(([scope, values]) => file(scope, { env: values })),
    );
    expect(result.ignored.map((i) => i.name)).toEqual(ignored);
    for (const name of ignored) expect(name in result.env).toBe(false);
    for (const name of Object.keys(env).filter((n) => !ignored.includes(n))) expect(result.env[name]).toBe(env[name]);
  });
});

describe('findPluginInstall', () => {
  it.each<[string, Array<[SettingsScope, Record<string, unknown>]>, string | undefined]>([
    ['enabled in the user settings', [['user', { 'context-ceiling@market': true }]], '~/.claude/settings.json'],
    ['enabled in the project settings', [['project', { 'other@m': true, 'context-ceiling@m': true }]], '.claude/settings.json'],
    ['a list of versions leaves it off', [['project', { 'context-ceiling@m': ['1.0.0'] }]], undefined],
    [
      'turned off by a higher scope',
      [
        ['user', { 'context-ceiling@m': true }],
        ['local', { 'context-ceiling@m': false }],
      ],
      undefined,
    ],
    ['a lookalike name is not ours', [['user', { 'context-ceiling-extra@m': true, 'context-ceiling': true }]], undefined],
  ])('%s', (_name, files, label) => {
    expect(findPluginInstall(files.map(([scope, plugins]) => file(scope, { enabledPlugins: plugins })))?.label).toBe(label);
  });

  it('names the marketplace, and the source the most precedent settings file declares for it', () => {
    const source = (path: string) => ({ source: { source: 'directory', path } });
    const found = findPluginInstall([
      file('user', {
        enabledPlugins: { 'context-ceiling@team': true },
        extraKnownMarketplaces: { team: source('/user'), other: source('/o') },
      }),
      file('project', { extraKnownMarketplaces: { team: source('/project') } }),
    ]);
    expect(found).toEqual({
      id: 'context-ceiling@team',
      label: '~/.claude/settings.json',
      marketplace: 'team',
      declaredSource: { source: 'directory', path: '/project' },
    });
    expect(findPluginInstall([file('user', { enabledPlugins: { 'context-ceiling@m': true } })])?.declaredSource).toBeUndefined();
  });
});

describe('resolveAutocompact', () => {
  it.each<[Record<string, string>, ReturnType<typeof resolveAutocompact>]>([
    [{}, undefined],
    [{ CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '45' }, { pct: 45, windowTokens: undefined }],
    [{ CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: ' 62.5 ' }, { pct: 62.5, windowTokens: undefined }],
    [{ CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '0x20' }, undefined],
    [{ CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '50abc' }, undefined],
    [{ CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '0' }, undefined],
    [{ CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '101' }, undefined],
    [{ CLAUDE_CODE_AUTO_COMPACT_WINDOW: '500000' }, { pct: undefined, windowTokens: 500_000 }],
    [{ CLAUDE_CODE_AUTO_COMPACT_WINDOW: '5e5' }, undefined],
    [
      { CLAUDE_CODE_AUTO_COMPACT_WINDOW: '500000', CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '50' },
      { pct: 50, windowTokens: 500_000 },
    ],
  ])('%j', (env, expected) => {
    expect(resolveAutocompact(env)).toEqual(expected);
  });

  it('is a share of the effective window: the smaller of the two windows, less the output reserve', () => {
    // CLAUDE-CODE-FACTS.md: effectiveWindow=980000 on the 1M model, so a 50 % override compacts above 490,000.
    expect(autocompactTokens({ pct: 50 }, 1_000_000)).toBe(490_000);
    expect(autocompactTokens({ pct: 50, windowTokens: 500_000 }, 1_000_000)).toBe(240_000);
    expect(autocompactTokens({ windowTokens: 2_000_000 }, 1_000_000)).toBe(980_000);
  });

  it.each<[Parameters<typeof describeAutocompact>[0], string]>([
    [{ pct: 45 }, 'Claude Code auto-compacts at 45% of the effective window (CLAUDE_AUTOCOMPACT_PCT_OVERRIDE), about 441,000 tokens.'],
    [
      { windowTokens: 500_000 },
      'Claude Code auto-compacts against a 500,000-token window (CLAUDE_CODE_AUTO_COMPACT_WINDOW), at about 480,000 tokens.',
    ],
    [
      { pct: 50, windowTokens: 500_000 },
      'Claude Code auto-compacts at 50% of a 500,000-token window (CLAUDE_AUTOCOMPACT_PCT_OVERRIDE, CLAUDE_CODE_AUTO_COMPACT_WINDOW), about 240,000 tokens.',
    ],
  ])('describes %j', (point, text) => {
    expect(describeAutocompact(point, 1_000_000)).toBe(text);
  });
});
