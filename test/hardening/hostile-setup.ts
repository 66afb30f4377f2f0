/** What every hostile-repository suite works with: a state directory and a debug log beside the sandbox's project. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import type { Sandbox } from '../helpers/sandbox.js';

/** `sandbox`: the current test's sandbox (each suite makes a fresh one per test). */
export function hostileWorld(sandbox: () => Sandbox) {
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
  return { state, debugLog, env, transcriptAt, debugText };
}
