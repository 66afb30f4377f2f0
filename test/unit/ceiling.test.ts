import { describe, expect, it } from 'vitest';
import {
  bucketOf,
  describeCall,
  isRecoveryCall,
  judgeCall,
  resolveGate,
  resolveToolAction,
  shouldWarnAgain,
  type MeasuredFacts,
} from '../../src/core/ceiling.js';
import type { Occupancy } from '../../src/core/occupancy.js';
import { resolvePolicy, type Policy } from '../../src/core/policy.js';
import type { PolicyValues } from '../../src/core/policy.js';
import type { ResolvedWindow } from '../../src/core/window.js';

const policyWith = (values: PolicyValues = {}): Policy => resolvePolicy([{ source: { layer: 'env' }, values }]).policy;
const measured = (tokens: number): Occupancy => ({ kind: 'measured', tokens, source: 'usage' });
const stated = (tokens = 200_000): ResolvedWindow => ({ tokens, source: 'env', verified: true });
const assumed = (tokens = 200_000): ResolvedWindow => ({ tokens, source: 'assumed', verified: false, assumption: { why: 'no-model' } });
type Case = { toolName?: string; toolInput?: unknown; occupancy?: Occupancy; window?: ResolvedWindow; values?: PolicyValues };

/** The guard's one decision over a call, with a measurement that counts how often it was asked for. */
function judge(over: Case = {}) {
  let reads = 0;
  const facts: MeasuredFacts = { occupancy: over.occupancy ?? measured(100_000), window: over.window ?? stated() };
  const verdict = judgeCall(
    describeCall(over.toolName ?? 'Agent', over.toolInput ?? { subagent_type: 'Explore' }),
    policyWith(over.values),
    () => {
      reads += 1;
      return facts;
    },
  );
  return { verdict, reads };
}

