// @module-tag hook
/**
 * A repository cannot loosen what the operator set (issue "trust boundaries, part two", case 6): with strict
 * mode from the environment, a committed project policy that would turn the block into silence is left out,
 * the block stands, and the person is told once what was ignored.
 */
import { describe, expect, it } from 'vitest';
import { describeGuard, expectBlocked, STRICT } from '../helpers/guard-runners.js';
import { preToolUse } from '../helpers/sandbox.js';

describeGuard((h) => {
  const blocked = async (policy: Record<string, unknown>, session: string) => {
    h.sandbox.write('project/.claude/context-ceiling.json', JSON.stringify(policy));
    return h.guard(
      preToolUse(
        h.transcriptAt(450_000, `${session}.jsonl`),
        'Skill',
        { skill: 'deep-dive' },
        { session_id: session, cwd: h.sandbox.project },
      ),
      {
        ...STRICT,
        CLAUDE_PROJECT_DIR: h.sandbox.project,
      },
    );
  };

  describe('a committed project policy cannot relax the strict mode the environment set', () => {
    it.each<[string, Record<string, unknown>, string]>([
      ['enabled: false', { enabled: false }, 'enabled false'],
      ['ceilingPct: 100', { ceilingPct: 100 }, 'ceilingPct 100'],
      ['tools.Skill: off', { tools: { Skill: 'off' } }, 'tools.Skill "off"'],
      ['recoverySkills: [deep-dive]', { recoverySkills: ['deep-dive'] }, 'recoverySkills ["deep-dive"]'],
      ['strict: false', { strict: false }, 'strict false'],
    ])('%s: still blocked, and the person hears once what was ignored', async (_name, policy, ignored) => {
      const first = await blocked(policy, 's1');
      const { user } = expectBlocked(first, 'block over-ceiling-blocked +notice');
      expect(user).toContain(`the project's policy could only tighten it; ignored: ${ignored} (`);
      expectBlocked(await blocked(policy, 's1')); // said once
    });

    it.each<[string, Record<string, unknown>]>([
      ['window: 100000000', { window: 100_000_000 }],
      ['extends: large-window', { extends: 'large-window' }],
    ])('%s never widens the window Claude Code gives the model', async (_name, policy) => {
      expect(expectBlocked(await blocked(policy, 's2')).model).toContain('(450,000 of 1,000,000 tokens; window: model claude-opus-5-5)');
    });

    it('a project that tightens is heard: a lower ceiling blocks earlier', async () => {
      h.sandbox.write('project/.claude/context-ceiling.json', JSON.stringify({ ceilingPct: 20 }));
      const run = await h.guard(
        preToolUse(h.transcriptAt(250_000, 't.jsonl'), 'Skill', { skill: 'x' }, { session_id: 't', cwd: h.sandbox.project }),
        {
          ...STRICT,
          CLAUDE_PROJECT_DIR: h.sandbox.project,
        },
      );
      expect(expectBlocked(run).model).toContain('over the 20% ceiling');
    });
  });
});
