import { describe, expect, it } from 'vitest';
import * as MESSAGES from '../../src/core/guard-text.js';
import { describeCall, judgeCall } from '../../src/core/ceiling.js';
import {
  ASSUMED_WINDOW_ADVICE,
  describeWindowSource,
  formatPercent,
  formatTokens,
  renderVerdict,
  renderWindowNotice,
} from '../../src/core/guard-text.js';
import { resolvePolicy } from '../../src/core/policy.js';
import type { ResolvedWindow } from '../../src/core/window.js';

const policy = (strict: boolean) => resolvePolicy([{ source: { layer: 'env' }, values: { strict } }]).policy;
type JudgeFacts = {
  toolName: string;
  toolInput: unknown;
  occupancy: { kind: 'measured'; tokens: number; source: 'usage' };
  window: ResolvedWindow;
  policy: ReturnType<typeof policy>;
};
const judgeCeiling = (f: JudgeFacts) =>
  judgeCall(describeCall(f.toolName, f.toolInput), f.policy, () => ({ occupancy: f.occupancy, window: f.window }));
const opus: ResolvedWindow = { tokens: 1_000_000, source: 'model', detail: 'claude-opus-5-5', verified: true };

describe('renderVerdict', () => {
  it('warn: stderr, model and user texts name percent, numbers, window source and the recovery skill', () => {
    const verdict = judgeCeiling({
      toolName: 'Agent',
      toolInput: {},
      occupancy: { kind: 'measured', tokens: 450_000, source: 'usage' },
      window: opus,
      policy: policy(false),
    });
    const texts = renderVerdict(verdict, { recoverySkill: 'context-summarization' })!;
    expect(texts.stderr).toBe(
      'context-ceiling: context at 45% (450,000 of 1,000,000 tokens, window: model claude-opus-5-5) is over the 40% ceiling before Agent; run the /context-summarization skill before loading more capabilities.',
    );
    expect(texts.model).toBe(
      'Context ceiling warning: context is at 45% (450,000 of 1,000,000 tokens; window: model claude-opus-5-5), over the 40% ceiling. The Agent call proceeds, but load no further agents, skills or workflows until you have brought context back under the ceiling: run the /context-summarization skill.',
    );
    expect(texts.user).toBe(
      'context-ceiling: 45% of a 1,000,000-token window (model claude-opus-5-5) is over the 40% ceiling; the model was told to run the /context-summarization skill.',
    );
    expect(texts.stderr).not.toContain('\n');
  });

  it('an assumed window: every text says so, and stderr and the person get the one line that states it', () => {
    const verdict = judgeCeiling({
      toolName: 'Agent',
      toolInput: {},
      occupancy: { kind: 'measured', tokens: 100_000, source: 'usage' },
      window: {
        tokens: 200_000,
        source: 'assumed',
        verified: false,
        assumption: { why: 'variant', model: 'claude-sonnet-4-5', largest: 1_000_000 },
      },
      policy: policy(true),
    });
    const texts = renderVerdict(verdict)!;
    expect(verdict.kind).toBe('warn');
    expect(texts.model).toContain('of an assumed 200,000-token window');
    expect(texts.user).toContain(
      'of an assumed 200,000-token window (claude-sonnet-4-5; with [1m] it has 1,000,000, and nothing here says which) is over the 40% ceiling',
    );
    for (const text of [texts.stderr, texts.user!]) {
      expect(text).toContain(
        "The window is assumed, so this only warns, even in strict mode; state it: DEV_TEAM_CONTEXT_WINDOW=1000000 (your model's window in tokens).",
      );
    }
  });

  it('after a compaction that left the context over the ceiling: a checkpoint and /clear, never /compact or the skill alone (issue 20)', () => {
    const at = (strict: boolean) =>
      judgeCeiling({
        toolName: 'Skill',
        toolInput: { skill: 'deep-dive' },
        occupancy: { kind: 'measured', tokens: 450_005, source: 'usage' },
        window: opus,
        policy: policy(strict),
      });
    const stuck = { postTokens: 449_400 };
    const warn = renderVerdict(at(false), { recoverySkill: 'context-ceiling:context-summarization', stuck })!;
    expect(warn.model).toBe(
      'Context ceiling warning: context is at 45% (450,005 of 1,000,000 tokens; window: model claude-opus-5-5), over the 40% ceiling. The Skill "deep-dive" call proceeds, but load no further agents, skills or workflows until you have brought context back under the ceiling: ' +
        'save a checkpoint with /context-ceiling:context-summarization, then ask the person to run /clear (the new session resumes from it), since a compaction already left 449,400 tokens, over the 40% ceiling, so /compact again will not bring it under.',
    );
    const block = renderVerdict(at(true), { recoverySkill: 'context-summarization', stuck })!;
    expect(block.model).toContain(
      'To bring context back under the ceiling, save a checkpoint with /context-summarization, then ask the person to run /clear (the new session resumes from it), since a compaction already left 449,400 tokens',
    );
    const none = renderVerdict(at(true), { stuck })!;
    expect(none.model).toContain("ask the person to run /clear (the new session resumes from the compaction's checkpoint), since");
    for (const texts of [warn, block, none])
      for (const text of [texts.stderr, texts.model!, texts.user!]) {
        expect(text).not.toMatch(/run the \/|have the conversation compacted/);
      }
  });

  it('no installed recovery skill: the way out is a compaction, and no skill is named', () => {
    const verdict = judgeCeiling({
      toolName: 'Skill',
      toolInput: { skill: 'x' },
      occupancy: { kind: 'measured', tokens: 100_000, source: 'usage' },
      window: { tokens: 200_000, source: 'env', verified: true },
      policy: policy(true),
    });
    expect(renderVerdict(verdict)!.model).toContain(
      'To bring context back under the ceiling, have the conversation compacted (/compact), then retry',
    );
  });

  it('block: a decision the model reads (not an error), the person told, one stderr line with "blocked"', () => {
    const verdict = judgeCeiling({
      toolName: 'Skill',
      toolInput: { skill: 'deep-dive' },
      occupancy: { kind: 'measured', tokens: 450_000, source: 'usage' },
      window: opus,
      policy: policy(true),
    });
    expect(renderVerdict(verdict, { recoverySkill: 'context-summarization' })).toEqual({
      stderr:
        'context-ceiling: blocked Skill "deep-dive": context at 45% (450,000 of 1,000,000 tokens, window: model claude-opus-5-5) is over the 40% ceiling (strict mode).',
      model:
        'Blocked by the context ceiling (strict mode), not an error in the Skill tool: context is at 45% (450,000 of 1,000,000 tokens; window: model claude-opus-5-5), over the 40% ceiling, so Skill "deep-dive" was not loaded. To bring context back under the ceiling, run the /context-summarization skill, then retry; recovery skills are never blocked.',
      user: 'context-ceiling: blocked Skill "deep-dive" at 45% of a 1,000,000-token window (model claude-opus-5-5), over the 40% ceiling (strict mode); the model was told to run the /context-summarization skill.',
    });
  });

  it('names the skill as invoked in this install (plugin-qualified) and points to /compact when none is installed', () => {
    const facts = {
      toolName: 'Skill',
      toolInput: { skill: 'deep-dive' },
      occupancy: { kind: 'measured', tokens: 180_000, source: 'usage' },
      window: { tokens: 200_000, source: 'env', verified: true },
    } as const;
    expect(
      renderVerdict(judgeCeiling({ ...facts, policy: policy(true) }), { recoverySkill: 'context-ceiling:context-summarization' })!.model,
    ).toContain('To bring context back under the ceiling, run the /context-ceiling:context-summarization skill, then retry');
    const blocked = renderVerdict(judgeCeiling({ ...facts, policy: policy(true) }))!;
    expect(blocked.model).toContain(
      'was not loaded. To bring context back under the ceiling, have the conversation compacted (/compact), then retry',
    );
    const warned = renderVerdict(judgeCeiling({ ...facts, policy: policy(false) }))!;
    for (const text of [blocked.stderr, blocked.model!, blocked.user!, warned.stderr, warned.model!, warned.user!])
      expect(text).not.toContain('context-summarization');
    expect(warned.stderr).toContain('; have the conversation compacted (/compact) before loading more capabilities.');
    expect(warned.model).toContain('until you have brought context back under the ceiling: have the conversation compacted (/compact).');
    expect(warned.user).toContain('; the model was told to have the conversation compacted (/compact).');
  });

  it('no window hint when the window was configured', () => {
    const verdict = judgeCeiling({
      toolName: 'Agent',
      toolInput: {},
      occupancy: { kind: 'measured', tokens: 500_000, source: 'usage' },
      window: { tokens: 1_000_000, source: 'env', verified: true },
      policy: policy(false),
    });
    expect(renderVerdict(verdict)!.user).not.toContain('DEV_TEAM_CONTEXT_WINDOW');
  });

  it('allow verdicts are silent', () => {
    const verdict = judgeCeiling({
      toolName: 'Agent',
      toolInput: {},
      occupancy: { kind: 'measured', tokens: 1, source: 'usage' },
      window: opus,
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
    [{ tokens: 1, source: 'statusline' as const, detail: '2 min old' }, 'ignored for a non-env source', 'status line, 2 min old'],
    [{ tokens: 1, source: 'model' as const, detail: 'claude-opus-5-5' }, undefined, 'model claude-opus-5-5'],
    [{ tokens: 1, source: 'learned' as const, detail: 'claude-foo-9' }, undefined, 'learned for claude-foo-9'],
    [
      { tokens: 1, source: 'evidence' as const, detail: 'claude-sonnet-4-5' },
      undefined,
      'claude-sonnet-4-5 with [1m], proven by what this session held',
    ],
    [{ tokens: 1, source: 'assumed' as const }, undefined, 'assumed'],
  ])('%j from %j → %s', (window, configuredFrom, expected) => {
    expect(describeWindowSource(window, configuredFrom)).toBe(expected);
  });

  it('the advice for an assumed window names the one way to state it', () => {
    expect(ASSUMED_WINDOW_ADVICE).toBe(
      `assumed; state it: DEV_TEAM_CONTEXT_WINDOW=1000000 (your model's window in tokens), or a policy "window"`,
    );
  });
});

describe('renderWindowNotice: said once per session to the person', () => {
  it('a stated window the session outgrew', () => {
    const window: ResolvedWindow = { ...opus, disproved: { tokens: 200_000, source: 'env' } };
    expect(renderWindowNotice({ id: 'window-disproved', disproved: { tokens: 200_000, source: 'env' }, held: 300_000, window })).toBe(
      "context-ceiling: this session has held 300,000 tokens, more than the 200,000-token window (env), so that window is wrong; the ceiling is judged against 1,000,000 tokens (model claude-opus-5-5) instead. Correct it: DEV_TEAM_CONTEXT_WINDOW=1000000 (your model's window in tokens).",
    );
  });

  it('a model Claude Code does not know', () => {
    const window: ResolvedWindow = {
      tokens: 1_000_000,
      source: 'assumed',
      verified: false,
      assumption: { why: 'unknown-model', model: 'claude-foo-9' },
    };
    expect(renderWindowNotice({ id: 'unknown-model', model: 'claude-foo-9', window })).toBe(
      "context-ceiling: claude-foo-9 is not in Claude Code's model table, so its window is assumed to be 1,000,000 tokens (Claude Code's own default for such models) and the ceiling only warns; state it: DEV_TEAM_CONTEXT_WINDOW=1000000 (your model's window in tokens), or a policy \"window\".",
    );
  });
});

describe('a policy file left out is a notice, remembered by its text', () => {
  const { judgeNotices, noticeKey, renderNotice } = MESSAGES;
  it('names the file and the problem, and a different problem is a different notice', () => {
    const [notice] = judgeNotices(undefined, 0, [], ['/home/u/.claude/context-ceiling.json: unknown key "stirct"']);
    expect(renderNotice(notice!)).toBe(
      'context-ceiling: a policy file was ignored, so its settings (strict mode included) are not in force: /home/u/.claude/context-ceiling.json: unknown key "stirct". Fix it (context-ceiling config validate shows every problem).',
    );
    const [other] = judgeNotices(undefined, 0, [], ['/home/u/.claude/context-ceiling.json: unknown key "strictt"']);
    expect(noticeKey(notice!)).toMatch(/^policy-ignored-[0-9a-f]{8}$/);
    expect(noticeKey(other!)).not.toBe(noticeKey(notice!));
    expect(noticeKey(judgeNotices(undefined, 0, [], ['/home/u/.claude/context-ceiling.json: unknown key "stirct"'])[0]!)).toBe(
      noticeKey(notice!),
    );
    expect(judgeNotices(undefined, 0, [], [])).toEqual([]);
  });
});

describe('a path variable a project settings file set is a notice, remembered by variable and file', () => {
  const { judgeNotices, noticeKey, renderNotice } = MESSAGES;
  const path = (name: string, label = '.claude/settings.json') => ({ name, value: '/x', label });
  it('names the variable and the file in one line; another variable or file is another notice', () => {
    const [notice] = judgeNotices(undefined, 0, [], [], [path('DEV_TEAM_CONTEXT_STATE_DIR')]);
    expect(renderNotice(notice!)).toBe(
      "context-ceiling: ignored DEV_TEAM_CONTEXT_STATE_DIR from .claude/settings.json: a project's settings may not name a path for context-ceiling; set it in your environment or ~/.claude/settings.json.",
    );
    expect(noticeKey(notice!)).toMatch(/^paths-ignored-[0-9a-f]{8}$/);
    // The value is not part of the key: the repository changing it does not make the session hear it again.
    expect(noticeKey(judgeNotices(undefined, 0, [], [], [{ ...path('DEV_TEAM_CONTEXT_STATE_DIR'), value: '/y' }])[0]!)).toBe(
      noticeKey(notice!),
    );
    expect(noticeKey(judgeNotices(undefined, 0, [], [], [path('DEV_TEAM_CONTEXT_DEBUG')])[0]!)).not.toBe(noticeKey(notice!));
    expect(noticeKey(judgeNotices(undefined, 0, [], [], [path('DEV_TEAM_CONTEXT_STATE_DIR', '.claude/settings.local.json')])[0]!)).not.toBe(
      noticeKey(notice!),
    );
  });
});