describe('judgeCall', () => {
  it.each<[string, Case, string, string, string]>([
    ['below the ceiling', { occupancy: measured(79_999) }, 'allow', 'below-ceiling', 'NOMINAL'],
    ['exactly at the ceiling warns', { occupancy: measured(80_000) }, 'warn', 'over-ceiling', 'OVER_CEILING'],
    ['over the ceiling warns by default', {}, 'warn', 'over-ceiling', 'OVER_CEILING'],
    ['strict blocks', { values: { strict: true } }, 'block', 'over-ceiling-blocked', 'OVER_CEILING'],
    [
      'strict blocks a Skill',
      { toolName: 'Skill', toolInput: { skill: 'deep-dive' }, values: { strict: true } },
      'block',
      'over-ceiling-blocked',
      'OVER_CEILING',
    ],
    [
      'strict blocks Task (the pre-2.1.63 Agent)',
      { toolName: 'Task', values: { strict: true } },
      'block',
      'over-ceiling-blocked',
      'OVER_CEILING',
    ],
    ['disabled allows', { values: { enabled: false, strict: true } }, 'allow', 'disabled', 'UNKNOWN'],
    ['other tools are not gated', { toolName: 'Read', values: { strict: true } }, 'allow', 'not-gated', 'UNKNOWN'],
    ['a tool turned off is not gated', { values: { strict: true, tools: { Agent: 'off' } } }, 'allow', 'not-gated', 'UNKNOWN'],
    [
      'strict blocks a Workflow',
      { toolName: 'Workflow', toolInput: { name: 'deep-research' }, values: { strict: true } },
      'block',
      'over-ceiling-blocked',
      'OVER_CEILING',
    ],
    [
      'a tool set to warn warns even in strict mode',
      { values: { strict: true, tools: { Agent: 'warn' } } },
      'warn',
      'over-ceiling',
      'OVER_CEILING',
    ],
    [
      'a tool set to block blocks without strict mode',
      { values: { tools: { Agent: 'block' } } },
      'block',
      'over-ceiling-blocked',
      'OVER_CEILING',
    ],
    [
      'an extra tool can be gated',
      { toolName: 'WebFetch', values: { tools: { WebFetch: 'block' } } },
      'block',
      'over-ceiling-blocked',
      'OVER_CEILING',
    ],
    [
      'recovery skill at 90 % in strict mode',
      { toolName: 'Skill', toolInput: { skill: 'context-summarization' }, occupancy: measured(180_000), values: { strict: true } },
      'allow',
      'recovery-skill',
      'UNKNOWN',
    ],
    [
      'plugin-qualified recovery skill',
      { toolName: 'Skill', toolInput: { skill: 'dev-team:context-summarization' }, occupancy: measured(180_000), values: { strict: true } },
      'allow',
      'recovery-skill',
      'UNKNOWN',
    ],
    [
      'any plugin prefix',
      { toolName: 'Skill', toolInput: { skill: 'any-plugin:continue' }, occupancy: measured(180_000), values: { strict: true } },
      'allow',
      'recovery-skill',
      'UNKNOWN',
    ],
    [
      'configured recovery list',
      {
        toolName: 'Skill',
        toolInput: { skill: 'wrap-up' },
        occupancy: measured(180_000),
        values: { strict: true, recoverySkills: ['wrap-up'] },
      },
      'allow',
      'recovery-skill',
      'UNKNOWN',
    ],
    [
      'a recovery skill name on Agent is still gated',
      { toolName: 'Agent', toolInput: { subagent_type: 'continue' }, values: { strict: true } },
      'block',
      'over-ceiling-blocked',
      'OVER_CEILING',
    ],
    [
      'unknown since compaction allows',
      { occupancy: { kind: 'unknown-since-compaction' }, values: { strict: true } },
      'allow',
      'unknown-since-compaction',
      'UNKNOWN',
    ],
    [
      'no measurement allows',
      { occupancy: { kind: 'unavailable', reason: 'no-transcript' }, values: { strict: true } },
      'allow',
      'unmeasured',
      'UNKNOWN',
    ],
    [
      'an assumed window warns, never blocks, even strict',
      { window: assumed(), values: { strict: true } },
      'warn',
      'over-ceiling-assumed-window',
      'OVER_CEILING',
    ],
    ['an assumed window warns without strict too, saying so', { window: assumed() }, 'warn', 'over-ceiling-assumed-window', 'OVER_CEILING'],
    [
      'a learned window blocks',
      { window: { tokens: 200_000, source: 'learned', detail: 'm', verified: true }, values: { strict: true } },
      'block',
      'over-ceiling-blocked',
      'OVER_CEILING',
    ],
    [
      'the SDK verifies a window',
      { window: { tokens: 200_000, source: 'sdk', verified: true }, values: { strict: true } },
      'block',
      'over-ceiling-blocked',
      'OVER_CEILING',
    ],
    [
      "the model's window from Claude Code's table blocks",
      {
        occupancy: measured(450_000),
        window: { tokens: 1_000_000, source: 'model', detail: 'claude-opus-5-5', verified: true },
        values: { strict: true },
      },
      'block',
      'over-ceiling-blocked',
      'OVER_CEILING',
    ],
    [
      'a 1M window changes the verdict',
      { occupancy: measured(180_000), window: stated(1_000_000), values: { strict: true } },
      'allow',
      'below-ceiling',
      'NOMINAL',
    ],
    [
      'a lower ceiling triggers earlier',
      { occupancy: measured(50_000), values: { ceilingPct: 25 } },
      'warn',
      'over-ceiling',
      'OVER_CEILING',
    ],
    ['tier WARNING at 70 %', { occupancy: measured(140_000) }, 'warn', 'over-ceiling', 'WARNING'],
  ])('%s', (_name, over, kind, messageId, tier) => {
    const { verdict } = judge(over);
    expect({ kind: verdict.kind, messageId: verdict.messageId, tier: verdict.tier }).toEqual({ kind, messageId, tier });
  });

  it('carries the numbers and the window provenance as data', () => {
    const { verdict } = judge({ window: { tokens: 200_000, source: 'policy', detail: '/p.json', verified: true } });
    expect(verdict.data).toMatchObject({
      tool: 'Agent',
      target: 'Explore',
      occupancy: 100_000,
      percent: 50,
      ceilingPct: 40,
      window: { source: 'policy', detail: '/p.json' },
    });
  });

  it.each<[string, Case, number]>([
    ['a gated call measures its context once', {}, 1],
    ['a call that is not gated reads nothing', { toolName: 'Read' }, 0],
    ['a recovery skill reads nothing', { toolName: 'Skill', toolInput: { skill: 'continue' } }, 0],
    ['a disabled guard reads nothing', { values: { enabled: false } }, 0],
  ])('%s', (_name, over, reads) => {
    expect(judge(over).reads).toBe(reads);
  });
});

describe('describeCall: what a call loads', () => {
  it.each<[string, unknown, string | undefined]>([
    ['Skill', { skill: 'deep-dive', args: 'x' }, 'deep-dive'],
    ['Agent', { subagent_type: 'Explore', prompt: 'p' }, 'Explore'],
    ['Task', { subagent_type: 'general-purpose' }, 'general-purpose'],
    ['Workflow', { name: 'deep-research', args: {} }, 'deep-research'],
    ['Workflow', { scriptPath: '/home/dev/project/.claude/workflows/release.js' }, 'release.js'],
    ['Workflow', { script: 'export const meta = { name: "x" }' }, 'inline script'],
    ['Workflow', {}, undefined],
    ['Skill', { skill: '' }, undefined],
    ['Skill', 'not an object', undefined],
  ])('%s %j → %s', (tool, input, target) => {
    expect(describeCall(tool, input).target).toBe(target);
  });
});

