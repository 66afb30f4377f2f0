import type { Checkpoint } from './checkpoint.js';
import { TOKEN_BUDGET } from './limits.js';
import { viewResumption, hasResumptionState } from './resumption.js';
import {
  basename,
  clip,
  dataNote,
  describeDecision,
  describeDoing,
  describeFill,
  describeOrchestration,
  fitToBudget,
  flatten,
  hardCut,
  listLines,
  quoted,
  wrap,
} from './text-budget.js';

// ---------------------------------------------------------------- <compaction-alert>

export type AlertFacts = {
  /** The checkpoint as read back, or undefined when its file was corrupt. */
  checkpoint: Checkpoint | undefined;
  /** How the checkpoint file should be named to the model (project-relative when possible). */
  checkpointPath: string;
  /** Orchestration file path to name in the actions (project-relative when possible). */
  orchestrationPath: string;
  /** "COMPACTION EVENT k of n": this checkpoint's place among the session's compactions (recovery-skill saves are none). */
  eventNumber: number;
  eventCount: number;
  /** The id of the recovery skill's checkpoint saved just before this compaction: the compaction is the step it asked for. */
  recoverySave?: string | undefined;
  /** Lines that lead the alert: what Claude Code's summary dropped (compaction-text.ts). */
  lead?: string[] | undefined;
};

export function renderCompactionAlert(a: AlertFacts): string {
  const budget = TOKEN_BUDGET.compactionAlert * 4;
  if (!a.checkpoint) return hardCut(wrap('compaction-alert', genericAlertLines(a)), budget);
  const c = a.checkpoint;
  const view = viewResumption(c.orchestration.resumption, c.orchestration.header);
  const hasState = hasResumptionState(view);
  return fitToBudget(budget, 'compaction-alert', (limit) => {
    const lines = [
      'CONTEXT COMPACTION OCCURRED. Some conversation history was compressed by Claude Code.',
      'You may have lost track of recent work. Re-orient using the data below.',
      ...(hasState ? [dataNote(basename(a.orchestrationPath))] : []),
      ...(a.lead?.length ? ['', ...a.lead] : []),
    ];
    if (a.eventCount > 1) lines.push(`COMPACTION EVENT: ${a.eventNumber} of ${a.eventCount} this session`);
    if (a.recoverySave) lines.push(recoveryDone(a.recoverySave));
    lines.push(
      '',
      `CHECKPOINT: ${clip(a.checkpointPath, 300)}`,
      `TRIGGER: ${clip(c.trigger.type, 40)} (PreCompact hook)${c.trigger.customInstructions ? `, instructions: ${clip(flatten(c.trigger.customInstructions), limit.field)}` : ''}`,
    );
    lines.push(`PRE-COMPACTION FILL: ${describeFill(c)}`);
    if (hasState) {
      const doing = describeDoing(view, limit.field);
      if (doing) lines.push('', `YOU WERE DOING: ${quoted(doing)}`);
      if (view.lastGateScore)
        lines.push(
          `LAST SCORE: ${view.lastGateScore}${view.currentGate ? ` (${view.currentGate}${view.currentGateIteration ? `, iteration ${view.currentGateIteration}` : ''})` : ''}`,
        );
      if (view.criticalContext) lines.push('', 'CRITICAL CONTEXT:', quoted(clip(view.criticalContext, limit.field)));
      if (view.pendingDecisions.length > 0)
        lines.push('', 'PENDING DECISIONS:', ...listLines(view.pendingDecisions.map(describeDecision), limit, true));
    } else {
      lines.push('', `No resumption state was recorded (${describeOrchestration(c)}).`);
    }
    lines.push('', 'IMMEDIATE ACTIONS:', `1. Read checkpoint file: ${clip(a.checkpointPath, 300)}`);
    if (hasState || c.orchestration.status !== 'missing') {
      lines.push(
        `2. Read the ${basename(a.orchestrationPath)} resumption section: ${clip(a.orchestrationPath, 300)}`,
        '3. Merge checkpoint data into the resumption section if the checkpoint is newer',
      );
      lines.push(
        `4. Continue from ${view.nextStep ? `the next step recorded there: ${quoted(clip(view.nextStep, limit.field))}` : "the resumption section's next_step"}`,
      );
    } else {
      lines.push('2. Re-read the files you were changing before going on', '3. If the next step is unclear, ask the user');
    }
    return lines;
  });
}

/** After the recovery skill's save, the compaction it asked for is done: the model must not ask for it again. */
function recoveryDone(id: string): string {
  return `This is the compaction the recovery skill asked for after saving checkpoint ${clip(id, 20)}: it is done. Do not ask for /compact again; continue the work.`;
}

function genericAlertLines(a: AlertFacts): string[] {
  return [
    'CONTEXT COMPACTION OCCURRED. Some conversation history was compressed by Claude Code.',
    `The checkpoint written at compaction could not be read (${clip(a.checkpointPath, 300)}).`,
    ...(a.eventCount > 1 ? [`COMPACTION EVENT: ${a.eventNumber} of ${a.eventCount} this session`] : []),
    ...(a.recoverySave ? [recoveryDone(a.recoverySave)] : []),
    '',
    'IMMEDIATE ACTIONS:',
    `1. Read the ${basename(a.orchestrationPath)} resumption section if the project has one: ${clip(a.orchestrationPath, 300)}`,
    '2. Re-read the files you were changing before going on',
    '3. If the next step is unclear, ask the user',
  ];
}
