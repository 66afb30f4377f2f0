import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HOOK_TABLE } from '../../src/core/hook-table.js';
import {
  ourHookName,
  installedSkillText,
  planInstall,
  planUninstall,
  SettingsShapeError,
  type EnvChange,
} from '../../src/core/install-plan.js';
import { findJsonLoss } from '../../src/core/json-lossless.js';
import { expectedHooks } from '../helpers/hook-table.js';

const RUNTIME = '$CLAUDE_PROJECT_DIR/.claude/context-ceiling/runtime';

describe('planInstall', () => {
  it('into nothing: one entry per event, with matchers and timeouts', () => {
    const { settings, actions } = planInstall(undefined, RUNTIME, {});
    expect(actions).toHaveLength(6);
    expect(settings).toEqual({ hooks: expectedHooks(RUNTIME) });
  });

  it('keeps every other key, entry and hook, and appends after them', () => {
    const input = {
      model: 'opus',
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './guard.sh' }] }],
        Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }],
      },
      env: { A: '1' },
    };
    const { settings } = planInstall(input, RUNTIME, {});
    expect(settings.model).toBe('opus');
    expect((settings.hooks as Record<string, unknown[]>).PreToolUse![0]).toEqual(input.hooks.PreToolUse[0]);
    expect((settings.hooks as Record<string, unknown>).Stop).toEqual(input.hooks.Stop);
    expect(settings.env).toEqual({ A: '1' });
    expect(input.hooks.PreToolUse).toHaveLength(1); // the input is not mutated
  });

  it('a moved runtime is updated in place, not duplicated', () => {
    const first = planInstall({}, '/old/context-ceiling/runtime', {}).settings;
    const { settings, actions } = planInstall(first, RUNTIME, {});
    expect(actions.every((a) => a.startsWith('~ '))).toBe(true);
    expect((settings.hooks as Record<string, unknown[]>).PreToolUse).toHaveLength(1);
    expect(JSON.stringify(settings)).not.toContain('/old/');
  });

  it('duplicates of our hook are folded into one', () => {
    const once = planInstall({}, RUNTIME, {}).settings as { hooks: Record<string, unknown[]> };
    once.hooks.PreToolUse!.push(structuredClone(once.hooks.PreToolUse![0]));
    const { settings } = planInstall(once, RUNTIME, {});
    expect((settings.hooks as Record<string, unknown[]>).PreToolUse).toHaveLength(1);
  });

  it('--strict sets the env value and records what was there before', () => {
    const { settings, env } = planInstall({ env: { DEV_TEAM_CONTEXT_STRICT: 'off' } }, RUNTIME, { DEV_TEAM_CONTEXT_STRICT: 'on' });
    expect(settings.env).toEqual({ DEV_TEAM_CONTEXT_STRICT: 'on' });
    expect(env).toEqual([{ key: 'DEV_TEAM_CONTEXT_STRICT', value: 'on', previous: 'off' }]);
  });

  it.each([
    ['a JSON array', []],
    ['hooks as a list', { hooks: [] }],
    ['an event as an object', { hooks: { PreToolUse: {} } }],
    ['env as a string', { env: 'x' }],
  ])('refuses %s', (_name, input) => {
    expect(() => planInstall(input, RUNTIME, { X: 'on' })).toThrow(SettingsShapeError);
  });
});

describe('our commands are recognised, nobody else’s', () => {
  it.each([
    ['node "$CLAUDE_PROJECT_DIR/.claude/context-ceiling/runtime/hook.cjs" pre-tool-use', 'pre-tool-use'],
    ['node "/home/u/.claude/context-ceiling/runtime/hook.cjs" session-start', 'session-start'],
    ['node "$CLAUDE_PROJECT_DIR/node_modules/context-ceiling/plugin/dist/hook.cjs" post-tool-use', 'post-tool-use'],
    // today's form (NODE_HOOK), and the one installs before it wrote: both are ours, so reinstalling updates in place
    ['node --preserve-symlinks-main "/home/u/.claude/context-ceiling/runtime/hook.cjs" pre-compact', 'pre-compact'],
    // the default (Bun where installed), and its form before `exec`
    [
      'if command -v bun >/dev/null 2>&1; then exec bun "/h/.claude/context-ceiling/runtime/hook.cjs" post-compact; else exec node --preserve-symlinks-main "/h/.claude/context-ceiling/runtime/hook.cjs" post-compact; fi',
      'post-compact',
    ],
    [
      'if command -v bun >/dev/null 2>&1; then bun "/h/.claude/context-ceiling/runtime/hook.cjs" session-start; else node --preserve-symlinks-main "/h/.claude/context-ceiling/runtime/hook.cjs" session-start; fi',
      'session-start',
    ],
    ['node "/x/other-tool/hook.cjs" pre-tool-use', undefined],
    ['node --preserve-symlinks-main "/x/other-tool/hook.cjs" pre-tool-use', undefined],
    ['./guard.sh', undefined],
    ['node "/x/context-ceiling/hook.cjs" pre-tool-use && rm -rf /', undefined],
    [42, undefined],
  ])('%s', (command, name) => {
    expect(ourHookName(command)).toBe(name);
  });
});

