import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkPolicyRules, readEnvLayer, resolvePolicy, type Layer, type Policy, type PolicyValues } from '../../src/core/policy.js';
import { POLICY_FIELDS } from '../../src/core/policy-fields.js';
import { judgeLayer, POLICY_RULES } from '../../src/core/policy-rules.js';
import type { LayerName } from '../../src/core/policy.js';

describe('readEnvLayer', () => {
  it.each<[string, Record<string, string>, Record<string, unknown>]>([
    ['nothing set', {}, {}],
    [
      'the seed’s four variables',
      {
        DEV_TEAM_CONTEXT_CEILING: 'off',
        DEV_TEAM_CONTEXT_STRICT: 'on',
        DEV_TEAM_CONTEXT_CEILING_PCT: '25',
        DEV_TEAM_CONTEXT_WINDOW: '1000000',
      },
      { enabled: false, strict: true, ceilingPct: 25, window: 1_000_000 },
    ],
    ['CEILING=on is explicit on', { DEV_TEAM_CONTEXT_CEILING: 'on' }, { enabled: true }],
    ['STRICT=off is explicit off', { DEV_TEAM_CONTEXT_STRICT: 'off' }, { strict: false }],
    ['opt-outs are strict literals', { DEV_TEAM_CONTEXT_CEILING: 'false', DEV_TEAM_CONTEXT_STRICT: 'true' }, {}],
    ['and case-sensitive', { DEV_TEAM_CONTEXT_CEILING: 'OFF', DEV_TEAM_CONTEXT_STRICT: 'On' }, {}],
    ['malformed numbers are ignored', { DEV_TEAM_CONTEXT_CEILING_PCT: 'abc', DEV_TEAM_CONTEXT_WINDOW: '-5' }, {}],
    ['fractions, exponents and hex are malformed', { DEV_TEAM_CONTEXT_CEILING_PCT: '40.5', DEV_TEAM_CONTEXT_WINDOW: '1e6' }, {}],
    ['out of range is malformed', { DEV_TEAM_CONTEXT_CEILING_PCT: '0', DEV_TEAM_CONTEXT_WINDOW: '10' }, {}],
    ['leading zeros are a number, not octal', { DEV_TEAM_CONTEXT_CEILING_PCT: '040' }, { ceilingPct: 40 }],
    ['tool actions', { DEV_TEAM_CONTEXT_TOOLS: 'Skill=block, Agent=warn' }, { tools: { Skill: 'block', Agent: 'warn' } }],
    ['bad tool actions are ignored whole', { DEV_TEAM_CONTEXT_TOOLS: 'Skill=block,Agent=maybe' }, {}],
    ['recovery skills', { DEV_TEAM_CONTEXT_RECOVERY_SKILLS: 'wrap-up, continue' }, { recoverySkills: ['wrap-up', 'continue'] }],
    ['tiers', { DEV_TEAM_CONTEXT_WARNING_PCT: '60' }, { tiers: { warningPct: 60, criticalPct: undefined, emergencyPct: undefined } }],
    ['debug to stderr or a file', { DEV_TEAM_CONTEXT_DEBUG: '/tmp/x.log' }, { debug: true }],
    ['state dir', { DEV_TEAM_CONTEXT_STATE_DIR: '/tmp/s' }, { stateDir: '/tmp/s' }],
  ])('%s', (_name, env, values) => {
    expect(readEnvLayer(env).values).toEqual(values);
  });

  it('says what it ignored and why', () => {
    expect(readEnvLayer({ DEV_TEAM_CONTEXT_WINDOW: 'big', DEV_TEAM_CONTEXT_STRICT: 'yes' }).warnings).toEqual([
      'DEV_TEAM_CONTEXT_STRICT="yes" ignored: only "on" or "off" is recognised',
      'DEV_TEAM_CONTEXT_WINDOW="big" ignored: expected a whole number from 1000 to 100000000',
    ]);
  });
});

