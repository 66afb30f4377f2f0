import { describe, expect, it } from 'vitest';
import { judgeCeiling } from '../../src/core/ceiling.js';
import { ASSUMED_WINDOW_ADVICE, describeWindowSource, formatPercent, formatTokens, renderVerdict } from '../../src/core/messages.js';
import { resolvePolicy } from '../../src/core/policy.js';

const policy = (strict: boolean) => resolvePolicy([{ source: { layer: 'env' }, values: { strict } }]).policy;

describe('renderVerdict', () => {
  it('warn: stderr, model and user texts name percent, numbers, window source and the recovery skill', () => {
    const verdict = judgeCeiling({
      toolName: 'Agent',
      toolInput: {},
      occupancy: { kind: 'measured', tokens: 100_000, source: 'usage' },
      window: { tokens: 200_000, source: 'bridge' },
      policy: policy(false),
      recoverySkill: 'context-summarization',
    });
    const texts = renderVerdict(verdict)!;
    expect(texts.stderr).toBe(
      'context-ceiling: context at 50% (100,000 of 200,000 tokens, window: bridge) is over the 40% ceiling before Agent; run the /context-summarization skill before loading more capabilities.',
    );
    expect(texts.model).toBe(
      'Context ceiling warning: context is at 50% (100,000 of 200,000 tokens; window: bridge), over the 40% ceiling. The Agent call proceeds, but load no further agents or skills until you have brought context back under the ceiling: run the /context-summarization skill.',
    );
    expect(texts.user).toBe(
      'context-ceiling: 50% of a 200,000-token window (bridge) is over the 40% ceiling; the model was told to run the /context-summarization skill.',
    );
    expect(texts.stderr).not.toContain('\n');
  });

  it('an assumed window: every text says so, and stderr and the person get the one line that states it', () => {
    const verdict = judgeCeiling({
      toolName: 'Agent',
      toolInput: {},
      occupancy: { kind: 'measured', tokens: 100_000, source: 'usage' },
      window: { tokens: 200_000, source: 'default' },
      policy: policy(true),
    });
    const texts = renderVerdict(verdict)!;
    expect(verdict.kind).toBe('warn');
    expect(texts.model).toContain('of an assumed 200,000-token window');
    for (const text of [texts.stderr, texts.user!]) {
      expect(text).toContain(
        "The window is assumed, so this only warns, even in strict mode; state it: DEV_TEAM_CONTEXT_WINDOW=1000000 (your model's window in tokens).",
      );
    }
  });

  it('no installed recovery skill: the way out is a compaction, and no skill is named', () => {
    const verdict = judgeCeiling({
      toolName: 'Skill',
      toolInput: { skill: 'x' },
      occupancy: { kind: 'measured', tokens: 100_000, source: 'usage' },
      window: { tokens: 200_000, source: 'env' },
      policy: policy(true),
      recoverySkill: undefined,
    });
    expect(renderVerdict(verdict)!.stderr).toContain(
      'To bring context under the ceiling, have the conversation compacted (/compact), then retry',
    );
  });

  it('block: one stderr line with "blocked", the numbers and the way out', () => {
    const verdict = judgeCeiling({
      toolName: 'Skill',
      toolInput: { skill: 'deep-dive' },
      occupancy: { kind: 'measured', tokens: 180_000, source: 'usage' },
      window: { tokens: 200_000, source: 'env' },
      policy: policy(true),
      recoverySkill: 'context-summarization',
    });
    expect(renderVerdict(verdict)).toEqual({
      stderr:
        'context-ceiling: blocked Skill "deep-dive": context at 90% (180,000 of 200,000 tokens, window: env) is over the 40% ceiling (strict mode). To bring context under the ceiling, run the /context-summarization skill, then retry; recovery skills are never blocked.',
    });
  });

  it('names the skill as invoked in this install (plugin-qualified) and points to /compact when none is installed', () => {
    const facts = {
      toolName: 'Skill',
      toolInput: { skill: 'deep-dive' },
      occupancy: { kind: 'measured', tokens: 180_000, source: 'usage' },
      window: { tokens: 200_000, source: 'env' },
    } as const;
    expect(
      renderVerdict(judgeCeiling({ ...facts, policy: policy(true), recoverySkill: 'context-ceiling:context-summarization' }))!.stderr,
    ).toContain('To bring context under the ceiling, run the /context-ceiling:context-summarization skill, then retry');
    const blocked = renderVerdict(judgeCeiling({ ...facts, policy: policy(true) }))!;
    expect(blocked.stderr).toContain(
      '(strict mode). To bring context under the ceiling, have the conversation compacted (/compact), then retry',
    );
    const warned = renderVerdict(judgeCeiling({ ...facts, policy: policy(false) }))!;
    for (const text of [blocked.stderr, warned.stderr, warned.model!, warned.user!]) expect(text).not.toContain('context-summarization');
    expect(warned.stderr).toContain('; have the conversation compacted (/compact) before loading more capabilities.');
    expect(warned.model).toContain('until you have brought context back under the ceiling: have the conversation compacted (/compact).');
    expect(warned.user).toContain('; the model was told to have the conversation compacted (/compact).');
  });

  it('no window hint when the window was configured', () => {
    const verdict = judgeCeiling({
      toolName: 'Agent',
      toolInput: {},
      occupancy: { kind: 'measured', tokens: 500_000, source: 'usage' },
      window: { tokens: 1_000_000, source: 'env' },
      policy: policy(false),
    });
    expect(renderVerdict(verdict)!.user).not.toContain('DEV_TEAM_CONTEXT_WINDOW');
  });

  it('allow verdicts are silent', () => {
    const verdict = judgeCeiling({
      toolName: 'Agent',
      toolInput: {},
      occupancy: { kind: 'measured', tokens: 1, source: 'usage' },
      window: { tokens: 200_000, source: 'default' },
      policy: policy(false),
    });
    expect(renderVerdict(verdict)).toBeUndefined();
  });
});

describe('formatting', () => {
  it.each([
    [0, '0'],
    [999, '999'],
    [1_000, '1,000'],
    [951_005, '951,005'],
    [1_000_000, '1,000,000'],
  ])('formatTokens(%s) = %s', (n, text) => {
    expect(formatTokens(n)).toBe(text);
  });

  it('percent is rounded down so a value under the ceiling never reads as the ceiling', () => {
    expect(formatPercent(39.9995)).toBe('39%');
    expect(formatPercent(50)).toBe('50%');
    expect(formatPercent(0.26)).toBe('<1%');
    expect(formatPercent(0)).toBe('0%');
  });
});

describe('describeWindowSource: the one way a window source reads for people', () => {
  it.each([
    [{ tokens: 1, source: 'env' as const }, 'env (.claude/settings.json)', 'env (.claude/settings.json)'],
    [{ tokens: 1, source: 'env' as const }, undefined, 'env'],
    [{ tokens: 1, source: 'policy' as const, detail: '/p/policy.json' }, undefined, 'policy: /p/policy.json'],
    [{ tokens: 1, source: 'bridge' as const, detail: '2 min old' }, 'ignored for a non-env source', 'bridge: 2 min old'],
    [{ tokens: 1, source: 'default' as const }, undefined, 'default'],
  ])('%j from %j → %s', (window, configuredFrom, expected) => {
    expect(describeWindowSource(window, configuredFrom)).toBe(expected);
  });

  it('the advice for an assumed window names the one way to state it', () => {
    expect(ASSUMED_WINDOW_ADVICE).toBe(
      `assumed; state it: DEV_TEAM_CONTEXT_WINDOW=1000000 (your model's window in tokens), or a policy "window"`,
    );
  });
});
