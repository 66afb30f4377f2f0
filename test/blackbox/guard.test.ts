// @module-tag hook
/**
 * The guard's contract, run as Claude Code runs it, as a user meets it: installed, nothing configured,
 * the default model (claude-opus-5-5, 1,000,000 tokens) unless a test says otherwise.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeGuard, expectBlocked, expectSilent, expectWarned, guardOutput, STRICT } from '../helpers/guard-runners.js';
import { preToolUse, ROOT } from '../helpers/sandbox.js';

describeGuard((h) => {
  const { guard, transcriptAt } = h;

  describe('hook input of any size Claude Code may send', () => {
    const withArgs = (bytes: number) => preToolUse(transcriptAt(450_000), 'Skill', { skill: 'deep-dive', args: 'a'.repeat(bytes) });

    it('an input of a few MB (a large tool_input) is read whole: the verdict is the one its fields call for', async () => {
      expectBlocked(await guard(withArgs(3 * 1024 * 1024), STRICT));
    });

    it('past 8 MiB it is no hook input (read no further): silence, for that reason', async () => {
      expectSilent(await guard(withArgs(9 * 1024 * 1024), STRICT), 'allow not-a-pre-tool-use-input');
    });
  });

  describe('the recovery skill a message names is one that is installed, under the name it is invoked by', () => {
    const blocked = async (env: Record<string, string> = {}) =>
      expectBlocked(await guard(preToolUse(transcriptAt(450_000), 'Skill', { skill: 'deep-dive' }), { ...STRICT, ...env })).model;
    const removeUserSkill = () => rmSync(join(h.sandbox.home, '.claude', 'skills'), { recursive: true });

    it('none installed: the way out is /compact and no skill is named', async () => {
      removeUserSkill();
      const model = await blocked();
      expect(model).toContain('To bring context back under the ceiling, have the conversation compacted (/compact), then retry');
      expect(model).not.toContain('context-summarization');
    });

    it("run from the plugin (CLAUDE_PLUGIN_ROOT is the bundle's parent, which ships the skill): plugin-qualified", async () => {
      removeUserSkill();
      expect(await blocked({ CLAUDE_PLUGIN_ROOT: join(ROOT, 'plugin') })).toContain('run the /context-ceiling:context-summarization skill');
      expect(await blocked({ CLAUDE_PLUGIN_ROOT: h.sandbox.root })).toContain('(/compact)'); // another plugin's root says nothing about us
    });

    it("a project's own skill under our name is not ours (a bare name would run it); a team's own configured skill wins when it exists", async () => {
      removeUserSkill();
      h.sandbox.write('project/.claude/skills/context-summarization/SKILL.md', '---\nname: context-summarization\ndescription: d\n---\n');
      // The hooks run from this package, not from the project's install: the project's copy is the repository's.
      expect(await blocked({ CLAUDE_PROJECT_DIR: h.sandbox.project })).toContain('(/compact)');
      expect(await blocked({ CLAUDE_PROJECT_DIR: h.sandbox.project, CLAUDE_PLUGIN_ROOT: join(ROOT, 'plugin') })).toContain(
        'run the /context-ceiling:context-summarization skill',
      );
      h.sandbox.write('project/.claude/skills/wrap-up/SKILL.md', '---\nname: wrap-up\ndescription: d\n---\n');
      expect(
        await blocked({ CLAUDE_PROJECT_DIR: h.sandbox.project, DEV_TEAM_CONTEXT_RECOVERY_SKILLS: 'wrap-up,context-summarization' }),
      ).toContain('run the /wrap-up skill');
      expect(
        await blocked({ CLAUDE_PROJECT_DIR: h.sandbox.project, DEV_TEAM_CONTEXT_RECOVERY_SKILLS: 'not-there,context-summarization' }),
      ).toContain('(/compact)');
    });
  });

  describe("below and over the ceiling of the default model's 1,000,000-token window", () => {
    it('10 % (100,000 tokens), strict: below the ceiling, silent', async () => {
      expectSilent(await guard(preToolUse(transcriptAt(100_000), 'Skill', { skill: 'deep-dive' }), STRICT), 'allow below-ceiling');
    });

    it('39 %: still below', async () => {
      expectSilent(await guard(preToolUse(transcriptAt(399_000), 'Agent')), 'allow below-ceiling');
    });

    it("45 % on Agent: warns the model and the person, with the model's window named", async () => {
      const run = await guard(preToolUse(transcriptAt(450_000), 'Agent', { description: 'd', prompt: 'p', subagent_type: 'Explore' }));
      const { model, user } = expectWarned(run);
      expect(run.stderr).toBe(
        'context-ceiling: context at 45% (450,000 of 1,000,000 tokens, window: model claude-opus-5-5) is over the 40% ceiling before Agent "Explore"; run the /context-summarization skill before loading more capabilities.\n',
      );
      expect(model).toBe(
        'Context ceiling warning: context is at 45% (450,000 of 1,000,000 tokens; window: model claude-opus-5-5), over the 40% ceiling. The Agent "Explore" call proceeds, but load no further agents, skills or workflows until you have brought context back under the ceiling: run the /context-summarization skill.',
      );
      expect(user).toBe(
        'context-ceiling: 45% of a 1,000,000-token window (model claude-opus-5-5) is over the 40% ceiling; the model was told to run the /context-summarization skill.',
      );
      expect(Object.keys(guardOutput(run)).sort()).toEqual(['hookSpecificOutput', 'systemMessage']);
    });

    it('45 % on Skill, strict: a deny decision the model reads as a decision, a notice for the person', async () => {
      const run = await guard(preToolUse(transcriptAt(450_000), 'Skill', { skill: 'deep-dive' }), STRICT);
      const { model, user } = expectBlocked(run);
      expect(model).toBe(
        'Blocked by the context ceiling (strict mode), not an error in the Skill tool: context is at 45% (450,000 of 1,000,000 tokens; window: model claude-opus-5-5), over the 40% ceiling, so Skill "deep-dive" was not loaded. To bring context back under the ceiling, run the /context-summarization skill, then retry; recovery skills are never blocked.',
      );
      expect(user).toBe(
        'context-ceiling: blocked Skill "deep-dive" at 45% of a 1,000,000-token window (model claude-opus-5-5), over the 40% ceiling (strict mode); the model was told to run the /context-summarization skill.',
      );
      expect(run.stderr).toBe(
        'context-ceiling: blocked Skill "deep-dive": context at 45% (450,000 of 1,000,000 tokens, window: model claude-opus-5-5) is over the 40% ceiling (strict mode).\n',
      );
    });

    it('blocks are never deduplicated', async () => {
      const input = preToolUse(transcriptAt(450_000), 'Skill', { skill: 'deep-dive' });
      for (let i = 0; i < 3; i++) expectBlocked(await guard(input, STRICT));
    });

    it.each([
      'context-summarization',
      'dev-team:context-summarization',
      'any-plugin:continue',
      'context-loading-protocol',
      'review-summary',
      'session-review',
    ])('recovery skill %s is never gated, even strict at 90 percent', async (skill) => {
      expectSilent(await guard(preToolUse(transcriptAt(900_000), 'Skill', { skill }), STRICT), 'allow recovery-skill');
    });

    it.each(['Read', 'Bash', 'Write', 'Grep'])('%s is ignored, even strict at 90 percent', async (tool) => {
      expectSilent(await guard(preToolUse(transcriptAt(900_000), tool, { file_path: 'x' }), STRICT), 'allow not-gated');
    });

    it.each([
      ['Task (the pre-2.1.63 name of Agent)', 'Task', { subagent_type: 'general-purpose' }],
      ['Workflow (a script of subagents)', 'Workflow', { name: 'deep-research', args: {} }],
      ['Workflow with an inline script', 'Workflow', { script: 'export const meta = { name: "x", description: "y" };' }],
    ])('%s is gated too', async (_name, tool, input) => {
      expect(expectBlocked(await guard(preToolUse(transcriptAt(900_000), tool, input), STRICT)).model).toContain(`the ${tool} tool`);
    });
  });

  describe('a 200,000-token model (claude-haiku-4-5), as its transcript says', () => {
    const haikuAt = (tokens: number) => transcriptAt(tokens, 'haiku.jsonl', 'claude-haiku-4-5-20251001', 'claude-haiku-4-5');
    it("50 %, strict: blocked on the model's own window", async () => {
      const { model } = expectBlocked(await guard(preToolUse(haikuAt(100_000), 'Skill', { skill: 'x' }), STRICT));
      expect(model).toContain('(100,000 of 200,000 tokens; window: model claude-haiku-4-5)');
    });
    it('with [1m] in its model attachment: 1,000,000, so 10 % is silent', async () => {
      const path = transcriptAt(100_000, 'haiku1m.jsonl', 'claude-haiku-4-5-20251001', 'claude-haiku-4-5[1m]');
      expectSilent(await guard(preToolUse(path, 'Skill', { skill: 'x' }), STRICT), 'allow below-ceiling');
    });
  });

  describe('configuration through the environment', () => {
    it('DEV_TEAM_CONTEXT_CEILING=off: silent even strict at 90%', async () => {
      expectSilent(
        await guard(preToolUse(transcriptAt(900_000), 'Skill', { skill: 'x' }), { DEV_TEAM_CONTEXT_CEILING: 'off', ...STRICT }),
        'allow disabled',
      );
    });

    it.each(['OFF', 'false', '0', 'no', ' off'])('DEV_TEAM_CONTEXT_CEILING=%j does not disable (strict literals)', async (value) => {
      expectBlocked(
        await guard(preToolUse(transcriptAt(900_000), 'Skill', { skill: 'x' }), { DEV_TEAM_CONTEXT_CEILING: value, ...STRICT }),
      );
    });

    it.each(['ON', 'true', '1', 'yes'])('DEV_TEAM_CONTEXT_STRICT=%j does not make strict (strict literals)', async (value) => {
      const run = await guard(preToolUse(transcriptAt(900_000), 'Skill', { skill: 'x' }), { DEV_TEAM_CONTEXT_STRICT: value });
      expect(expectWarned(run).model).toContain('90%');
    });

    it('DEV_TEAM_CONTEXT_WINDOW states the window, and wins over the model', async () => {
      const transcript = transcriptAt(100_000);
      expectSilent(await guard(preToolUse(transcript, 'Skill', { skill: 'x' }), STRICT), 'allow below-ceiling');
      const { model } = expectBlocked(
        await guard(preToolUse(transcript, 'Skill', { skill: 'x' }), { ...STRICT, DEV_TEAM_CONTEXT_WINDOW: '200000' }),
      );
      expect(model).toContain('(100,000 of 200,000 tokens; window: env)');
    });

    it('DEV_TEAM_CONTEXT_CEILING_PCT=25 lowers the trigger', async () => {
      const transcript = transcriptAt(300_000);
      expectSilent(await guard(preToolUse(transcript, 'Agent')), 'allow below-ceiling');
      const run = await guard(preToolUse(transcript, 'Agent'), { DEV_TEAM_CONTEXT_CEILING_PCT: '25' });
      expect(expectWarned(run).model).toContain('30%');
      expect(run.stderr).toContain('25% ceiling');
    });

    it.each([
      ['abc', 'abc'],
      ['-5', '0'],
      ['40.5', '1e9'],
      ['', ''],
      ['0', '99'],
    ])("malformed CEILING_PCT=%j / WINDOW=%j fall back to 40 % and the model's window", async (pct, window) => {
      const env = { DEV_TEAM_CONTEXT_CEILING_PCT: pct, DEV_TEAM_CONTEXT_WINDOW: window };
      expectSilent(await guard(preToolUse(transcriptAt(399_000), 'Agent'), env), 'allow below-ceiling');
      const run = await guard(preToolUse(transcriptAt(410_000, 'other.jsonl'), 'Agent', {}, { session_id: 'sess-2' }), env);
      expect(run.stderr).toContain('41% (410,000 of 1,000,000 tokens, window: model claude-opus-5-5) is over the 40% ceiling');
    });
  });

  describe('policy file', () => {
    it('per-tool actions: Skill blocks, Agent only warns, without strict mode', async () => {
      h.sandbox.write('project/.claude/context-ceiling.json', JSON.stringify({ tools: { Skill: 'block', Agent: 'warn' } }));
      const transcript = transcriptAt(450_000);
      expectBlocked(await guard(preToolUse(transcript, 'Skill', { skill: 'x' }, { cwd: h.sandbox.project })));
      expect(expectWarned(await guard(preToolUse(transcript, 'Agent', {}, { cwd: h.sandbox.project }))).model).toContain('45%');
    });

    it('CLAUDE_PROJECT_DIR locates the project policy', async () => {
      h.sandbox.write('project/.claude/context-ceiling.json', JSON.stringify({ extends: 'strict-ci' }));
      expectBlocked(await guard(preToolUse(transcriptAt(450_000), 'Skill', { skill: 'x' }), { CLAUDE_PROJECT_DIR: h.sandbox.project }));
    });

    it("the user's policy window is named as the source", async () => {
      h.sandbox.write('home/.claude/context-ceiling.json', JSON.stringify({ window: 500_000 }));
      const run = await guard(preToolUse(transcriptAt(250_000), 'Agent'));
      expect(run.stderr).toContain(
        `50% (250,000 of 500,000 tokens, window: policy: ${join(h.sandbox.home, '.claude', 'context-ceiling.json')})`,
      );
    });

    it('env wins over the policy file', async () => {
      h.sandbox.write('home/.claude/context-ceiling.json', JSON.stringify({ strict: true }));
      expectWarned(await guard(preToolUse(transcriptAt(450_000), 'Skill', { skill: 'x' }), { DEV_TEAM_CONTEXT_STRICT: 'off' }));
    });
  });
});
