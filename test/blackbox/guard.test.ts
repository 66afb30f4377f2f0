/** The guard's contract, run as Claude Code runs it: the verdict below and over the ceiling, the recovery skill it names, configuration by env and policy file. */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectSilent, describeEachEntry, STRICT } from '../helpers/guard-runners.js';
import { preToolUse, ROOT } from '../helpers/sandbox.js';

describeEachEntry((h) => {
  const { guard, transcriptAt } = h;

  describe('the recovery skill a message names is one that is installed, under the name it is invoked by', () => {
    const blocked = async (env: Record<string, string> = {}) =>
      (await guard(preToolUse(transcriptAt(100_000), 'Skill', { skill: 'deep-dive' }), { ...STRICT, ...env })).stderr;
    const removeUserSkill = () => rmSync(join(h.sandbox.home, '.claude', 'skills'), { recursive: true });

    it('none installed: the way out is /compact and no skill is named', async () => {
      removeUserSkill();
      const stderr = await blocked();
      expect(stderr).toContain('(strict mode). To bring context under the ceiling, have the conversation compacted (/compact), then retry');
      expect(stderr).not.toContain('context-summarization');
    });

    it("run from the plugin (CLAUDE_PLUGIN_ROOT is the bundle's parent, which ships the skill): plugin-qualified", async () => {
      removeUserSkill();
      expect(await blocked({ CLAUDE_PLUGIN_ROOT: join(ROOT, 'plugin') })).toContain('run the /context-ceiling:context-summarization skill');
      expect(await blocked({ CLAUDE_PLUGIN_ROOT: h.sandbox.root })).toContain('(/compact)'); // another plugin's root says nothing about us
    });

    it("installed in the project (bare name), and a team's own configured skill wins when it exists", async () => {
      removeUserSkill();
      h.sandbox.write('project/.claude/skills/context-summarization/SKILL.md', '---\nname: context-summarization\ndescription: d\n---\n');
      expect(await blocked({ CLAUDE_PROJECT_DIR: h.sandbox.project })).toContain('run the /context-summarization skill');
      h.sandbox.write('project/.claude/skills/wrap-up/SKILL.md', '---\nname: wrap-up\ndescription: d\n---\n');
      expect(
        await blocked({ CLAUDE_PROJECT_DIR: h.sandbox.project, DEV_TEAM_CONTEXT_RECOVERY_SKILLS: 'wrap-up,context-summarization' }),
      ).toContain('run the /wrap-up skill');
      expect(
        await blocked({ CLAUDE_PROJECT_DIR: h.sandbox.project, DEV_TEAM_CONTEXT_RECOVERY_SKILLS: 'not-there,context-summarization' }),
      ).toContain('run the /context-summarization skill');
    });
  });

  describe('below and over the ceiling', () => {
    it('below the ceiling: exit 0, empty stdout and stderr', async () => {
      expectSilent(await guard(preToolUse(transcriptAt(60_000), 'Agent')));
    });

    it('over it on Agent: warns on stderr (percent, recovery skill), tells the model, tells the user', async () => {
      const run = await guard(preToolUse(transcriptAt(100_000), 'Agent', { description: 'd', prompt: 'p', subagent_type: 'Explore' }));
      expect(run.exitCode).toBe(0);
      expect(run.stderr).toBe(
        'context-ceiling: context at 50% (100,000 of an assumed 200,000-token window) is over the 40% ceiling before Agent "Explore"; run the /context-summarization skill before loading more capabilities. ' +
          "The window is assumed, so this only warns; state it: DEV_TEAM_CONTEXT_WINDOW=1000000 (your model's window in tokens).\n",
      );
      const output = JSON.parse(run.stdout);
      expect(output.hookSpecificOutput.hookEventName).toBe('PreToolUse');
      expect(output.hookSpecificOutput.additionalContext).toContain('50%');
      expect(output.hookSpecificOutput.additionalContext).toContain('/context-summarization');
      expect(output.systemMessage).toContain('50%');
      expect(Object.keys(output).sort()).toEqual(['hookSpecificOutput', 'systemMessage']);
    });

    it('strict on Skill: blocks with exit 2 and "blocked" on stderr, nothing on stdout', async () => {
      const run = await guard(preToolUse(transcriptAt(100_000), 'Skill', { skill: 'deep-dive' }), STRICT);
      expect(run.exitCode).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(
        'context-ceiling: blocked Skill "deep-dive": context at 50% (100,000 of 200,000 tokens, window: env) is over the 40% ceiling (strict mode). To bring context under the ceiling, run the /context-summarization skill, then retry; recovery skills are never blocked.\n',
      );
    });

    it('blocks are never deduplicated', async () => {
      const input = preToolUse(transcriptAt(100_000), 'Skill', { skill: 'deep-dive' });
      for (let i = 0; i < 3; i++) expect((await guard(input, STRICT)).exitCode).toBe(2);
    });

    it.each([
      'context-summarization',
      'dev-team:context-summarization',
      'any-plugin:continue',
      'context-loading-protocol',
      'review-summary',
      'session-review',
    ])('recovery skill %s is never gated, even strict at 90 percent', async (skill) => {
      expectSilent(await guard(preToolUse(transcriptAt(180_000), 'Skill', { skill }), STRICT));
    });

    it.each(['Read', 'Bash', 'Write', 'Grep'])('%s is ignored, even strict at 90 percent', async (tool) => {
      expectSilent(await guard(preToolUse(transcriptAt(180_000), tool, { file_path: 'x' }), STRICT));
    });

    it('Task (the pre-2.1.63 name of Agent) is gated too', async () => {
      expect((await guard(preToolUse(transcriptAt(180_000), 'Task'), STRICT)).exitCode).toBe(2);
    });
  });

  describe('configuration through the environment', () => {
    it('DEV_TEAM_CONTEXT_CEILING=off: silent even strict at 90%', async () => {
      expectSilent(await guard(preToolUse(transcriptAt(180_000), 'Skill', { skill: 'x' }), { DEV_TEAM_CONTEXT_CEILING: 'off', ...STRICT }));
    });

    it.each(['OFF', 'false', '0', 'no', ' off'])('DEV_TEAM_CONTEXT_CEILING=%j does not disable (strict literals)', async (value) => {
      expect(
        (await guard(preToolUse(transcriptAt(180_000), 'Skill', { skill: 'x' }), { DEV_TEAM_CONTEXT_CEILING: value, ...STRICT })).exitCode,
      ).toBe(2);
    });

    it.each(['ON', 'true', '1', 'yes'])('DEV_TEAM_CONTEXT_STRICT=%j does not make strict (strict literals)', async (value) => {
      const run = await guard(preToolUse(transcriptAt(180_000), 'Skill', { skill: 'x' }), { DEV_TEAM_CONTEXT_STRICT: value });
      expect(run.exitCode).toBe(0);
      expect(run.stderr).toContain('90%');
    });

    it('DEV_TEAM_CONTEXT_WINDOW=1000000 changes the verdict', async () => {
      const transcript = transcriptAt(180_000);
      expect((await guard(preToolUse(transcript, 'Skill', { skill: 'x' }), STRICT)).exitCode).toBe(2);
      expectSilent(await guard(preToolUse(transcript, 'Skill', { skill: 'x' }), { ...STRICT, DEV_TEAM_CONTEXT_WINDOW: '1000000' }));
    });

    it('the window source is named: env', async () => {
      const run = await guard(preToolUse(transcriptAt(500_000), 'Agent'), { DEV_TEAM_CONTEXT_WINDOW: '1000000' });
      expect(run.stderr).toContain('50% (500,000 of 1,000,000 tokens, window: env)');
    });

    it('DEV_TEAM_CONTEXT_CEILING_PCT=25 lowers the trigger', async () => {
      const transcript = transcriptAt(60_000);
      expectSilent(await guard(preToolUse(transcript, 'Agent')));
      const run = await guard(preToolUse(transcript, 'Agent'), { DEV_TEAM_CONTEXT_CEILING_PCT: '25' });
      expect(run.stderr).toContain('30%');
      expect(run.stderr).toContain('25% ceiling');
    });

    it.each([
      ['abc', 'abc'],
      ['-5', '0'],
      ['40.5', '1e9'],
      ['', ''],
      ['0', '99'],
    ])('malformed CEILING_PCT=%j / WINDOW=%j fall back to 40 / 200000', async (pct, window) => {
      const env = { DEV_TEAM_CONTEXT_CEILING_PCT: pct, DEV_TEAM_CONTEXT_WINDOW: window };
      expectSilent(await guard(preToolUse(transcriptAt(79_000), 'Agent'), env));
      const run = await guard(preToolUse(transcriptAt(81_000, 'other.jsonl'), 'Agent', {}, { session_id: 'sess-2' }), env);
      expect(run.stderr).toContain('40% (81,000 of an assumed 200,000-token window) is over the 40% ceiling');
    });
  });

  describe('policy file', () => {
    it('per-tool actions: Skill blocks, Agent only warns, without strict mode', async () => {
      h.sandbox.write('project/.claude/context-ceiling.json', JSON.stringify({ tools: { Skill: 'block', Agent: 'warn' } }));
      const transcript = transcriptAt(100_000);
      expect(
        (await guard(preToolUse(transcript, 'Skill', { skill: 'x' }, { cwd: h.sandbox.project }), { DEV_TEAM_CONTEXT_WINDOW: '200000' }))
          .exitCode,
      ).toBe(2);
      const agent = await guard(preToolUse(transcript, 'Agent', {}, { cwd: h.sandbox.project }), { DEV_TEAM_CONTEXT_WINDOW: '200000' });
      expect(agent.exitCode).toBe(0);
      expect(agent.stderr).toContain('50%');
    });

    it('CLAUDE_PROJECT_DIR locates the project policy', async () => {
      h.sandbox.write('project/.claude/context-ceiling.json', JSON.stringify({ extends: 'strict-ci' }));
      expect(
        (
          await guard(preToolUse(transcriptAt(100_000), 'Skill', { skill: 'x' }), {
            CLAUDE_PROJECT_DIR: h.sandbox.project,
            DEV_TEAM_CONTEXT_WINDOW: '200000',
          })
        ).exitCode,
      ).toBe(2);
    });

    it('a policy window is named as the source', async () => {
      h.sandbox.write('home/.claude/context-ceiling.json', JSON.stringify({ extends: 'large-window' }));
      const run = await guard(preToolUse(transcriptAt(500_000), 'Agent'));
      expect(run.stderr).toContain('50% (500,000 of 1,000,000 tokens, window: policy)');
    });

    it('env wins over the policy file', async () => {
      h.sandbox.write('home/.claude/context-ceiling.json', JSON.stringify({ strict: true }));
      expect((await guard(preToolUse(transcriptAt(100_000), 'Skill', { skill: 'x' }), { DEV_TEAM_CONTEXT_STRICT: 'off' })).exitCode).toBe(
        0,
      );
    });
  });
});
