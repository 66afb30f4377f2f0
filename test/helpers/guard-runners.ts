/** The guard run as Claude Code runs it (the built hook, JSON on stdin, an explicit env), bound to the sandbox of the running test. */
import { existsSync, readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect } from 'vitest';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { makeSandbox, runHook, type HookRun, type Sandbox } from './sandbox.js';

/** What CI sets, and nothing else (the card's "strict mode in CI"): the window comes from the session's model. */
export const STRICT = { DEV_TEAM_CONTEXT_STRICT: 'on' };

export { expectSilent } from './sandbox.js';

/** Allowed, and the person told one thing about the window (a notice): returns what they were told. */
export function expectNotice(run: HookRun, reason = 'allow below-ceiling +notice'): string {
  expect(run.exitCode).toBe(0);
  expect(run.reason).toBe(reason);
  const output = guardOutput(run);
  expect(Object.keys(output)).toEqual(['systemMessage']);
  return output.systemMessage!;
}

/**
 * Wait for a running guard (`running`, its debug channel in the file `log`) to say it is waiting for the calling
 * turn's record, then `append` it: a deterministic order (the hook's budget is the tolerance). A hook that ends
 * without saying so (a dead one) fails the test at once, not at its timeout.
 */
export async function appendWhenWaiting(running: Promise<HookRun>, log: string, append: () => void): Promise<HookRun> {
  let ended = false;
  running.then(
    () => (ended = true),
    () => (ended = true),
  );
  while (!ended && !(existsSync(log) && readFileSync(log, 'utf8').includes('waiting up to'))) await new Promise((r) => setTimeout(r, 2));
  append();
  return running;
}

/** The guard's output JSON, parsed. */
export const guardOutput = (run: HookRun) =>
  JSON.parse(run.stdout) as { systemMessage?: string; hookSpecificOutput?: Record<string, string> };

/** A strict block as Claude Code gets it: exit 0, a `deny` decision whose reason the model reads, a notice for the person, one stderr line. */
export function expectBlocked(run: HookRun, reason = 'block over-ceiling-blocked'): { model: string; user: string } {
  expect(run.exitCode).toBe(0);
  expect(run.reason).toBe(reason);
  const output = guardOutput(run);
  expect(output.hookSpecificOutput).toMatchObject({ hookEventName: 'PreToolUse', permissionDecision: 'deny' });
  expect(run.stderr).toMatch(/^context-ceiling: blocked .+\n/);
  return { model: output.hookSpecificOutput!.permissionDecisionReason!, user: output.systemMessage! };
}

/** A warning: exit 0, additionalContext for the model, a systemMessage for the person. */
export function expectWarned(run: HookRun, reason = 'warn over-ceiling'): { model: string; user: string } {
  expect(run.exitCode).toBe(0);
  expect(run.reason).toBe(reason);
  const output = guardOutput(run);
  expect(output.hookSpecificOutput).toMatchObject({ hookEventName: 'PreToolUse' });
  return { model: output.hookSpecificOutput!.additionalContext!, user: output.systemMessage! };
}

export type GuardRun = {
  /** This test's sandbox (each test makes its own). */
  readonly sandbox: Sandbox;
  guard(input: unknown, env?: Record<string, string>): Promise<HookRun>;
  /**
   * A transcript whose newest main-thread turn sits at `tokens`, on `model` (default: the default model,
   * claude-opus-5-5), with a model attachment naming `attachment` when given.
   */
  transcriptAt(tokens: number, name?: string, model?: string, attachment?: string): string;
};

/**
 * Runs `cases` through plugin/dist/hook.cjs (what hooks.json and every route run), each test in a fresh sandbox
 * where the recovery skill is installed (messages name only an installed one). The bin's `context-ceiling hook`
 * is the same runner: hook-entries.test.ts holds it to hook.cjs's output, event by event and verdict by verdict.
 */
export function describeGuard(cases: (run: GuardRun) => void): void {
  describe('hook entry', () => {
    let sandbox: Sandbox;
    beforeEach(() => {
      sandbox = makeSandbox();
      sandbox.write('home/.claude/skills/context-summarization/SKILL.md', '---\nname: context-summarization\ndescription: d\n---\nbody\n');
    });
    afterEach(() => sandbox.cleanup());
    cases({
      get sandbox() {
        return sandbox;
      },
      guard: (input, env = {}) => runHook(sandbox, input, env),
      transcriptAt: (tokens, name = 'session.jsonl', model = undefined, attachment = undefined) => {
        const t = aTranscript();
        if (attachment !== undefined) t.modelAttachment(attachment);
        return sandbox.write(
          `claude/${name}`,
          t
            .user('go')
            .attachment(13_000)
            .assistant({ cacheRead: tokens - 5, ...(model === undefined ? {} : { model }) })
            .toolResult(2_000)
            .noise()
            .toString(),
        );
      },
    });
  });
}
