// @module-tag hook
/** What the guard measures: main-thread turns only, real Claude Code transcripts, a subagent's own transcript, unreadable files. */
import { chmodSync, copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { describeGuard, expectBlocked, expectSilent, STRICT } from '../helpers/guard-runners.js';
import { EACH_CLIENT, REAL_CLIENTS } from '../helpers/real-clients.js';
import { FIXTURES, preToolUse } from '../helpers/sandbox.js';

describeGuard((h) => {
  const { guard, transcriptAt } = h;

  describe('what is measured', () => {
    it('isSidechain and synthetic records never decide the verdict', async () => {
      const transcript = h.sandbox.write(
        'claude/decoys.jsonl',
        aTranscript()
          .user('go')
          .assistant({ cacheRead: 20_000 })
          .sidechain({ cacheRead: 900_000 })
          .apiError()
          .assistant({ model: '<synthetic>', cacheRead: 900_000 })
          .toString(),
      );
      expectSilent(await guard(preToolUse(transcript, 'Skill', { skill: 'x' }), STRICT), 'allow below-ceiling');
    });

    it('a newer low sidechain turn cannot hide a high main-thread occupancy', async () => {
      const transcript = h.sandbox.write(
        'claude/hide.jsonl',
        aTranscript().assistant({ cacheRead: 900_000 }).sidechain({ cacheRead: 1_000 }).apiError().toString(),
      );
      expectBlocked(await guard(preToolUse(transcript, 'Skill', { skill: 'x' }), STRICT));
    });

    it('progress / agent_progress records are never counted', async () => {
      const transcript = h.sandbox.write(
        'claude/progress.jsonl',
        aTranscript().assistant({ cacheRead: 20_000 }).progress({ cacheRead: 900_000 }).progress({ cacheRead: 900_000 }).toString(),
      );
      expectSilent(await guard(preToolUse(transcript, 'Agent'), STRICT), 'allow below-ceiling');
    });

    it("real transcript, auto-compact.jsonl (2.1.328): 951,005 tokens is 95 % of the default model's window: blocked in strict mode", async () => {
      const { model } = expectBlocked(
        await guard(preToolUse(join(FIXTURES, 'auto-compact.jsonl'), 'Skill', { skill: 'deep-dive' }), STRICT),
      );
      expect(model).toContain('95% (951,005 of 1,000,000 tokens; window: model claude-opus-5-5)');
    });

    it("a stated 200,000 window this session outgrew is never judged against: the model's is, and the person hears why once", async () => {
      const copy = join(h.sandbox.root, 'auto-compact.jsonl');
      copyFileSync(join(FIXTURES, 'auto-compact.jsonl'), copy);
      const env = { ...STRICT, DEV_TEAM_CONTEXT_WINDOW: '200000' };
      const first = await guard(preToolUse(copy, 'Skill', { skill: 'deep-dive' }), env);
      const { model, user } = expectBlocked(first, 'block over-ceiling-blocked +notice');
      expect(model).toContain('95% (951,005 of 1,000,000 tokens; window: model claude-opus-5-5)');
      expect(user).toContain(
        'this session has held 951,005 tokens, more than the 200,000-token window (env), so that window is wrong; the ceiling is judged against 1,000,000 tokens (model claude-opus-5-5) instead',
      );
      const again = expectBlocked(await guard(preToolUse(copy, 'Skill', { skill: 'deep-dive' }), env));
      expect(again.user).not.toContain('that window is wrong');
    });

    it.each(EACH_CLIENT)(
      'real transcript from %s, skill-then-manual-compact.jsonl: after /compact the stale turn no longer counts, postTokens does',
      async (_version, { dir, manualCompact }) => {
        const transcript = join(dir, 'skill-then-manual-compact.jsonl');
        const env = { ...STRICT, DEV_TEAM_CONTEXT_WINDOW: '200000' };
        expectSilent(await guard(preToolUse(transcript, 'Skill', { skill: 'deep-dive' }), env), 'allow below-ceiling');
        // postTokens is 1.3% of the window: a 1% ceiling proves that number is the one used
        const run = await guard(preToolUse(transcript, 'Skill', { skill: 'deep-dive' }), { ...env, DEV_TEAM_CONTEXT_CEILING_PCT: '1' });
        expect(expectBlocked(run).model).toContain(`1% (${manualCompact.tokens.toLocaleString('en-US')} of 200,000 tokens`);
      },
    );

    it.each(REAL_CLIENTS.filter((client) => client.version !== '2.1.328').map((client) => [client.version, client.dir] as const))(
      'real transcript from %s, auto-compact.jsonl: after a mid-run compaction the fresh turn (3,505) counts, not the 951,005 before it',
      async (_version, dir) => {
        // 951,005 of 1,000,000 would be 95% and blocked in strict mode
        expectSilent(
          await guard(preToolUse(join(dir, 'auto-compact.jsonl'), 'Skill', { skill: 'deep-dive' }), STRICT),
          'allow below-ceiling',
        );
      },
    );
  });

  describe('inside a subagent', () => {
    const mainAt = (tokens: number) => transcriptAt(tokens, 'main.jsonl');
    const subagentFile = (agentId: string, tokens: number) =>
      h.sandbox.write(
        `claude/main/subagents/agent-${agentId}.jsonl`,
        aTranscript()
          .user('task')
          .assistant({ agentId, cacheRead: tokens - 5 })
          .toString(),
      );

    it('judged by the subagent’s own transcript, not the main one', async () => {
      const main = mainAt(900_000);
      subagentFile('a1b2', 20_000);
      expectSilent(
        await guard(preToolUse(main, 'Skill', { skill: 'x' }, { agent_id: 'a1b2', agent_type: 'Explore' }), STRICT),
        'allow below-ceiling',
      );
    });

    it('a full subagent context is gated even when the main context is small', async () => {
      const main = mainAt(10_000);
      subagentFile('a1b2', 750_000);
      expect(expectBlocked(await guard(preToolUse(main, 'Skill', { skill: 'x' }, { agent_id: 'a1b2' }), STRICT)).model).toContain('75%');
    });

    it("a Workflow's subagent is judged by its own transcript under subagents/workflows/<run>/", async () => {
      const main = mainAt(10_000);
      h.sandbox.write(
        'claude/main/subagents/workflows/run-7/agent-w1.jsonl',
        aTranscript().user('task').assistant({ agentId: 'w1', cacheRead: 750_000 }).toString(),
      );
      const run = await guard(preToolUse(main, 'Skill', { skill: 'x' }, { agent_id: 'w1', agent_type: 'workflow-subagent' }), STRICT);
      expect(expectBlocked(run).model).toContain('75%');
    });

    it('passes when the subagent transcript cannot be read', async () => {
      expectSilent(
        await guard(preToolUse(mainAt(900_000), 'Skill', { skill: 'x' }, { agent_id: 'missing' }), STRICT),
        'allow unmeasured no-transcript',
      );
    });

    it('a transcript path that names a directory fails open, also as root', async () => {
      mkdirSync(join(h.sandbox.root, 'claude', 'dir.jsonl'), { recursive: true });
      expectSilent(
        await guard(preToolUse(join(h.sandbox.root, 'claude', 'dir.jsonl'), 'Skill', { skill: 'x' }), STRICT),
        'allow unmeasured unreadable',
      );
    });

    it('an agent id that could traverse paths is never used: passes', async () => {
      h.sandbox.write('claude/evil.jsonl', aTranscript().assistant({ agentId: '../../evil', cacheRead: 900_000 }).toString());
      expectSilent(
        await guard(preToolUse(mainAt(900_000), 'Skill', { skill: 'x' }, { agent_id: '../../evil' }), STRICT),
        'allow unmeasured no-transcript',
      );
    });
  });

  describe('permissions', () => {
    it('an unreadable transcript fails open (as root too: the hook runs without the override of permission bits)', async () => {
      const transcript = transcriptAt(900_000);
      chmodSync(transcript, 0o000);
      h.sandbox.obeyPermissions = true;
      expectSilent(await guard(preToolUse(transcript, 'Skill', { skill: 'x' }), STRICT), 'allow unmeasured unreadable');
    });
  });
});
