/** The guard run as Claude Code runs it (the built hook, JSON on stdin, an explicit env), bound to the sandbox of the running test. */
import { afterEach, beforeEach, describe, expect } from 'vitest';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { makeSandbox, runHook, type HookRun, type Sandbox } from './sandbox.js';

/** Strict mode on a stated window: only a verified window blocks (an assumed one only warns). */
export const STRICT = { DEV_TEAM_CONTEXT_STRICT: 'on', DEV_TEAM_CONTEXT_WINDOW: '200000' };

export const expectSilent = (run: HookRun) => expect(run).toEqual({ exitCode: 0, stdout: '', stderr: '' });

export type GuardRun = {
  /** This test's sandbox (each test makes its own). */
  readonly sandbox: Sandbox;
  guard(input: unknown, env?: Record<string, string>): Promise<HookRun>;
  /** A transcript whose newest main-thread turn sits at `tokens`. */
  transcriptAt(tokens: number, name?: string): string;
};

/**
 * Runs `cases` through both entry points, plugin/dist/hook.cjs (what hooks.json runs) and the bin
 * (`context-ceiling hook`), each test in a fresh sandbox where the recovery skill is installed
 * (messages name only an installed one).
 */
export function describeEachEntry(cases: (run: GuardRun) => void): void {
  describe.each(['hook', 'cli'] as const)('%s entry', (entry) => {
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
      guard: (input, env = {}) => runHook(sandbox, input, env, entry),
      transcriptAt: (tokens, name = 'session.jsonl') =>
        sandbox.write(
          `claude/${name}`,
          aTranscript()
            .user('go')
            .attachment(13_000)
            .assistant({ cacheRead: tokens - 5 })
            .toolResult(2_000)
            .noise()
            .toString(),
        ),
    });
  });
}
