/** The non-guard hooks (PreCompact, UserPromptSubmit, SessionStart, PostToolUse) run as Claude Code runs them, for one session in a sandbox's project. */
import { join } from 'node:path';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { runHook, type HookRun, type Sandbox } from './sandbox.js';

export const SESSION = '23a83752-3e60-4380-a61e-938c7063d518';

/** A model whose one window is 200,000 tokens: the seeds' examples are in its numbers. */
export const HAIKU = 'claude-haiku-4-5';

/** A resumption section as a workflow writes it; updated_at is now, so it is fresh. */
export const ORCHESTRATION = `header:
  workflow_id: FEAT-015
  project_id: PROJ-001
resumption:
  current_phase: 2
  current_phase_name: Core License Changes
  current_activity: qg-2-iteration-1
  next_step: Apply the DA-001 fix, then re-score
  critical_context: DA-001 copyright holder mismatch between NOTICE and the header template.
  updated_at: ${new Date().toISOString()}
  decisions:
    - id: RD-001
      decision: Align copyright holder to 'Adam Nowak'
      applied: false
`;

/** The additionalContext a hook run gave the model, if any. */
export const context = (run: HookRun) =>
  run.stdout ? (JSON.parse(run.stdout).hookSpecificOutput?.additionalContext as string | undefined) : undefined;

/** Hook runners bound to the sandbox of the running test (a getter: each test makes its own). */
export function hookEvents(current: () => Sandbox) {
  const hook = (event: string, input: Record<string, unknown>, env: Record<string, string> = {}) =>
    runHook(
      current(),
      { session_id: SESSION, cwd: current().project, ...input },
      { CLAUDE_PROJECT_DIR: current().project, ...env },
      'hook',
      event,
    );
  const checkpointDir = (session = SESSION) => join(current().project, '.claude', 'context-ceiling', 'checkpoints', session);
  /** A session on claude-haiku-4-5 (a 200,000-token model, as its attachment confirms), so fills read as in the seeds' examples. */
  const transcriptAt = (tokens: number, name = 'main.jsonl') =>
    current().write(
      `claude/${name}`,
      aTranscript()
        .modelAttachment(HAIKU)
        .user('go')
        .assistant({ cacheRead: tokens - 5, model: HAIKU })
        .toString(),
    );
  const preCompact = (trigger = 'auto', transcript = transcriptAt(180_000), env: Record<string, string> = {}) =>
    hook('pre-compact', { transcript_path: transcript, hook_event_name: 'PreCompact', trigger, custom_instructions: null }, env);
  const prompt = (transcript: string, env: Record<string, string> = {}, session = SESSION) =>
    hook(
      'user-prompt-submit',
      { session_id: session, transcript_path: transcript, hook_event_name: 'UserPromptSubmit', prompt: 'go on' },
      env,
    );
  const sessionStart = (source: string, session = SESSION, transcript = transcriptAt(3_000, `${session}.jsonl`)) =>
    hook('session-start', { session_id: session, transcript_path: transcript, hook_event_name: 'SessionStart', source });
  return { hook, checkpointDir, transcriptAt, preCompact, prompt, sessionStart };
}
