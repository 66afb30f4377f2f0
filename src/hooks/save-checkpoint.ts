/**
 * `node hook.cjs save-checkpoint`: the recovery skill's save step. Runs inside
 * the skill (its `!` command or the Bash tool), where Claude Code provides
 * CLAUDE_CODE_SESSION_ID but not CLAUDE_PROJECT_DIR nor any hook input.
 */
import { dirname, basename, relative } from 'node:path';
import { attendanceOf, renderSaveResult, type SaveOutcome } from '../core/recovery.js';
import { describeFill } from '../core/text-budget.js';
import { describeError } from '../io/debug.js';
import type { HookOutcome } from '../runtime/hook-io.js';
import { findSessionTranscript, projectFolderName } from '../io/locate.js';
import { writeCheckpointNow } from '../checkpoints/write-now.js';
import { judgeStuckAfterCompaction } from '../core/compaction-notice.js';
import { readNewestCompaction } from '../io/newest-compaction.js';
import { loadHookConfig } from '../runtime/hook-config.js';
import type { HookHost } from '../runtime/host.js';
import { isSafeId } from '../core/hook-input.js';

export function runSaveCheckpoint(_stdin: string | undefined, host: HookHost): HookOutcome {
  const { outcome, stuck } = save(host);
  const text = renderSaveResult(outcome, attendanceOf(host.env.CLAUDE_CODE_SESSION_ATTENDED), stuck);
  const reason = outcome.kind === 'saved' ? `saved ${outcome.id}` : 'not-saved';
  return { exitCode: 0, stdout: text, stderr: '', reason: stuck ? `${reason} over-ceiling-after-compaction` : reason };
}

type Saved = { outcome: SaveOutcome; stuck?: { postTokens: number; ceilingPct: number } | undefined };

function save(host: HookHost): Saved {
  const sessionId = host.env.CLAUDE_CODE_SESSION_ID ?? '';
  if (!isSafeId(sessionId)) return { outcome: { kind: 'not-saved', reason: 'CLAUDE_CODE_SESSION_ID is not set: not run by Claude Code' } };
  const transcript = findSessionTranscript(host.env, host.home, host.env.CLAUDE_PROJECT_DIR || host.cwd, sessionId);
  const config = loadHookConfig(host, projectDirOf(host, transcript));
  const { policy, projectDir, debug } = config;
  if (!policy.enabled) return { outcome: { kind: 'not-saved', reason: 'context-ceiling is off' } };
  try {
    const { path, checkpoint } = writeCheckpointNow(config, host, {
      sessionId,
      transcriptPath: transcript,
      trigger: 'skill',
      customInstructions: null,
      cwd: host.cwd,
    });
    // Issue 20: when the newest compaction left the context over the ceiling, the next step is /clear, not /compact.
    const newest =
      transcript === undefined
        ? undefined
        : readNewestCompaction(
            { stateDir: config.stateDir, key: sessionId, transcript, maxScanBytes: policy.maxScanBytes },
            host.timeUp,
            debug,
          );
    const found = judgeStuckAfterCompaction(newest, policy.ceilingPct, checkpoint.context.window);
    return {
      outcome: { kind: 'saved', id: checkpoint.id, fill: describeFill(checkpoint), path: shownPath(projectDir, path) },
      stuck: found && { postTokens: found.postTokens, ceilingPct: policy.ceilingPct },
    };
  } catch (error) {
    debug(`checkpoint not written: ${describeError(error)}`);
    return { outcome: { kind: 'not-saved', reason: 'the checkpoint folder is not writable' } };
  }
}

/**
 * The session's project folder. The skill's shell may have moved into a
 * subfolder, so climb from the working directory to the folder whose
 * Claude Code name (the transcript's parent) matches.
 */
function projectDirOf(host: HookHost, transcript: string | undefined): string {
  if (host.env.CLAUDE_PROJECT_DIR) return host.env.CLAUDE_PROJECT_DIR;
  const wanted = transcript ? basename(dirname(transcript)) : undefined;
  for (let dir = host.cwd; wanted !== undefined; dir = dirname(dir)) {
    if (projectFolderName(dir) === wanted) return dir;
    if (dirname(dir) === dir) break;
  }
  return host.cwd;
}

/** Project-relative when the checkpoint is in the project; absolute when it went to the private state directory. */
function shownPath(projectDir: string, path: string): string {
  const inside = relative(projectDir, path);
  return inside && !inside.startsWith('..') ? inside : path;
}
