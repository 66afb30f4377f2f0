/**
 * Right on first install: the plugin added as README says (marketplace add <clone> + install), nothing configured but
 * strict mode for the run (DEV_TEAM_CONTEXT_STRICT=on), on Claude Code's default model (claude-opus-5-5, whose
 * 1,000,000-token window the guard takes from the model). Asserted on what the model received (the fake API's
 * record), what the person is shown (stream-json `system/informational` events, the systemMessage) and what a CI
 * job reads afterwards (`context-ceiling events --summary`). One World; each check is its own session.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/sandbox.js';
import { toolResult, toolUseId, type Turn } from './fake-api.js';
import { addPlugin, userEnv } from './routes.js';
import { expectRunBy, notices, World } from './world.js';

const STRICT_ONLY = { DEV_TEAM_CONTEXT_STRICT: 'on' };
const WAY_OUT = 'run the /context-ceiling:context-summarization skill';
const AT_45 = 'context is at 45% (450,005 of 1,000,000 tokens; window: model claude-opus-5-5), over the 40% ceiling';

let world: World;
beforeAll(async () => {
  world = new World();
  await world.start(null);
  await addPlugin(world, ROOT);
  world.skill('deep-dive');
}, 120_000);
afterAll(() => world.stop());

const load = (skill: string): Turn['toolUse'] => ({ name: 'Skill', input: { skill } });

/** A session whose turn held 449,005 tokens, resumed (streamed) for `turns`: the run and the model's requests in it. */
async function at45(env: Record<string, string>, turns: Turn[]) {
  const session = await world.sessionAt(449_000, env);
  const mark = world.api.requests.length - 1;
  world.reply(...turns);
  const run = await world.claude('go on', { resume: session, env, stream: true });
  expect(run.exitCode, run.stderr).toBe(0);
  return { session, run, requests: world.api.conversation.filter((request) => request.index > mark) };
}

describe('the plugin, nothing configured but strict mode, on the default model', () => {
  it('45 %: the Skill is refused with the reason alone, the person is told, the recovery skill it names loads; events --summary counts 1 block', async () => {
    const { session, run, requests } = await at45(STRICT_ONLY, [
      { cacheRead: 450_000, toolUse: load('deep-dive') },
      { cacheRead: 450_500, toolUse: load('context-ceiling:context-summarization') },
      { cacheRead: 451_000, text: 'saved' },
    ]);
    const [call, refused, recovered] = requests;
    // The model: a deny, labelled by the client, then our reason with no command line in front of it.
    expect(toolResult(refused!, toolUseId(call!))).toEqual({
      isError: true,
      content:
        `PreToolUse:Skill hook error: Blocked by the context ceiling (strict mode), not an error in the Skill tool: ${AT_45}, ` +
        `so Skill "deep-dive" was not loaded. To bring context back under the ceiling, ${WAY_OUT}, then retry; recovery skills are never blocked.`,
    });
    expect(refused!.text).not.toContain('You are running the deep-dive skill');
    expect(run.json?.permission_denials).toEqual([
      { tool_name: 'Skill', tool_use_id: toolUseId(call!), tool_input: { skill: 'deep-dive' } },
    ]);
    // The person (print mode shows hook output only in stream-json): one notice, never sent to the model.
    const told = `context-ceiling: blocked Skill "deep-dive" at 45% of a 1,000,000-token window (model claude-opus-5-5), over the 40% ceiling (strict mode); the model was told to ${WAY_OUT}.`;
    expect(notices(run)).toEqual([`PreToolUse:Skill says: ${told}`]);
    expect(world.api.conversation.some((request) => request.text.includes(told))).toBe(false);
    // The way out named is installed under that name: it loads (never "Unknown skill") and saves a checkpoint.
    expect(toolResult(recovered!, toolUseId(refused!))).toEqual({
      isError: false,
      content: 'Launching skill: context-ceiling:context-summarization',
    });
    expect(recovered!.text).toContain('Back under the context ceiling');
    expect(recovered!.text).toMatch(
      /checkpoint cx-001 saved at context fill 45% \(450,505 of 1,000,000 tokens, window: model claude-opus-5-5\)/,
    );
    expect(world.checkpoints(session)).toHaveLength(1);
    // After the run, a CI job asks the CLI (README: the plugin's CLI), with the same HOME.
    const cli = await execa(process.execPath, [join(ROOT, 'plugin', 'dist', 'cli.cjs'), 'events', '--summary'], {
      cwd: world.project,
      env: userEnv(world),
      extendEnv: false,
      reject: false,
    });
    expect(cli.stderr).toBe('');
    expect(cli.stdout).toBe('context-ceiling: 1 block and 0 warnings in 1 session; highest 45% of 1,000,000 (model claude-opus-5-5).');
    expectRunBy(world, ['session-start', 'user-prompt-submit', 'pre-tool-use']);
  });

  it('a Workflow over the ceiling (an inline script the client accepts) is refused before it launches', async () => {
    const script = 'export const meta = { name: "probe", description: "Probe workflow for the ceiling" }\nreturn { ok: true }';
    const { session, run, requests } = await at45(STRICT_ONLY, [
      { cacheRead: 450_000, toolUse: { name: 'Workflow', input: { script } } },
      { cacheRead: 450_500, text: 'understood' },
    ]);
    const [call, refused] = requests;
    expect(toolResult(refused!, toolUseId(call!))).toEqual({
      isError: true,
      content:
        `PreToolUse:Workflow hook error: Blocked by the context ceiling (strict mode), not an error in the Workflow tool: ${AT_45}, ` +
        `so Workflow "inline script" was not loaded. To bring context back under the ceiling, ${WAY_OUT}, then retry; recovery skills are never blocked.`,
    });
    expect(run.json?.permission_denials).toEqual([{ tool_name: 'Workflow', tool_use_id: toolUseId(call!), tool_input: { script } }]);
    // Nothing ran: the client keeps a launched workflow's script and run record under the session's folder.
    expect(existsSync(join(dirname(world.transcript(session)), session, 'workflows'))).toBe(false);
  });

  it('warn mode (strict not set) at 45 %: the Skill loads, the model is warned of 45 % of 1,000,000, the person is told', async () => {
    const { run, requests } = await at45({}, [
      { cacheRead: 450_000, toolUse: load('deep-dive') },
      { cacheRead: 450_500, text: 'done' },
    ]);
    const [call, afterTool] = requests;
    expect(toolResult(afterTool!, toolUseId(call!))).toEqual({ isError: false, content: 'Launching skill: deep-dive' });
    expect(afterTool!.text).toContain('You are running the deep-dive skill');
    expect(afterTool!.text).toContain(
      `PreToolUse:Skill hook additional context: Context ceiling warning: ${AT_45}. The Skill "deep-dive" call proceeds, ` +
        `but load no further agents, skills or workflows until you have brought context back under the ceiling: ${WAY_OUT}.`,
    );
    expect(run.json?.permission_denials).toEqual([]);
    expect(notices(run)).toEqual([
      `PreToolUse:Skill says: context-ceiling: 45% of a 1,000,000-token window (model claude-opus-5-5) is over the 40% ceiling; the model was told to ${WAY_OUT}.`,
    ]);
  });
});
