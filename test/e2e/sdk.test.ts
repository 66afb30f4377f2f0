/** The guard as an Agent SDK hook, run inside a real SDK session (its types against the real SDK: sdk-types.test.ts). */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PreToolUseHookInput } from '@anthropic-ai/claude-agent-sdk';
import { describe, expect, inject, it } from 'vitest';
import { createCeilingGuard, type CeilingDecision } from '../../src/index.js';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { World, CLAUDE_BIN, stopWorldsAfterEach } from './world.js';

let world: World | undefined;
stopWorldsAfterEach();

/** The pinned SDK, installed by client-setup.ts (not a devDependency); typed here as far as this file calls it. */
type Query = AsyncIterable<unknown> & {
  getContextUsage(options: { detail: 'summary' }): Promise<{ maxTokens: number; totalTokens: number }>;
};
const { query } = (await import(pathToFileURL(inject('agentSdkEntry')).href)) as {
  query: (params: { prompt: string; options: Record<string, unknown> }) => Query;
};

const signal = () => new AbortController().signal;
/** A private state directory the guard creates (0700): an existing one open to others, like the World's tmp, is refused. */
const stateDir = () => join(world!.root, 'state');
const input = (transcript_path: string, tool_name: string, tool_input: unknown): PreToolUseHookInput => ({
  hook_event_name: 'PreToolUse',
  session_id: 'sdk-session',
  transcript_path,
  cwd: '/tmp',
  tool_name,
  tool_input,
  tool_use_id: 'toolu_1',
});