describe('properties', () => {
  const foreignHook = fc.record({ type: fc.constant('command'), command: fc.string().filter((c) => !c.includes('context-ceiling')) });
  const settings = fc.record(
    {
      model: fc.string(),
      permissions: fc.record({ allow: fc.array(fc.string()) }),
      hooks: fc.dictionary(
        fc.constantFrom('PreToolUse', 'PostToolUse', 'Stop', 'UserPromptSubmit', 'SessionStart', 'Notification'),
        fc.array(fc.record({ matcher: fc.string(), hooks: fc.array(foreignHook, { minLength: 1 }) }, { requiredKeys: ['hooks'] })),
      ),
      env: fc.dictionary(
        fc.string({ minLength: 1 }).filter((k) => k !== '__proto__'),
        fc.string(),
      ),
      statusLine: fc.record({ type: fc.constant('command'), command: fc.string() }),
    },
    { requiredKeys: [] },
  );

  it('install is idempotent', () => {
    fc.assert(
      fc.property(settings, fc.boolean(), (input, strict) => {
        const env: Record<string, string> = strict ? { DEV_TEAM_CONTEXT_STRICT: 'on' } : {};
        const once = planInstall(input, RUNTIME, env).settings;
        const twice = planInstall(once, RUNTIME, env);
        expect(twice.actions).toEqual([]);
        expect(twice.settings).toEqual(once);
      }),
    );
  });

  it("the status line: the user's own command is wrapped and read back whole, Bun where installed or Node always", () => {
    fc.assert(
      fc.property(fc.string(), fc.constantFrom('auto' as const, 'node' as const), (command, runtime) => {
        const input = { statusLine: { type: 'command', command } };
        const plan = planInstall(input, RUNTIME, {}, { statusLine: true, runtime });
        const once = plan.settings;
        const wired = (once.statusLine as { command: string }).command;
        expect(
          wired.startsWith(runtime === 'auto' ? 'if command -v bun >/dev/null 2>&1; then exec bun ' : 'node --preserve-symlinks-main '),
        ).toBe(true);
        expect(planInstall(once, RUNTIME, {}, { statusLine: true, runtime }).actions).toEqual([]);
        // Changing the runtime and back keeps the wrapped command as it was.
        const other = planInstall(once, RUNTIME, {}, { statusLine: true, runtime: runtime === 'auto' ? 'node' : 'auto' }).settings;
        expect(planInstall(other, RUNTIME, {}, { statusLine: true, runtime }).settings.statusLine).toEqual(once.statusLine);
        expect(planUninstall(once, { env: plan.env, created: plan.created }).settings.statusLine).toEqual(input.statusLine);
      }),
    );
  });

  it('uninstall after install gives back the original settings (in meaning)', () => {
    fc.assert(
      fc.property(settings, fc.boolean(), (input, strict) => {
        const installed = planInstall(input, RUNTIME, strict ? { DEV_TEAM_CONTEXT_STRICT: 'on' } : ({} as Record<string, string>));
        const removed = planUninstall(installed.settings, { env: installed.env, created: installed.created }).settings;
        expect(removed).toEqual(input);
      }),
    );
  });
});

describe('findJsonLoss: settings install refuses to rewrite', () => {
  it.each([
    ['{"a":1,"b":{"c":[1,2,{"d":"x"}]},"e":"\\"q\\"","f":1.5e3,"g":-0.25,"h":1.0,"i":100e-2}', undefined],
    ['{"a":1,"a":2}', 'the key "a" appears twice in one object'],
    ['{"hooks":{"x":{"k":1}},"env":{"k":1,"K":2,"k":3}}', 'the key "k" appears twice in one object'],
    ['{"a":[{"k":1},{"k":2}]}', undefined],
    ['{"__proto__":{"polluted":true}}', 'a "__proto__" key'],
    ['{"n":12345678901234567890}', 'the number 12345678901234567890 cannot be kept exactly'],
    ['{"n":9007199254740993}', 'the number 9007199254740993 cannot be kept exactly'],
    ['{"n":9007199254740992,"s":"9007199254740993"}', undefined],
    ['{"n":0.1,"m":1e400}', 'the number 1e400 cannot be kept exactly'],
    ['{"a\\"b":1,"a\\u0022b":2}', 'the key "a\\"b" appears twice in one object'],
  ])('%s', (text, loss) => {
    JSON.parse(text); // only text JSON.parse accepts reaches the check
    expect(findJsonLoss(text)).toBe(loss);
  });

  it('never objects to what JSON.stringify writes', () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        (value) => findJsonLoss(JSON.stringify(value, null, 2)) === undefined || String(JSON.stringify(value)).includes('__proto__'),
      ),
    );
  });
});