describe('isRecoveryCall', () => {
  const list = ['context-summarization', 'continue'];
  it.each([
    ['Skill', 'continue', true],
    ['Skill', '/continue', true],
    ['Skill', 'dev-team:continue', true],
    ['Skill', 'a:b:continue', true],
    ['Skill', 'continue-later', false],
    ['Skill', 'discontinue', false],
    ['Skill', undefined, false],
    ['Agent', 'continue', false],
  ])('%s %s → %s', (tool, target, expected) => {
    expect(isRecoveryCall({ tool, target }, list)).toBe(expected);
  });
});

describe('resolveGate: a recovery name the project defines is the repository’s skill', () => {
  const strict = policyWith({ strict: true });
  const asked: string[] = [];
  const projectDefines =
    (...names: string[]) =>
    (name: string) => {
      asked.push(name);
      return names.includes(name);
    };
  it.each([
    ['continue', projectDefines('continue'), [], { kind: 'gated', action: 'block', projectSkill: 'continue' }, ['continue']],
    ['/continue', projectDefines('continue'), [], { kind: 'gated', action: 'block', projectSkill: 'continue' }, ['continue']],
    [
      'context-summarization',
      projectDefines('context-summarization'),
      [],
      { kind: 'gated', projectSkill: 'context-summarization' },
      ['context-summarization'],
    ],
    ['continue', projectDefines('continue'), ['continue'], { kind: 'pass', reason: 'recovery-skill' }, []], // the operator configured it
    ['continue', projectDefines(), [], { kind: 'pass', reason: 'recovery-skill' }, ['continue']], // the project defines no such skill
    // a plugin's, unless the repository has a folder of that whole name, which answers first (2.1.331)
    ['dev-team:continue', projectDefines('continue'), [], { kind: 'pass', reason: 'recovery-skill' }, ['dev-team:continue']],
    [
      'context-ceiling:context-summarization',
      projectDefines('context-ceiling:context-summarization'),
      [],
      { kind: 'gated', action: 'block', projectSkill: 'context-ceiling:context-summarization' },
      ['context-ceiling:context-summarization'],
    ],
    ['deep-dive', projectDefines('deep-dive'), [], { kind: 'gated', action: 'block' }, []], // not a recovery name: nothing asked
    ['continue', undefined, [], { kind: 'pass', reason: 'recovery-skill' }, []], // a caller that cannot know (replay)
  ] as const)('Skill %s → %j', (target, projectOwnsSkill, operator, expected, lookups) => {
    asked.length = 0;
    const gate = resolveGate({ tool: 'Skill', target }, strict, { projectOwnsSkill, operatorRecoverySkills: operator });
    expect(gate).toMatchObject(expected);
    expect(asked).toEqual(lookups);
  });

  it('judgeCall carries the gated project skill in the verdict, measured like any call', () => {
    const verdict = judgeCall(
      { tool: 'Skill', target: 'continue' },
      policyWith({ strict: true }),
      () => ({ occupancy: measured(150_000), window: stated() }),
      { projectOwnsSkill: () => true, operatorRecoverySkills: [] },
    );
    expect(verdict).toMatchObject({ kind: 'block', messageId: 'over-ceiling-blocked', data: { projectSkill: 'continue' } });
  });
});

describe('resolveToolAction', () => {
  it.each([
    [{ Agent: 'auto' as const }, false, 'warn'],
    [{ Agent: 'auto' as const }, true, 'block'],
    [{ Agent: 'warn' as const }, true, 'warn'],
    [{ Agent: 'off' as const }, true, 'off'],
    [{}, true, 'off'],
  ])('%j strict=%s → %s', (tools, strict, expected) => {
    expect(resolveToolAction('Agent', { tools, strict })).toBe(expected);
  });

  it('does not treat inherited object keys as tools', () => {
    expect(resolveToolAction('constructor', { tools: {}, strict: true })).toBe('off');
    expect(resolveToolAction('__proto__', { tools: {}, strict: true })).toBe('off');
  });
});

describe('dedup buckets', () => {
  it.each([
    [40, 8],
    [44.99, 8],
    [45, 9],
    [99.9, 19],
  ])('%s%% is bucket %s', (percent, bucket) => {
    expect(bucketOf(percent)).toBe(bucket);
  });

  it.each([
    [8, [], true],
    [8, [8], false],
    [9, [8], true],
    [8, [9], false],
    [10, [8, 9], true],
  ])('bucket %s after %j → warn %s', (bucket, warned, expected) => {
    expect(shouldWarnAgain(bucket, warned)).toBe(expected);
  });
});
