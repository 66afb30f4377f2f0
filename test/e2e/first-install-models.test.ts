/**
 * Right on first install, on other models: the plugin added as README says, nothing configured but strict mode,
 * and `--model` as a person would pass it. The guard takes the window from the model the transcript names (the
 * `model` attachment keeps a `[1m]`, verified on 2.1.331), and the client's own result (`modelUsage.<model>.contextWindow`)
 * is the check that it took the right one; each hook's debug verdict tells a silent allow from a hook that never ran.
 * One World; each model its own session.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/sandbox.js';
import { type RecordedRequest, toolResult, toolUseId } from './fake-api.js';
import { addPlugin } from './routes.js';
import { notices, verdicts, World } from './world.js';

const STRICT_ONLY = { DEV_TEAM_CONTEXT_STRICT: 'on' };

let world: World;
beforeAll(async () => {
  world = new World();
  await world.start(null);
  await addPlugin(world, ROOT);
  world.skill('deep-dive');
}, 120_000);
afterAll(() => world.stop());

/** A session on `model` whose turn held `tokens`, resumed for a deep-dive load: the run and the model's requests in it. */
async function loadOn(model: string, tokens: number, args: string[] = []) {
  const session = await world.sessionAt(tokens - 1_000, STRICT_ONLY, { model, args });
  const mark = world.api.requests.length - 1;
  world.reply(
    { cacheRead: tokens - 5, toolUse: { name: 'Skill', input: { skill: 'deep-dive' } } },
    { cacheRead: tokens + 500, text: 'done' },
  );
  const run = await world.claude('use the deep-dive skill', {
    resume: session,
    env: STRICT_ONLY,
    model,
    args,
    stream: true,
    verdicts: true,
  });
  expect(run.exitCode, run.stderr).toBe(0);
  const requests = world.api.conversation.filter((request) => request.index > mark);
  // The client's own window for the run, by model (modelUsage.<model>.contextWindow): the check that the guard took the right one.
  const usage = (run.json?.modelUsage ?? {}) as Record<string, { contextWindow: number } | undefined>;
  return { session, run, requests, windowOf: (key: string) => usage[key]?.contextWindow };
}

/** The model ids the client's `model` attachments give for the session (what it says the session runs on). */
function attachedModels(session: string): string[] {
  return readFileSync(world.transcript(session), 'utf8')
    .split('\n')
    .filter((line) => line.includes('"type":"model"'))
    .map((line) => JSON.parse(line).attachment?.identity?.modelId);
}

/** Every percentage over 100 in what the model received. */
const over100 = (requests: RecordedRequest[]) =>
  requests.flatMap((request) => [...request.text.matchAll(/(\d+)%/g)].map((m) => Number(m[1])).filter((n) => n > 100));

describe('the plugin, nothing configured but strict mode, on the model a person chose', () => {
  it('--model claude-haiku-4-5 at 100,005 tokens: half its 200,000 window, so the load is refused, judged on that model', async () => {
    const { session, run, requests, windowOf } = await loadOn('claude-haiku-4-5', 100_005);
    expect(verdicts(run)).toContain('pre-tool-use: block over-ceiling-blocked');
    expect(attachedModels(session)).toEqual(['claude-haiku-4-5']);
    expect(windowOf('claude-haiku-4-5')).toBe(200_000); // the client agrees
    const [call, refused] = requests;
    expect(call!.body.model).toBe('claude-haiku-4-5');
    expect(toolResult(refused!, toolUseId(call!))).toEqual({
      isError: true,
      content:
        'PreToolUse:Skill hook error: Blocked by the context ceiling (strict mode), not an error in the Skill tool: ' +
        'context is at 50% (100,005 of 200,000 tokens; window: model claude-haiku-4-5), over the 40% ceiling, so Skill "deep-dive" was not loaded. ' +
        'To bring context back under the ceiling, run the /context-ceiling:context-summarization skill, then retry; recovery skills are never blocked.',
    });
  });

  it('--model claude-sonnet-4-5[1m] at 300,005 tokens: the 1M window, so the load passes, and no percentage over 100 % reaches the model', async () => {
    const { session, run, requests, windowOf } = await loadOn('claude-sonnet-4-5[1m]', 300_005);
    // The wire id drops the suffix (the transcript's message.model says claude-sonnet-4-5); the attachment keeps it.
    expect(requests[0]!.body.model).toBe('claude-sonnet-4-5');
    expect(attachedModels(session)).toEqual(['claude-sonnet-4-5[1m]']);
    expect(windowOf('claude-sonnet-4-5[1m]')).toBe(1_000_000);
    const [call, afterTool] = requests;
    expect(run.json?.permission_denials).toEqual([]);
    expect(toolResult(afterTool!, toolUseId(call!))).toEqual({ isError: false, content: 'Launching skill: deep-dive' });
    expect(afterTool!.text).not.toContain('PreToolUse:Skill hook');
    expect(verdicts(run)).toContain('pre-tool-use: allow below-ceiling'); // the guard ran, and let it through
    expect(requests[0]!.text).toContain('Context 29% (299,005 of 1,000,000 tokens, window: model claude-sonnet-4-5[1m])');
    expect(over100(world.api.conversation)).toEqual([]);
  });

  it('--model claude-sonnet-4-5 at 100,005 tokens: no [1m], but --betas could make it 1M unseen, so 200,000 is assumed: a warning, never a block', async () => {
    const { session, run, requests, windowOf } = await loadOn('claude-sonnet-4-5', 100_005);
    expect(verdicts(run)).toContain('pre-tool-use: warn over-ceiling-assumed-window');
    expect(attachedModels(session)).toEqual(['claude-sonnet-4-5']);
    expect(windowOf('claude-sonnet-4-5')).toBe(200_000);
    const [call, afterTool] = requests;
    expect(run.json?.permission_denials).toEqual([]);
    expect(toolResult(afterTool!, toolUseId(call!))).toEqual({ isError: false, content: 'Launching skill: deep-dive' });
    expect(afterTool!.text).toContain('context is at 50% (100,005 tokens) of an assumed 200,000-token window');
  });

  it('--model claude-sonnet-4-5 --betas context-1m-2025-08-07 (1M, and no id says so) at 300,005 tokens: outgrowing 200,000 proves the 1M', async () => {
    const { session, run, requests, windowOf } = await loadOn('claude-sonnet-4-5', 300_005, ['--betas', 'context-1m-2025-08-07']);
    expect(attachedModels(session)).toEqual(['claude-sonnet-4-5']);
    expect(windowOf('claude-sonnet-4-5')).toBe(1_000_000);
    const [call, afterTool] = requests;
    expect(run.json?.permission_denials).toEqual([]);
    expect(toolResult(afterTool!, toolUseId(call!))).toEqual({ isError: false, content: 'Launching skill: deep-dive' });
    expect(afterTool!.text).not.toContain('PreToolUse:Skill hook');
    expect(verdicts(run)).toContain('pre-tool-use: allow below-ceiling');
    const proven = 'claude-sonnet-4-5 with [1m], proven by what this session held';
    expect(requests[0]!.text).toContain(`Context 29% (299,005 of 1,000,000 tokens, window: ${proven})`);
    expect(over100(world.api.conversation)).toEqual([]);
    expect(notices(run)).toEqual([]); // nothing stated or reported was outgrown: the smaller window was only ever assumed
  });
});
