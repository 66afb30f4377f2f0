/** The guard run as Claude Code runs it (the built hook, JSON on stdin, an explicit env), bound to the sandbox of the running test. */
import { expect } from 'vitest';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { runHook, type HookRun, type Sandbox } from './sandbox.js';

/** Strict mode on a stated window: only a verified window blocks (an assumed one only warns). */
export const STRICT = { DEV_TEAM_CONTEXT_STRICT: 'on', DEV_TEAM_CONTEXT_WINDOW: '200000' };

export const expectSilent = (run: HookRun) => expect(run).toEqual({ exitCode: 0, stdout: '', stderr: '' });

/** `entry` is dist/hook.cjs (what hooks.json runs) or the bin (`context-ceiling hook`); `current` is a getter because each test makes its own sandbox. */
export function guardRunners(entry: 'hook' | 'cli', current: () => Sandbox) {
  const guard = (input: unknown, env: Record<string, string> = {}) => runHook(current(), input, env, entry);
  const installUserSkill = (name: string) => current().write(`home/.claude/skills/${name}/SKILL.md`, `---\nname: ${name}\ndescription: d\n---\nbody\n`);
  /** A transcript whose newest main-thread turn sits at `tokens`. */
  const transcriptAt = (tokens: number, name = 'session.jsonl') =>
    current().write(`claude/${name}`, aTranscript().user('go').attachment(13_000).assistant({ cacheRead: tokens - 5 }).toolResult(2_000).noise().toString());
  return { guard, installUserSkill, transcriptAt };
}