describe('re-running install converges on the flags of the last run', () => {
  type Knobs = Record<string, string>;
  const knobs: fc.Arbitrary<Knobs> = fc.record(
    {
      DEV_TEAM_CONTEXT_STRICT: fc.constant('on'),
      CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: fc.constantFrom('41', '45', '90'),
      DEV_TEAM_CONTEXT_WINDOW: fc.constantFrom('200000', '1000000'),
    },
    { requiredKeys: [] },
  );
  const userEnv = fc.option(
    fc.dictionary(
      fc.constantFrom('FOO', 'DEV_TEAM_CONTEXT_STRICT', 'CLAUDE_AUTOCOMPACT_PCT_OVERRIDE', 'DEV_TEAM_CONTEXT_WINDOW'),
      fc.constantFrom('off', 'on', '41', '90', '200000'),
    ),
    { nil: undefined },
  );

  /** What install.ts keeps between runs: the owned env and whether install created "env". */
  function installAll(original: Record<string, unknown>, runs: Knobs[]) {
    let settings: unknown = original;
    let owned: EnvChange[] = [];
    let ownedEnvObject = false;
    for (const env of runs) {
      const plan = planInstall(settings, RUNTIME, env, { owned, ownedEnvObject });
      settings = plan.settings;
      owned = plan.env;
      ownedEnvObject ||= plan.created.envObject;
    }
    return { settings: settings as Record<string, unknown>, owned, ownedEnvObject };
  }

  it('any sequence of installs ends where one install with the last flags ends; uninstall then restores the original', () => {
    fc.assert(
      fc.property(userEnv, fc.array(knobs, { minLength: 1, maxLength: 5 }), (env, runs) => {
        const original = env === undefined ? { model: 'opus' } : { model: 'opus', env };
        const sequence = installAll(original, runs);
        const once = installAll(original, runs.slice(-1));
        expect(sequence.settings).toEqual(once.settings);
        const removed = planUninstall(sequence.settings, {
          env: sequence.owned,
          created: { hooksObject: true, events: HOOK_TABLE.map((s) => s.event), envObject: sequence.ownedEnvObject },
        }).settings;
        expect(removed).toEqual(original);
      }),
    );
  });

  it.each([
    ['strict, then plain: both knobs go', {}, [{ DEV_TEAM_CONTEXT_STRICT: 'on', CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '41' }, {}], undefined],
    [
      "the user's own value comes back",
      { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '90' },
      [{ CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '41' }, {}],
      { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '90' },
    ],
    [
      "a changed window replaces ours, not the user's",
      { DEV_TEAM_CONTEXT_WINDOW: '200000' },
      [{ DEV_TEAM_CONTEXT_WINDOW: '1000000' }, { DEV_TEAM_CONTEXT_WINDOW: '500000' }],
      { DEV_TEAM_CONTEXT_WINDOW: '500000' },
    ],
  ])('%s', (_name, before, runs, after) => {
    const original = Object.keys(before).length > 0 ? { env: before } : {};
    expect(installAll(original, runs as Knobs[]).settings.env).toEqual(after);
  });
});

describe('installedSkillText', () => {
  it("points every use of the plugin root at the runtime, relative to the skill's own folder", () => {
    const plugin =
      '!`node "${CLAUDE_PLUGIN_ROOT}/dist/hook.cjs" save-checkpoint`\nagain: `node "${CLAUDE_PLUGIN_ROOT}/dist/hook.cjs" save-checkpoint`\n';
    expect(installedSkillText(plugin, '../../context-ceiling/runtime')).toBe(
      '!`node "${CLAUDE_SKILL_DIR}/../../context-ceiling/runtime/hook.cjs" save-checkpoint`\nagain: `node "${CLAUDE_SKILL_DIR}/../../context-ceiling/runtime/hook.cjs" save-checkpoint`\n',
    );
  });
});
