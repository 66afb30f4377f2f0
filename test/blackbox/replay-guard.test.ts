// @module-tag hook
/**
 * Calibration evidence is the guard's own judgement (issue 12): for every tool
 * action × strict setting, the real hook and `replay` agree call by call.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOL_ACTIONS } from '../../src/core/policy.js';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { makeSandbox, preToolUse, runCli, runHook, type Sandbox } from '../helpers/sandbox.js';

let sandbox: Sandbox;
beforeAll(() => {
  sandbox = makeSandbox();
});
afterAll(() => sandbox.cleanup());

/** One session per call, each a single turn at 50 % of the window that makes the call. */
const CALLS: Array<{ tool: string; input: Record<string, unknown> }> = [
  { tool: 'Agent', input: { subagent_type: 'Explore', description: 'd', prompt: 'p' } },
  { tool: 'Task', input: { subagent_type: 'general-purpose', description: 'd', prompt: 'p' } },
  { tool: 'Skill', input: { skill: 'deep-dive' } },
  { tool: 'Skill', input: { skill: 'context-summarization' } }, // a recovery skill: never judged
  { tool: 'Workflow', input: { name: 'deep-research', args: {} } },
  { tool: 'WebFetch', input: { url: 'https://example.invalid' } }, // gated only when the policy names it
];
const ENV = { DEV_TEAM_CONTEXT_WINDOW: '1000000' };

type Kind = 'allow' | 'warn' | 'block';

function hookKind(run: { exitCode: number; stdout: string; stderr: string }): Kind {
  expect(run.exitCode).toBe(0);
  if (run.stdout.includes('"permissionDecision":"deny"')) return 'block';
  return run.stderr !== '' || run.stdout.includes('additionalContext') ? 'warn' : 'allow';
}

describe.each(TOOL_ACTIONS.flatMap((action) => [false, true].map((strict) => [action, strict] as const)))(
  'every gated tool "%s", strict %s',
  (action, strict) => {
    it('the hook and replay judge each call alike', async () => {
      const name = `${action}-${strict}`;
      const project = join(sandbox.root, name, 'project');
      sandbox.write(
        `${name}/project/.claude/context-ceiling.json`,
        JSON.stringify({ strict, tools: { Agent: action, Task: action, Skill: action, Workflow: action, WebFetch: action } }),
      );
      const transcripts = CALLS.map((call, i) =>
        sandbox.write(
          `${name}/sessions/s${i}.jsonl`,
          aTranscript(`s${i}`)
            .assistant({ cacheRead: 500_000 - 5, toolUse: { name: call.tool, input: call.input } })
            .toString(),
        ),
      );
      const env = { ...ENV, CLAUDE_PROJECT_DIR: project };
      const hookRuns = await Promise.all(
        CALLS.map((call, i) =>
          runHook(sandbox, preToolUse(transcripts[i]!, call.tool, call.input, { session_id: `${name}-s${i}`, cwd: project }), env),
        ),
      );
      const kinds = hookRuns.map(hookKind);
      // Each kind is the hook's own stated verdict, so a silent "allow" is not a dead hook's silence.
      expect(hookRuns.map((run) => run.reason?.split(' ')[0])).toEqual(kinds);
      const replay = await runCli(sandbox, ['replay', join(sandbox.root, name, 'sessions'), '--ceilings', '40', '--json'], env);
      expect(replay.exitCode, replay.stderr).toBe(0);
      const outcome = JSON.parse(replay.stdout).ceilings[0] as {
        gatedByTool: Record<string, number>;
        blockedByTool: Record<string, number>;
      };
      const count = (wanted: (kind: Kind) => boolean) => {
        const byTool: Record<string, number> = {};
        CALLS.forEach((call, i) => {
          if (wanted(kinds[i]!)) byTool[call.tool] = (byTool[call.tool] ?? 0) + 1;
        });
        return byTool;
      };
      expect(outcome.gatedByTool).toEqual(count((kind) => kind !== 'allow'));
      expect(outcome.blockedByTool).toEqual(count((kind) => kind === 'block'));
      // And the sweep is not vacuous: what the guard does here is what the policy says.
      const expected: Kind = action === 'off' ? 'allow' : action === 'auto' ? (strict ? 'block' : 'warn') : action;
      expect(kinds).toEqual([expected, expected, expected, 'allow', expected, expected]);
    });
  },
);