describe('resolvePolicy', () => {
  it('defaults when nothing is configured', () => {
    const { policy, sources } = resolvePolicy([]);
    expect(policy).toMatchObject({
      enabled: true,
      strict: false,
      ceilingPct: 40,
      window: undefined,
      tools: { Agent: 'auto', Task: 'auto', Skill: 'auto' },
    });
    expect(policy.recoverySkills[0]).toBe('context-summarization');
    expect(sources.ceilingPct).toEqual({ layer: 'default' });
  });

  it('starts every merge from the field table: each top-level key in field order, unset ones present, each flat key from `default`', async () => {
    const { policy, sources } = defaultsFromTable();
    // The merge parses them from text generated from the table: a field changed, this fails until `-u` writes it again.
    await expect(generatedDefaults(policy, sources)).toMatchFileSnapshot('../../src/core/policy-defaults.generated.ts');
    const first = resolvePolicy([]);
    expect(first.policy).toStrictEqual(policy);
    expect(Object.keys(first.policy)).toEqual(Object.keys(policy));
    expect(Object.keys(first.policy)).toContain('window');
    expect(first.sources).toStrictEqual(sources);
    expect(Object.keys(first.sources)).toEqual(Object.keys(sources));
    // Every merge its own objects: a caller that changes one policy changes no other.
    const second = resolvePolicy([]);
    expect(second.policy.tools).not.toBe(first.policy.tools);
    expect(second.policy.recoverySkills).not.toBe(first.policy.recoverySkills);
    expect(second.sources.ceilingPct).not.toBe(first.sources.ceilingPct);
  });

  it('later layers win key by key and record where each value came from', () => {
    const { policy, sources } = resolvePolicy([
      { source: { layer: 'preset', detail: 'strict-ci' }, values: { strict: true, ceilingPct: 40 } },
      { source: { layer: 'user', detail: '~/u.json' }, values: { ceilingPct: 30, tools: { Agent: 'warn' } } },
      { source: { layer: 'project', detail: 'p.json' }, values: { ceilingPct: 25, tools: { Skill: 'block' } } },
      { source: { layer: 'env' }, values: { window: 1_000_000 } },
    ]);
    expect(policy).toMatchObject({
      strict: true,
      ceilingPct: 25,
      window: 1_000_000,
      tools: { Agent: 'warn', Skill: 'block', Task: 'auto' },
    });
    expect(sources.strict).toEqual({ layer: 'preset', detail: 'strict-ci' });
    expect(sources.ceilingPct).toEqual({ layer: 'project', detail: 'p.json' });
    expect(sources['tools.Agent']).toEqual({ layer: 'user', detail: '~/u.json' });
    expect(sources['tools.Task']).toEqual({ layer: 'default' });
    expect(sources.window).toEqual({ layer: 'env' });
  });

  describe('a repository cannot loosen the strict mode the operator set', () => {
    const strictEnv = { source: { layer: 'env' as const }, values: { strict: true, ceilingPct: 40 } };
    const project = (values: PolicyValues) => ({ source: { layer: 'project' as const, detail: 'p.json' }, values });
    it.each<[string, PolicyValues, Partial<Policy>, string[]]>([
      ['enabled: false is ignored', { enabled: false }, { enabled: true }, ['enabled']],
      ['strict: false is ignored', { strict: false }, { strict: true }, ['strict']],
      ['a higher ceiling is ignored', { ceilingPct: 100 }, { ceilingPct: 40 }, ['ceilingPct']],
      ['a lower ceiling tightens, and stands', { ceilingPct: 30 }, { ceilingPct: 30 }, []],
      ['a tool turned off is ignored', { tools: { Skill: 'off' } }, { tools: expect.objectContaining({ Skill: 'auto' }) }, ['tools.Skill']],
      [
        'a tool set to warn is ignored',
        { tools: { Agent: 'warn' } },
        { tools: expect.objectContaining({ Agent: 'auto' }) },
        ['tools.Agent'],
      ],
      [
        'a new tool gated tightens, and stands',
        { tools: { WebFetch: 'block' } },
        { tools: expect.objectContaining({ WebFetch: 'block' }) },
        [],
      ],
      [
        'added recovery skills are ignored',
        { recoverySkills: ['x'] },
        { recoverySkills: expect.not.arrayContaining(['x']) },
        ['recoverySkills'],
      ],
    ])('%s', (_name, values, expected, relaxedKeys) => {
      const resolved = resolvePolicy([strictEnv, project(values)]);
      expect(resolved.policy).toMatchObject(expected);
      expect(resolved.relaxed.map((r) => r.key)).toEqual(relaxedKeys);
      expect(resolved.strictFromOperator).toBe(true);
      for (const key of relaxedKeys)
        expect(resolved.warnings).toContain(
          `p.json: ${key} ${JSON.stringify(resolved.relaxed.find((r) => r.key === key)!.value)} ignored: a project policy cannot loosen strict mode the operator set`,
        );
    });

    it('a preset the project extends is the project speaking', () => {
      const resolved = resolvePolicy([
        strictEnv,
        { source: { layer: 'preset', detail: 'strict-skills, extended by p.json', byProject: true }, values: { tools: { Agent: 'warn' } } },
      ]);
      expect(resolved.relaxed.map((r) => r.key)).toEqual(['tools.Agent']);
    });

    it('in warn mode the project configures freely', () => {
      const resolved = resolvePolicy([project({ enabled: false, ceilingPct: 90 })]);
      expect(resolved.policy).toMatchObject({ enabled: false, ceilingPct: 90 });
      expect(resolved.relaxed).toEqual([]);
    });

    it("strict from the project itself is not the operator's", () => {
      expect(resolvePolicy([project({ strict: true })]).strictFromOperator).toBe(false);
    });
  });

  it('tiers that do not rise fall back to the defaults with a warning', () => {
    const { policy, warnings, sources } = resolvePolicy([{ source: { layer: 'env' }, values: { tiers: { warningPct: 85 } } }]);
    expect(policy.tiers).toEqual({ warningPct: 70, criticalPct: 80, emergencyPct: 88 });
    expect(sources['tiers.warningPct']).toEqual({ layer: 'default' });
    expect(warnings[0]).toMatch(/warningPct < criticalPct < emergencyPct/);
  });
});

