/** What the recovery skill's save step tells the model (the skill injects this text where it runs). */

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

export type SaveOutcome = { kind: 'saved'; id: string; fill: string; path: string } | { kind: 'not-saved'; reason: string };

export function renderSaveResult(outcome: SaveOutcome, attendance: Attendance): string {
  const head =
    outcome.kind === 'saved'
      ? `context-ceiling: checkpoint ${outcome.id} saved at context fill ${outcome.fill}: ${outcome.path}`
      : `context-ceiling: no checkpoint saved (${outcome.reason}); PreCompact will save one when Claude Code compacts.`;
  return `${head}\n${NEXT_STEP[attendance]}\n`;
}
