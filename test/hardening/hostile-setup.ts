/** What every hostile-repository suite works with: a state directory and a debug log beside the sandbox's project. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { expect } from 'vitest';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { HOOK_BIN, type Sandbox } from '../helpers/sandbox.js';
import { expectWellBehaved } from './invariants.js';

export type HookOptions = { env?: Record<string, string>; nodeFlags?: string[] };

/** `sandbox`: the current test's sandbox (each suite makes a fresh one per test); `session`: the session its hooks run in. */
export function hostileWorld(sandbox: () => Sandbox, session: string) {
  const state = () => join(sandbox().root, 'state');
  const debugLog = () => join(sandbox().root, 'debug.log');
  /** The hooks' environment: the project, the state directory and a debug log the test reads. */
  const env = (extra: Record<string, string> = {}) => ({
    CLAUDE_PROJECT_DIR: sandbox().project,
    DEV_TEAM_CONTEXT_STATE_DIR: state(),
    DEV_TEAM_CONTEXT_DEBUG: debugLog(),
    ...extra,
  });
  const transcriptAt = (tokens: number) =>
    sandbox().write(
      't.jsonl',
      aTranscript()
        .assistant({ cacheRead: tokens - 5 })
        .toString(),
    );
  const debugText = () => (existsSync(debugLog()) ? readFileSync(debugLog(), 'utf8') : '');
  /** Every reason `event` stated on the debug channel, oldest first. */
  const verdicts = (event: string) =>
    debugText()
      .split('\n')
      .filter((line) => line.includes(`verdict ${event}: `))
      .map((line) => line.split(`verdict ${event}: `)[1]);
  /**
   * Run the built hook as Claude Code does, killed at Claude Code's own hook timeout (10 s): a hook still
   * running then has failed. `nodeFlags` bound memory. `reason` is the verdict the run stated last.
   */
  async function hook(event: string, input: Record<string, unknown>, options: HookOptions = {}) {
    const result = await execa(process.execPath, [...(options.nodeFlags ?? []), HOOK_BIN, event], {
      input: JSON.stringify({ session_id: session, cwd: sandbox().project, ...input }),
      env: sandbox().env(env(options.env)),
      extendEnv: false,
      cwd: sandbox().project,
      reject: false,
      timeout: 10_000,
      stripFinalNewline: false,
    });
    expect(result.timedOut, `${event} ran past Claude Code's 10 s hook timeout`).toBe(false);
    const outcome = { exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) };
    expectWellBehaved(event, outcome);
    return { ...outcome, reason: verdicts(event).at(-1) };
  }
  return { state, debugLog, env, transcriptAt, debugText, verdicts, hook };
}