describe('rules', () => {
  const policyWithTiers = (warningPct: number, criticalPct: number, emergencyPct: number) => ({
    ...resolvePolicy([]).policy,
    tiers: { warningPct, criticalPct, emergencyPct },
  });

  it('the defaults break no rule', () => {
    expect(POLICY_RULES.flatMap((rule) => rule(resolvePolicy([]).policy))).toEqual([]);
  });

  it.each<[number, number, number, boolean]>([
    [70, 80, 88, true],
    [1, 2, 3, true],
    [80, 80, 88, false],
    [70, 88, 88, false],
    [90, 80, 70, false],
  ])('tiers %i, %i, %i rise: %s', (warning, critical, emergency, rises) => {
    const problems = POLICY_RULES.flatMap((rule) => rule(policyWithTiers(warning, critical, emergency)));
    expect(problems).toEqual(
      rises ? [] : [{ key: 'tiers', message: 'must rise warningPct < criticalPct < emergencyPct', values: [warning, critical, emergency] }],
    );
  });

  it('a file and a resolved policy are judged by the same rule: one layer is refused exactly when resolving it falls back', () => {
    const pct = fc.option(fc.integer({ min: 1, max: 100 }), { nil: undefined });
    fc.assert(
      fc.property(fc.record({ warningPct: pct, criticalPct: pct, emergencyPct: pct }), (tiers) => {
        const refused = checkPolicyRules({ tiers }).length > 0;
        const resolved = resolvePolicy([{ source: { layer: 'project' }, values: { tiers } }]);
        expect(resolved.warnings.length > 0).toBe(refused);
        if (refused) expect(resolved.policy.tiers).toEqual({ warningPct: 70, criticalPct: 80, emergencyPct: 88 });
      }),
    );
  });

  it('resolving never changes the layers it was given, even when a rule falls back', () => {
    const layers: Layer[] = [
      { source: { layer: 'user' }, values: { tiers: { warningPct: 85 }, tools: { Skill: 'block' }, recoverySkills: ['wrap-up'] } },
      { source: { layer: 'env' }, values: { ceilingPct: 30 } },
    ];
    const before = structuredClone(layers);
    const { policy, sources, warnings } = resolvePolicy(layers);
    expect(layers).toEqual(before);
    expect(warnings).toEqual(['tiers must rise warningPct < criticalPct < emergencyPct (got 85, 80, 88); using the defaults 70, 80, 88']);
    expect(policy).toMatchObject({ ceilingPct: 30, tools: { Skill: 'block' }, recoverySkills: ['wrap-up'] });
    expect(sources['tools.Skill']).toEqual({ layer: 'user' });
    expect(sources['tiers.warningPct']).toEqual({ layer: 'default' });
  });
});

