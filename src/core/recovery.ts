/** What the recovery skill's save step tells the model (the skill injects this text where it runs). */
import { describeStuck } from './guard-text.js';

/** Claude Code's CLAUDE_CODE_SESSION_ATTENDED: `1` interactive, `0` print mode and the SDK (CLAUDE-CODE-FACTS.md). */
export type Attendance = 'attended' | 'unattended' | 'unknown';

export function attendanceOf(value: string | undefined): Attendance {
  return value === '0' ? 'unattended' : value === '1' ? 'attended' : 'unknown';
}

const NEXT_STEP: Record<Attendance, string> = {
  attended:
    'This session is attended: ask the person to run /compact now (or /clear; the next session resumes from the checkpoint). Start nothing new until then.',
  unattended:
    'This session is unattended (print mode or SDK): nobody can run /compact. Continue the current task with what is already loaded and load no new agents or skills; Claude Code compacts by itself.',
  unknown: 'If a person is watching, ask them to run /compact (or /clear); otherwise continue with what is loaded and load nothing new.',
};

/**
 * Issue 20: when the session's newest compaction already left the context over the ceiling
 * (judgeStuckAfterCompaction), /compact is the step just taken: the way down from this checkpoint is /clear
 * (SessionStart `clear` resumes from the newest checkpoint).
 */
function nextStepAfterCompaction(attendance: Attendance, stuck: { postTokens: number; ceilingPct: number }): string {
  const why = describeStuck(stuck.postTokens, stuck.ceilingPct);
  if (attendance === 'attended')
    return `This session is attended: ask the person to run /clear now; the new session resumes from this checkpoint. Not /compact: ${why}. Start nothing new until then.`;
  if (attendance === 'unattended')
    return `This session is unattended (print mode or SDK): nobody can run /clear. Continue the current task with what is already loaded and load no new agents or skills; ${why}.`;
  return `If a person is watching, ask them to run /clear (not /compact: ${why}); otherwise continue with what is loaded and load nothing new.`;
}

export type SaveOutcome = { kind: 'saved'; id: string; fill: string; path: string } | { kind: 'not-saved'; reason: string };

/** `stuck`: the newest compaction left the context over the ceiling (then the next step is /clear, never /compact). */
export function renderSaveResult(
  outcome: SaveOutcome,
  attendance: Attendance,
  stuck?: { postTokens: number; ceilingPct: number } | undefined,
): string {
  const head =
    outcome.kind === 'saved'
      ? `context-ceiling: checkpoint ${outcome.id} saved at context fill ${outcome.fill}: ${outcome.path}`
      : `context-ceiling: no checkpoint saved (${outcome.reason}); PreCompact will save one when Claude Code compacts.`;
  return `${head}\n${stuck ? nextStepAfterCompaction(attendance, stuck) : NEXT_STEP[attendance]}\n`;
}