describe('createCeilingGuard', () => {
  it('is a HookCallbackMatcher for Agent, Task, Skill and Workflow', () => {
    const guard = createCeilingGuard({ strict: true });
    expect(guard.matcher).toBe('Agent|Task|Skill|Workflow');
    expect(guard.hooks).toHaveLength(1);
    expect(typeof guard.hooks[0]).toBe('function');
  });

  // No recovery skill is installed in this world, so the way out named is Claude Code's own /compact.
  it('denies over the ceiling in strict mode, with the reason the model receives', async () => {
    world = new World();
    const transcript = world.write(
      't.jsonl',
      aTranscript()
        .assistant({ cacheRead: 600_000 - 5 })
        .toString(),
    );
    const decisions: CeilingDecision[] = [];
    const guard = createCeilingGuard({ strict: true, window: 1_000_000, stateDir: stateDir(), onDecision: (d) => decisions.push(d) });
    const output = await guard.hooks[0]!(input(transcript, 'Skill', { skill: 'deep-dive' }), 'toolu_1', { signal: signal() });
    expect(output).toEqual({
      systemMessage:
        'context-ceiling: blocked Skill "deep-dive" at 60% of a 1,000,000-token window (env), over the 40% ceiling (strict mode); the model was told to have the conversation compacted (/compact).',
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason:
          'Blocked by the context ceiling (strict mode), not an error in the Skill tool: context is at 60% (600,000 of 1,000,000 tokens; window: env), over the 40% ceiling, so Skill "deep-dive" was not loaded. ' +
          'To bring context back under the ceiling, have the conversation compacted (/compact), then retry; recovery skills are never blocked.',
      },
    });
    // A Workflow is a capability load too (an inline script, as the model sends it).
    const workflow = await guard.hooks[0]!(
      input(transcript, 'Workflow', { script: 'export const meta = { name: "w", description: "d" }' }),
      'toolu_2',
      {
        signal: signal(),
      },
    );
    expect(workflow).toMatchObject({
      hookSpecificOutput: {
        permissionDecision: 'deny',
        permissionDecisionReason: expect.stringContaining('so Workflow "inline script" was not loaded'),
      },
    });
    expect(decisions).toEqual([
      expect.objectContaining({ toolName: 'Skill', outcome: 'block', reason: 'over-ceiling-blocked' }),
      expect.objectContaining({ toolName: 'Workflow', outcome: 'block', reason: 'over-ceiling-blocked' }),
    ]);
  });

  it("warns through additionalContext by default, on the transcript model's window; allows recovery skills and calls under the ceiling", async () => {
    world = new World();
    // Nothing stated: the transcript's model (claude-opus-5-5) gives the window, 1,000,000.
    const high = world.write('high.jsonl', aTranscript().assistant({ cacheRead: 450_000 }).toString());
    const low = world.write('low.jsonl', aTranscript().assistant({ cacheRead: 100_000 }).toString());
    const guard = createCeilingGuard({ stateDir: stateDir(), env: {} });
    const warned = await guard.hooks[0]!(input(high, 'Agent', { subagent_type: 'Explore' }), 'toolu_1', { signal: signal() });
    expect(warned).toMatchObject({
      systemMessage: expect.stringContaining('45% of a 1,000,000-token window (model claude-opus-5-5)'),
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        additionalContext: expect.stringContaining(
          'Context ceiling warning: context is at 45% (450,005 of 1,000,000 tokens; window: model claude-opus-5-5)',
        ),
      },
    });
    const strict = createCeilingGuard({ strict: true, stateDir: stateDir(), env: {} });
    expect(
      await strict.hooks[0]!(input(high, 'Skill', { skill: 'plugin:context-summarization' }), 'toolu_2', { signal: signal() }),
    ).toEqual({});
    expect(await strict.hooks[0]!(input(low, 'Skill', { skill: 'deep-dive' }), 'toolu_3', { signal: signal() })).toEqual({});
  });

  it('reports a warning silenced by dedup to onDecision as deduplicated, not allow', async () => {
    world = new World();
    const high = world.write('high.jsonl', aTranscript().assistant({ cacheRead: 100_000 }).toString());
    const decisions: CeilingDecision[] = [];
    const guard = createCeilingGuard({ stateDir: stateDir(), env: {}, window: 200_000, onDecision: (d) => decisions.push(d) });
    const first = await guard.hooks[0]!(input(high, 'Agent', { subagent_type: 'Explore' }), 'toolu_1', { signal: signal() });
    const second = await guard.hooks[0]!(input(high, 'Agent', { subagent_type: 'Explore' }), 'toolu_2', { signal: signal() });
    expect(first).toHaveProperty('systemMessage');
    expect(second).toEqual({});
    expect(decisions.map((d) => d.outcome)).toEqual(['warn', 'deduplicated']);
    // What the silenced warning would have said (the command hook words nothing for one: it prints nothing).
    expect(decisions[1]!.message).toBe(decisions[0]!.message);
    expect(decisions[0]!.message).toBe(
      'context-ceiling: context at 50% (100,005 of 200,000 tokens, window: env) is over the 40% ceiling before Agent "Explore"; have the conversation compacted (/compact) before loading more capabilities.',
    );
  });

  it('warns every time when the dedup state cannot be used, and says why, rather than going silent', async () => {
    world = new World();
    const high = world.write('high.jsonl', aTranscript().assistant({ cacheRead: 100_000 }).toString());
    const notADir = world.write('not-a-dir', 'x');
    const decisions: CeilingDecision[] = [];
    const guard = createCeilingGuard({ stateDir: `${notADir}/state`, env: {}, window: 200_000, onDecision: (d) => decisions.push(d) });
    const warning =
      'Context ceiling warning: context is at 50% (100,005 of 200,000 tokens; window: env), over the 40% ceiling. ' +
      'The Agent "Explore" call proceeds, but load no further agents, skills or workflows until you have brought context back under the ceiling: have the conversation compacted (/compact).';
    for (const id of ['toolu_1', 'toolu_2']) {
      const output = await guard.hooks[0]!(input(high, 'Agent', { subagent_type: 'Explore' }), id, { signal: signal() });
      expect(output).toEqual({
        systemMessage:
          'context-ceiling: 50% of a 200,000-token window (env) is over the 40% ceiling; the model was told to have the conversation compacted (/compact).\n' +
          `context-ceiling: the state directory ${notADir}/state cannot be used (not a private directory of yours), so warnings are not remembered and repeat on every call.`,
        hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: warning },
      });
    }
    expect(decisions.map((d) => [d.outcome, d.reason])).toEqual([
      ['warn', 'over-ceiling unremembered'],
      ['warn', 'over-ceiling unremembered'],
    ]);
  });

  it('options win over the environment', async () => {
    world = new World();
    const transcript = world.write('t.jsonl', aTranscript().assistant({ cacheRead: 100_000 }).toString());
    const guard = createCeilingGuard({ strict: false, stateDir: stateDir(), env: { DEV_TEAM_CONTEXT_STRICT: 'on' } });
    const output = await guard.hooks[0]!(input(transcript, 'Skill', { skill: 'x' }), 'toolu_1', { signal: signal() });
    expect(output).not.toHaveProperty('hookSpecificOutput.permissionDecision');
  });

  it("contextUsage: Claude Code's own window and occupancy decide (provenance sdk); a failing answer falls back to the transcript", async () => {
    world = new World();
    const transcript = world.write('t.jsonl', aTranscript().assistant({ cacheRead: 450_000 }).toString());
    const strictWith = (contextUsage: () => Promise<{ maxTokens: number; totalTokens: number }>) =>
      createCeilingGuard({ strict: true, stateDir: stateDir(), env: {}, contextUsage });
    const denied = await strictWith(async () => ({ maxTokens: 1_000_000, totalTokens: 460_000 })).hooks[0]!(
      input(transcript, 'Skill', { skill: 'x' }),
      'toolu_1',
      { signal: signal() },
    );
    expect(denied).toMatchObject({
      hookSpecificOutput: {
        permissionDecision: 'deny',
        permissionDecisionReason: expect.stringContaining('context is at 46% (460,000 of 1,000,000 tokens; window: sdk)'),
      },
    });
    // Claude Code's count beats the transcript's 450,005.
    const allowed = await strictWith(async () => ({ maxTokens: 1_000_000, totalTokens: 100_005 })).hooks[0]!(
      input(transcript, 'Skill', { skill: 'x' }),
      'toolu_2',
      { signal: signal() },
    );
    expect(allowed).toEqual({});
    const failing = await strictWith(async () => Promise.reject(new Error('closed'))).hooks[0]!(
      input(transcript, 'Skill', { skill: 'x' }),
      'toolu_3',
      { signal: signal() },
    );
    expect(failing).toMatchObject({
      hookSpecificOutput: {
        permissionDecision: 'deny',
        permissionDecisionReason: expect.stringContaining('context is at 45% (450,005 of 1,000,000 tokens; window: model claude-opus-5-5)'),
      },
    });
  });

  it('in a real SDK session, getContextUsage gives the guard the real 1M window: 10 % passes, 45 % is refused and the model is told why', async () => {
    world = new World();
    world.skill('deep-dive');
    await world.start(['--dry-run']); // only the fake API: the hook comes from the SDK options
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: world.home,
      TMPDIR: world.tmp,
      ANTHROPIC_BASE_URL: world.apiUrl,
      ANTHROPIC_API_KEY: 'sk-ant-e2e-test',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    };
    const decisions: CeilingDecision[] = [];
    const run = async (prompt: string) => {
      let q: Query | undefined;
      const guard = createCeilingGuard({
        strict: true,
        stateDir: stateDir(),
        env: {},
        contextUsage: () => q!.getContextUsage({ detail: 'summary' }),
        onDecision: (d) => decisions.push(d),
      });
      q = query({
        prompt,
        options: {
          cwd: world!.project,
          env,
          pathToClaudeCodeExecutable: CLAUDE_BIN,
          allowedTools: ['Skill'],
          hooks: { PreToolUse: [guard] },
        },
      });
      for await (const _message of q) {
        // drain
      }
    };
    let mark = world.api.requests.length;
    world.reply({ cacheRead: 100_000, toolUse: { name: 'Skill', input: { skill: 'deep-dive' } } }, { cacheRead: 101_000, text: 'ok' });
    await run('use the deep-dive skill');
    const [, passed] = world.api.conversation.filter((r) => r.index >= mark);
    expect(passed!.text).toContain('You are running the deep-dive skill');
    mark = world.api.requests.length;
    world.reply({ cacheRead: 450_000, toolUse: { name: 'Skill', input: { skill: 'deep-dive' } } }, { cacheRead: 451_000, text: 'ok' });
    await run('use the deep-dive skill');
    const [, refused] = world.api.conversation.filter((r) => r.index >= mark);
    expect(refused!.text).toContain(
      'PreToolUse:Skill hook error: Blocked by the context ceiling (strict mode), not an error in the Skill tool: context is at 45% (450,005 of 1,000,000 tokens; window: sdk)',
    );
    expect(refused!.text).not.toContain('You are running the deep-dive skill');
    expect(decisions.map((d) => d.outcome)).toEqual(['allow', 'block']);
  }, 120_000);
});