describe('layer rules', () => {
  it.each<[LayerName, boolean]>([
    ['user', true],
    ['env', true],
    ['project', false],
    ['policy', false],
    ['preset', false],
  ])('a %s layer may set stateDir: %s', (layer, allowed) => {
    expect(judgeLayer(layer, { stateDir: '/tmp/s', ceilingPct: 30 })).toEqual(
      allowed
        ? []
        : [
            {
              key: 'stateDir',
              message: 'only DEV_TEAM_CONTEXT_STATE_DIR or ~/.claude/context-ceiling.json may set the state directory',
              values: ['/tmp/s'],
            },
          ],
    );
  });

  it('a layer without stateDir breaks no rule', () => {
    expect(judgeLayer('project', { ceilingPct: 30 })).toEqual([]);
  });
});

/** The default merge worked out from POLICY_FIELDS alone, as the merge must start from it. */
function defaultsFromTable(): { policy: Record<string, unknown>; sources: Record<string, unknown> } {
  const policy: Record<string, unknown> = {};
  const sources: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(POLICY_FIELDS)) {
    const [top, sub] = key.split('.') as [string, string | undefined];
    const value = field.default;
    if (sub !== undefined) {
      policy[top] ??= {};
      if (value !== undefined) (policy[top] as Record<string, unknown>)[sub] = value;
    } else policy[top] = Array.isArray(value) ? [...value] : typeof value === 'object' ? { ...value } : value;
    if (value === undefined) continue;
    const flat = typeof value === 'object' && !Array.isArray(value) ? Object.keys(value).map((name) => `${key}.${name}`) : [key];
    for (const name of flat) sources[name] = { layer: 'default' };
  }
  return { policy, sources };
}

/** src/core/policy-defaults.generated.ts as the table makes it. */
function generatedDefaults(policy: Record<string, unknown>, sources: Record<string, unknown>): string {
  const unset = Object.keys(policy).filter((key) => policy[key] === undefined);
  const json = JSON.stringify({ policy: { ...policy, ...Object.fromEntries(unset.map((key) => [key, null])) }, sources });
  return [
    '// Generated from POLICY_FIELDS (policy-fields.ts) by test/unit/policy.test.ts: `npx vitest run test/unit/policy.test.ts -u`',
    '// writes it again. Do not edit by hand: the test fails when this file and the field table differ.',
    '',
    '/**',
    ' * The merge every policy resolution starts from (policy.ts defaultMerge), as JSON text: each top-level key in field',
    " * order with its default (null when it has none), and each flat key's source, `default`.",
    ' */',
    `export const DEFAULT_MERGE_JSON =\n  '${json}';`,
    '',
    '/** The top-level keys without a default: null in the text, undefined in a policy. */',
    `export const UNSET_POLICY_KEYS: readonly string[] = [${unset.map((key) => `'${key}'`).join(', ')}];`,
    '',
  ].join('\n');
}
