/**
 * `node hook.cjs save-checkpoint`: the recovery skill's save step. Runs inside
 * the skill (its `!` command or the Bash tool), where Claude Code provides
 * CLAUDE_CODE_SESSION_ID but not CLAUDE_PROJECT_DIR nor any hook input.
 */
import { dirname, basename, relative } from 'node:path';
import { attendanceOf, renderSaveResult, type SaveOutcome } from '../core/recovery.js';
import { describeFill } from '../core/templates.js';
import { describeError } from '../io/debug.js';
import type { HookOutcome } from '../io/hook-io.js';
import { findSessionTranscript, projectFolderName } from '../io/locate.js';
import { writeCheckpointNow } from './checkpoint-now.js';
import { loadSettings, type HookContext } from './context.js';

const SESSION_ID = /^[A-Za-z0-9_-]{1,128}$/;

export function runSaveCheckpoint(_stdin: string | undefined, ctx: HookContext): HookOutcome {
  const outcome = save(ctx);
  const text = renderSaveResult(outcome, attendanceOf(ctx.env.CLAUDE_CODE_SESSION_ATTENDED));
  return { exitCode: 0, stdout: text, stderr: '', reason: outcome.kind === 'saved' ? `saved ${outcome.id}` : 'not-saved' };
}

function save(ctx: HookContext): SaveOutcome {
  const sessionId = ctx.env.CLAUDE_CODE_SESSION_ID ?? '';
  if (!SESSION_ID.test(sessionId)) return { kind: 'not-saved', reason: 'CLAUDE_CODE_SESSION_ID is not set: not run by Claude Code' };
  const transcript = findSessionTranscript(ctx.env, ctx.home, ctx.env.CLAUDE_PROJECT_DIR || ctx.cwd, sessionId);
  const settings = loadSettings(ctx, projectDirOf(ctx, transcript));
  const { policy, projectDir, debug } = settings;
  if (!policy.enabled) return { kind: 'not-saved', reason: 'context-ceiling is off' };
  try {
    const { path, checkpoint } = writeCheckpointNow(settings, ctx, {
      sessionId,
      transcriptPath: transcript,
      trigger: 'skill',
      customInstructions: null,
      cwd: ctx.cwd,
    });
    return { kind: 'saved', id: checkpoint.id, fill: describeFill(checkpoint), path: relative(projectDir, path) || path };
  } catch (error) {
    debug(`checkpoint not written: ${describeError(error)}`);
    return { kind: 'not-saved', reason: 'the checkpoint folder is not writable' };
  }
}

/**
 * The session's project folder. The skill's shell may have moved into a
 * subfolder, so climb from the working directory to the folder whose
 * Claude Code name (the transcript's parent) matches.
 */
function projectDirOf(ctx: HookContext, transcript: string | undefined): string {
  if (ctx.env.CLAUDE_PROJECT_DIR) return ctx.env.CLAUDE_PROJECT_DIR;
  const wanted = transcript ? basename(dirname(transcript)) : undefined;
  for (let dir = ctx.cwd; wanted !== undefined; dir = dirname(dir)) {
    if (projectFolderName(dir) === wanted) return dir;
    if (dirname(dir) === dir) break;
  }
  return ctx.cwd;
}
