/** The guard as an Agent SDK hook: typed against the SDK's own types, and run inside a real SDK session. */
import { query, type HookCallbackMatcher, type Options, type PreToolUseHookInput } from '@anthropic-ai/claude-agent-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { createCeilingGuard, type CeilingDecision } from '../../src/index.js';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { World, CLAUDE_BIN } from './world.js';

let world: World | undefined;
afterEach(async () => {
  await world?.stop();
  world = undefined;
});

const signal = () => new AbortController().signal;
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
  it('is a HookCallbackMatcher for Agent, Task and Skill that the SDK options accept', () => {
    const matcher: HookCallbackMatcher = createCeilingGuard({ strict: true });
    const options: Options = { hooks: { PreToolUse: [matcher] } };
    expect(options.hooks?.PreToolUse?.[0]?.matcher).toBe('Agent|Task|Skill');
  });

  // No recovery skill is installed in this world, so the way out named is Claude Code's own /compact.
  it('denies over the ceiling in strict mode, with the reason the model receives', async () => {
    world = new World();
    const transcript = world.write('t.jsonl', aTranscript().assistant({ cacheRead: 600_000 - 5 }).toString());
    const decisions: CeilingDecision[] = [];
    const guard = createCeilingGuard({ strict: true, window: 1_000_000, stateDir: world.tmp, onDecision: (d) => decisions.push(d) });
    const output = await guard.hooks[0]!(input(transcript, 'Skill', { skill: 'deep-dive' }), 'toolu_1', { signal: signal() });
    expect(output).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason:
          'context-ceiling: blocked Skill "deep-dive": context at 60% (600,000 of 1,000,000 tokens, window: env) is over the 40% ceiling (strict mode). Bring context back under the ceiling (/compact), then retry.',
      },
    });
    expect(decisions).toEqual([expect.objectContaining({ toolName: 'Skill', outcome: 'block' })]);
  });

  it('warns through additionalContext by default; allows recovery skills and calls under the ceiling', async () => {
    world = new World();
    const high = world.write('high.jsonl', aTranscript().assistant({ cacheRead: 100_000 }).toString());
    const low = world.write('low.jsonl', aTranscript().assistant({ cacheRead: 10_000 }).toString());
    const guard = createCeilingGuard({ stateDir: world.tmp, env: {} });
    const warned = await guard.hooks[0]!(input(high, 'Agent', { subagent_type: 'Explore' }), 'toolu_1', { signal: signal() });
    expect(warned).toMatchObject({ systemMessage: expect.stringContaining('50%'), hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: expect.stringContaining('Context ceiling warning') } });
    const strict = createCeilingGuard({ strict: true, stateDir: world.tmp, env: {} });
    expect(await strict.hooks[0]!(input(high, 'Skill', { skill: 'plugin:context-summarization' }), 'toolu_2', { signal: signal() })).toEqual({});
    expect(await strict.hooks[0]!(input(low, 'Skill', { skill: 'deep-dive' }), 'toolu_3', { signal: signal() })).toEqual({});
  });

  it('options win over the environment', async () => {
    world = new World();
    const transcript = world.write('t.jsonl', aTranscript().assistant({ cacheRead: 100_000 }).toString());
    const guard = createCeilingGuard({ strict: false, stateDir: world.tmp, env: { DEV_TEAM_CONTEXT_STRICT: 'on' } });
    const output = await guard.hooks[0]!(input(transcript, 'Skill', { skill: 'x' }), 'toolu_1', { signal: signal() });
    expect(output).not.toHaveProperty('hookSpecificOutput.permissionDecision');
  });

  it('in a real SDK session, a strict guard refuses the Skill call and the model is told why', async () => {
    world = new World();
    world.skill('deep-dive');
    await world.start(['--dry-run']); // only the fake API: the hook comes from the SDK options
    world.reply({ cacheRead: 100_000, text: 'ready' });
    const env = { PATH: process.env.PATH ?? '', HOME: world.home, TMPDIR: world.tmp, ANTHROPIC_BASE_URL: world.apiUrl, ANTHROPIC_API_KEY: 'sk-ant-e2e-test', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' };
    const run = async (prompt: string, resume?: string) => {
      let sessionId: string | undefined;
      for await (const message of query({
        prompt,
        options: {
          cwd: world!.project,
          env,
          pathToClaudeCodeExecutable: CLAUDE_BIN,
          allowedTools: ['Skill'],
          ...(resume ? { resume } : {}),
          hooks: { PreToolUse: [createCeilingGuard({ strict: true, stateDir: world!.tmp, env: {} })] },
        },
      })) {
        if ('session_id' in message && typeof message.session_id === 'string') sessionId = message.session_id;
      }
      return sessionId;
    };
    const session = await run('get ready');
    const mark = world.api.requests.length - 1;
    world.reply({ cacheRead: 101_000, toolUse: { name: 'Skill', input: { skill: 'deep-dive' } } }, { cacheRead: 102_000, text: 'ok' });
    await run('use the deep-dive skill', session);
    const [, refused] = world.api.conversation.filter((r) => r.index > mark);
    expect(refused!.text).toContain('context-ceiling: blocked Skill "deep-dive"');
    expect(refused!.text).not.toContain('You are running the deep-dive skill');
  }, 120_000);
});
