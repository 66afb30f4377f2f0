/** The guard's contract, run as Claude Code runs it: the built hook, JSON on stdin, an explicit env. */
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { FIXTURES, makeSandbox, preToolUse, ROOT, runHook, type Sandbox } from '../helpers/sandbox.js';

/** Strict mode on a stated window: only a verified window blocks (an assumed one only warns). */
const STRICT = { DEV_TEAM_CONTEXT_STRICT: 'on', DEV_TEAM_CONTEXT_WINDOW: '200000' };

/** Every case runs through both entry points: dist/hook.cjs (what hooks.json runs) and the bin (`context-ceiling hook`). */
describe.each(['hook', 'cli'] as const)('%s entry', (entry) => {
  const guard = (input: unknown, env: Record<string, string> = {}) => runHook(sandbox, input, env, entry);

  let sandbox: Sandbox;
  beforeEach(() => {
    sandbox = makeSandbox();
    installUserSkill('context-summarization'); // messages name only an installed recovery skill
  });
  const installUserSkill = (name: string) => sandbox.write(`home/.claude/skills/${name}/SKILL.md`, `---\nname: ${name}\ndescription: d\n---\nbody\n`);
  afterEach(() => sandbox.cleanup());

  /** A transcript whose newest main-thread turn sits at `tokens`. */
  const transcriptAt = (tokens: number, name = 'session.jsonl') =>
    sandbox.write(`claude/${name}`, aTranscript().user('go').attachment(13_000).assistant({ cacheRead: tokens - 5 }).toolResult(2_000).noise().toString());

  const expectSilent = (run: { exitCode: number; stdout: string; stderr: string }) => expect(run).toEqual({ exitCode: 0, stdout: '', stderr: '' });

  describe('the recovery skill a message names is one that is installed, under the name it is invoked by', () => {
    const blocked = async (env: Record<string, string> = {}) => (await guard(preToolUse(transcriptAt(100_000), 'Skill', { skill: 'deep-dive' }), { ...STRICT, ...env })).stderr;
    const removeUserSkill = () => rmSync(join(sandbox.home, '.claude', 'skills'), { recursive: true });

    it('none installed: the way out is /compact and no skill is named', async () => {
      removeUserSkill();
      const stderr = await blocked();
      expect(stderr).toContain('(strict mode). To bring context under the ceiling, have the conversation compacted (/compact), then retry');
      expect(stderr).not.toContain('context-summarization');
    });

    it('run from the plugin (CLAUDE_PLUGIN_ROOT is the bundle\'s parent, which ships the skill): plugin-qualified', async () => {
      removeUserSkill();
      expect(await blocked({ CLAUDE_PLUGIN_ROOT: ROOT })).toContain('run the /context-ceiling:context-summarization skill');
      expect(await blocked({ CLAUDE_PLUGIN_ROOT: sandbox.root })).toContain('(/compact)'); // another plugin's root says nothing about us
    });

    it('installed in the project (bare name), and a team\'s own configured skill wins when it exists', async () => {
      removeUserSkill();
      sandbox.write('project/.claude/skills/context-summarization/SKILL.md', '---\nname: context-summarization\ndescription: d\n---\n');
      expect(await blocked({ CLAUDE_PROJECT_DIR: sandbox.project })).toContain('run the /context-summarization skill');
      sandbox.write('project/.claude/skills/wrap-up/SKILL.md', '---\nname: wrap-up\ndescription: d\n---\n');
      expect(await blocked({ CLAUDE_PROJECT_DIR: sandbox.project, DEV_TEAM_CONTEXT_RECOVERY_SKILLS: 'wrap-up,context-summarization' })).toContain('run the /wrap-up skill');
      expect(await blocked({ CLAUDE_PROJECT_DIR: sandbox.project, DEV_TEAM_CONTEXT_RECOVERY_SKILLS: 'not-there,context-summarization' })).toContain('run the /context-summarization skill');
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

    it.each(['context-summarization', 'dev-team:context-summarization', 'any-plugin:continue', 'context-loading-protocol', 'review-summary', 'session-review'])(
      'recovery skill %s is never gated, even strict at 90 percent',
      async (skill) => {
        expectSilent(await guard(preToolUse(transcriptAt(180_000), 'Skill', { skill }), STRICT));
      },
    );

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
      expect((await guard(preToolUse(transcriptAt(180_000), 'Skill', { skill: 'x' }), { DEV_TEAM_CONTEXT_CEILING: value, ...STRICT })).exitCode).toBe(2);
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

  describe('failing open', () => {
    it('missing transcript: silent even in strict mode', async () => {
      expectSilent(await guard(preToolUse(join(sandbox.root, 'nope.jsonl'), 'Skill', { skill: 'x' }), STRICT));
    });

    it.each([
      ['empty stdin', ''],
      ['non-JSON stdin', 'this is not json'],
      ['a JSON array', '[1,2,3]'],
      ['JSON null', 'null'],
      ['missing tool_name', JSON.stringify({ session_id: 's', transcript_path: '/x' })],
      ['wrong types', JSON.stringify({ session_id: 1, transcript_path: true, tool_name: 'Skill' })],
      ['truncated JSON', '{"session_id":"s","transcript_path":"/x","tool_na'],
    ])('%s: silent exit 0', async (_name, stdin) => {
      expectSilent(await guard(stdin, STRICT));
    });

    it('garbled transcript: silent', async () => {
      const transcript = sandbox.write('claude/garbled.jsonl', '\u0000\u0001garbage\n{"type":"assistant"\n');
      expectSilent(await guard(preToolUse(transcript, 'Skill', { skill: 'x' }), STRICT));
    });

    it('unknown since compaction (boundary without postTokens): silent even strict', async () => {
      const transcript = sandbox.write('claude/c.jsonl', aTranscript().assistant({ cacheRead: 190_000 }).compactBoundary({ trigger: 'manual' }).toString());
      expectSilent(await guard(preToolUse(transcript, 'Skill', { skill: 'x' }), STRICT));
    });

    it('an invalid policy file is ignored in a hook, other layers kept', async () => {
      sandbox.write('project/.claude/context-ceiling.json', '{"strict": "yes"');
      sandbox.write('home/.claude/context-ceiling.json', JSON.stringify({ ceilingPct: 25 }));
      const run = await guard(preToolUse(transcriptAt(60_000), 'Agent', {}, { cwd: sandbox.project }));
      expect(run.exitCode).toBe(0);
      expect(run.stderr).toContain('25% ceiling');
    });

    it('unusable state directory: a warning stays silent (never an error)', async () => {
      const file = sandbox.write('not-a-dir', 'x');
      expectSilent(await guard(preToolUse(transcriptAt(100_000), 'Agent'), { DEV_TEAM_CONTEXT_STATE_DIR: join(file, 'state') }));
    });

    it('a block does not need state: strict still blocks with an unusable state directory', async () => {
      const file = sandbox.write('not-a-dir', 'x');
      expect((await guard(preToolUse(transcriptAt(100_000), 'Skill', { skill: 'x' }), { ...STRICT, DEV_TEAM_CONTEXT_STATE_DIR: join(file, 'state') })).exitCode).toBe(2);
    });

    it('debug mode says what happened, on stderr', async () => {
      const run = await guard(preToolUse(join(sandbox.root, 'nope.jsonl'), 'Agent'), { DEV_TEAM_CONTEXT_DEBUG: '1' });
      expect(run.exitCode).toBe(0);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/context-ceiling debug: transcript .*nope\.jsonl: ENOENT/);
    });
  });

  describe('dedup', () => {
    it('same 5-point bucket is silent on the second call; a higher bucket warns again; a lower one stays silent', async () => {
      const path = join(sandbox.root, 'claude', 'grow.jsonl');
      const write = (tokens: number) => sandbox.write('claude/grow.jsonl', aTranscript().user('go').assistant({ cacheRead: tokens - 5 }).toString());
      write(82_000);
      expect((await guard(preToolUse(path, 'Agent'))).stderr).toContain('41%');
      write(88_000);
      expectSilent(await guard(preToolUse(path, 'Agent')));
      write(92_000);
      expect((await guard(preToolUse(path, 'Agent'))).stderr).toContain('46%');
      write(85_000);
      expectSilent(await guard(preToolUse(path, 'Agent')));
    });

    it('20 concurrent calls for one session warn exactly once for their band', async () => {
      const input = preToolUse(transcriptAt(100_000), 'Agent');
      const runs = await Promise.all(Array.from({ length: 20 }, () => guard(input)));
      expect(runs.every((run) => run.exitCode === 0)).toBe(true);
      expect(runs.filter((run) => run.stderr !== '')).toHaveLength(1);
      expect(runs.filter((run) => run.stdout !== '')).toHaveLength(1);
    });

    it('dedup is per session', async () => {
      const transcript = transcriptAt(100_000);
      expect((await guard(preToolUse(transcript, 'Agent', {}, { session_id: 'a' }))).stderr).not.toBe('');
      expect((await guard(preToolUse(transcript, 'Agent', {}, { session_id: 'b' }))).stderr).not.toBe('');
      expectSilent(await guard(preToolUse(transcript, 'Agent', {}, { session_id: 'a' })));
    });

    it('a compaction resets dedup: the first re-crossing after it warns again', async () => {
      const before = aTranscript().user('go').assistant({ cacheRead: 100_000 - 5 });
      const path = sandbox.write('claude/s.jsonl', before.toString());
      expect((await guard(preToolUse(path, 'Agent'))).stderr).toContain('50%');
      expectSilent(await guard(preToolUse(path, 'Agent')));
      // compaction, then growth back over the ceiling into the same bucket
      before.compactBoundary({ postTokens: 3_000 }).user('continue').assistant({ cacheRead: 60_000 }).assistant({ cacheRead: 100_000 - 5 });
      sandbox.write('claude/s.jsonl', before.toString());
      expect((await guard(preToolUse(path, 'Agent'))).stderr).toContain('50%');
      expectSilent(await guard(preToolUse(path, 'Agent')));
    });

    it('state lives in a private 0700 directory under TMPDIR', async () => {
      await guard(preToolUse(transcriptAt(100_000), 'Agent'));
      const dirs = readdirSync(sandbox.tmp).filter((name) => name.startsWith('context-ceiling-'));
      expect(dirs).toHaveLength(1);
      const { statSync } = await import('node:fs');
      expect(statSync(join(sandbox.tmp, dirs[0]!)).mode & 0o777).toBe(0o700);
    });

    it('a symlinked state directory is refused: no file is written through it, and the warning stays silent', async () => {
      const target = join(sandbox.root, 'elsewhere');
      mkdirSync(target);
      const link = join(sandbox.root, 'state-link');
      symlinkSync(target, link);
      expectSilent(await guard(preToolUse(transcriptAt(100_000), 'Agent'), { DEV_TEAM_CONTEXT_STATE_DIR: link }));
      expect(readdirSync(target)).toEqual([]);
    });

    it('session ids cannot escape the state directory', async () => {
      const state = join(sandbox.root, 'state');
      await guard(preToolUse(transcriptAt(100_000), 'Agent', {}, { session_id: '../../escaped' }), { DEV_TEAM_CONTEXT_STATE_DIR: state });
      expect(existsSync(join(sandbox.root, 'escaped'))).toBe(false);
      expect(readdirSync(join(state, 'sessions'))).toEqual(['______escaped']);
    });
  });

  describe('what is measured', () => {
    it('isSidechain and synthetic records never decide the verdict', async () => {
      const transcript = sandbox.write(
        'claude/decoys.jsonl',
        aTranscript().user('go').assistant({ cacheRead: 20_000 }).sidechain({ cacheRead: 190_000 }).apiError().assistant({ model: '<synthetic>', cacheRead: 190_000 }).toString(),
      );
      expectSilent(await guard(preToolUse(transcript, 'Skill', { skill: 'x' }), STRICT));
    });

    it('a newer low sidechain turn cannot hide a high main-thread occupancy', async () => {
      const transcript = sandbox.write('claude/hide.jsonl', aTranscript().assistant({ cacheRead: 180_000 }).sidechain({ cacheRead: 1_000 }).apiError().toString());
      expect((await guard(preToolUse(transcript, 'Skill', { skill: 'x' }), STRICT)).exitCode).toBe(2);
    });

    it('progress / agent_progress records are never counted', async () => {
      const transcript = sandbox.write('claude/progress.jsonl', aTranscript().assistant({ cacheRead: 20_000 }).progress({ cacheRead: 190_000 }).progress({ cacheRead: 190_000 }).toString());
      expectSilent(await guard(preToolUse(transcript, 'Agent'), STRICT));
    });

    it('real transcript, auto-compact.jsonl: 951,005 tokens over a 200,000 window never blocks and names the wrong window', async () => {
      const copy = join(sandbox.root, 'auto-compact.jsonl');
      copyFileSync(join(FIXTURES, 'auto-compact.jsonl'), copy);
      const run = await guard(preToolUse(copy, 'Skill', { skill: 'deep-dive' }), STRICT);
      expect(run.exitCode).toBe(0);
      expect(run.stderr).toContain('holds 951,005 tokens, more than the 200,000-token window (env), so that window is wrong and nothing was blocked');
      expect(JSON.parse(run.stdout)).toEqual({ systemMessage: expect.stringContaining('DEV_TEAM_CONTEXT_WINDOW') });
    });

    it('real transcript, auto-compact.jsonl with the 1M window: 95% blocks in strict mode', async () => {
      const run = await guard(preToolUse(join(FIXTURES, 'auto-compact.jsonl'), 'Skill', { skill: 'deep-dive' }), { ...STRICT, DEV_TEAM_CONTEXT_WINDOW: '1000000' });
      expect(run.exitCode).toBe(2);
      expect(run.stderr).toContain('95% (951,005 of 1,000,000 tokens, window: env)');
    });

    it('real transcript, skill-then-manual-compact.jsonl: after /compact the stale 46% turn no longer counts, postTokens does', async () => {
      const transcript = join(FIXTURES, 'skill-then-manual-compact.jsonl');
      expectSilent(await guard(preToolUse(transcript, 'Skill', { skill: 'deep-dive' }), STRICT));
      // 2,595 postTokens is 1.3% of the window: a 1% ceiling proves that number is the one used
      const run = await guard(preToolUse(transcript, 'Skill', { skill: 'deep-dive' }), { ...STRICT, DEV_TEAM_CONTEXT_CEILING_PCT: '1' });
      expect(run.exitCode).toBe(2);
      expect(run.stderr).toContain('1% (2,595 of 200,000 tokens');
    });
  });

  describe('policy file', () => {
    it('per-tool actions: Skill blocks, Agent only warns, without strict mode', async () => {
      sandbox.write('project/.claude/context-ceiling.json', JSON.stringify({ tools: { Skill: 'block', Agent: 'warn' } }));
      const transcript = transcriptAt(100_000);
      expect((await guard(preToolUse(transcript, 'Skill', { skill: 'x' }, { cwd: sandbox.project }), { DEV_TEAM_CONTEXT_WINDOW: '200000' })).exitCode).toBe(2);
      const agent = await guard(preToolUse(transcript, 'Agent', {}, { cwd: sandbox.project }), { DEV_TEAM_CONTEXT_WINDOW: '200000' });
      expect(agent.exitCode).toBe(0);
      expect(agent.stderr).toContain('50%');
    });

    it('CLAUDE_PROJECT_DIR locates the project policy', async () => {
      sandbox.write('project/.claude/context-ceiling.json', JSON.stringify({ extends: 'strict-ci' }));
      expect((await guard(preToolUse(transcriptAt(100_000), 'Skill', { skill: 'x' }), { CLAUDE_PROJECT_DIR: sandbox.project, DEV_TEAM_CONTEXT_WINDOW: '200000' })).exitCode).toBe(2);
    });

    it('a policy window is named as the source', async () => {
      sandbox.write('home/.claude/context-ceiling.json', JSON.stringify({ extends: 'large-window' }));
      const run = await guard(preToolUse(transcriptAt(500_000), 'Agent'));
      expect(run.stderr).toContain('50% (500,000 of 1,000,000 tokens, window: policy)');
    });

    it('env wins over the policy file', async () => {
      sandbox.write('home/.claude/context-ceiling.json', JSON.stringify({ strict: true }));
      expect((await guard(preToolUse(transcriptAt(100_000), 'Skill', { skill: 'x' }), { DEV_TEAM_CONTEXT_STRICT: 'off' })).exitCode).toBe(0);
    });
  });

  describe('inside a subagent', () => {
    const mainAt = (tokens: number) => transcriptAt(tokens, 'main.jsonl');
    const subagentFile = (agentId: string, tokens: number) =>
      sandbox.write(`claude/main/subagents/agent-${agentId}.jsonl`, aTranscript().user('task').assistant({ agentId, cacheRead: tokens - 5 }).toString());

    it('judged by the subagent’s own transcript, not the main one', async () => {
      const main = mainAt(180_000);
      subagentFile('a1b2', 20_000);
      expectSilent(await guard(preToolUse(main, 'Skill', { skill: 'x' }, { agent_id: 'a1b2', agent_type: 'Explore' }), STRICT));
    });

    it('a full subagent context is gated even when the main context is small', async () => {
      const main = mainAt(10_000);
      subagentFile('a1b2', 150_000);
      const run = await guard(preToolUse(main, 'Skill', { skill: 'x' }, { agent_id: 'a1b2' }), STRICT);
      expect(run.exitCode).toBe(2);
      expect(run.stderr).toContain('75%');
    });

    it('passes when the subagent transcript cannot be read', async () => {
      expectSilent(await guard(preToolUse(mainAt(180_000), 'Skill', { skill: 'x' }, { agent_id: 'missing' }), STRICT));
    });

    it('a transcript path that names a directory fails open, also as root', async () => {
      mkdirSync(join(sandbox.root, 'claude', 'dir.jsonl'), { recursive: true });
      expectSilent(await guard(preToolUse(join(sandbox.root, 'claude', 'dir.jsonl'), 'Skill', { skill: 'x' }), STRICT));
    });

    it('an agent id that could traverse paths is never used: passes', async () => {
      sandbox.write('claude/evil.jsonl', aTranscript().assistant({ agentId: '../../evil', cacheRead: 190_000 }).toString());
      expectSilent(await guard(preToolUse(mainAt(180_000), 'Skill', { skill: 'x' }, { agent_id: '../../evil' }), STRICT));
    });
  });

  describe('permissions', () => {
    it.skipIf(process.getuid?.() === 0)('an unreadable transcript fails open (needs a non-root uid: root reads everything)', async () => {
      const transcript = transcriptAt(180_000);
      chmodSync(transcript, 0o000);
      expectSilent(await guard(preToolUse(transcript, 'Skill', { skill: 'x' }), STRICT));
    });
  });
});
