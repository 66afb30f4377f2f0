/** <resumption-context> (seed 003 Template 1): an earlier session's checkpoint, injected at the start of a new one. */
import type { Checkpoint } from './checkpoint.js';
import { TOKEN_BUDGET } from './limits.js';
import { hasResumptionState, viewResumption, type ResumptionView } from './resumption.js';
import {
  basename,
  clip,
  dataNote,
  describeDecision,
  describeFill,
  describeOrchestration,
  fitToBudget,
  hardCut,
  listLines,
  pushField,
  quoted,
  wrap,
  type Limits,
} from './text-budget.js';

export type ResumptionFacts = {
  checkpoint: Checkpoint | undefined;
  checkpointPath: string;
  orchestrationPath: string;
  /** Compactions the earlier session went through (its checkpoints, less those the recovery skill saved). */
  sessionCompactions: number;
  /** Lines placed before the closing instructions: the summary kept at compaction (compaction-text.ts). */
  appendix?: string[] | undefined;
};

export function renderResumptionContext(r: ResumptionFacts): string {
  const budget = TOKEN_BUDGET.resumptionContext * 4;
  const c = r.checkpoint;
  if (!c) return hardCut(wrap('resumption-context', unreadableLines(r)), budget);
  const v = viewResumption(c.orchestration.resumption, c.orchestration.header);
  if (!hasResumptionState(v)) return hardCut(wrap('resumption-context', noStateLines(r, c)), budget);
  return fitToBudget(budget, 'resumption-context', (limit) => [
    'You are resuming a workflow that was interrupted. Do NOT start over. Continue from the exact',
    'point of interruption using the persistent state below.',
    dataNote(basename(r.orchestrationPath)),
    '',
    ...headerLines(r, c, v),
    ...recoveryStateLines(r, c, v, limit),
    ...trajectoryLines(v, limit),
    ...filesToReadLines(r, v, limit),
    ...(r.appendix?.length ? ['', ...r.appendix] : []),
    ...closingLines(v),
  ]);
}

/** What the checkpoint was written for, in the words the model should read. */
function describeOrigin(c: Checkpoint): string {
  return c.trigger.type === 'skill' ? 'saved by the recovery skill' : `${clip(c.trigger.type, 40)} compaction`;
}

/** A recovery-skill checkpoint asked for /compact or /clear, and this fresh context is the result: never ask again. */
const RECOVERY_DONE =
  'This checkpoint was saved by the recovery skill, which asked for /compact or /clear: that is done (this is the fresh context). Do not ask for it again.';

function unreadableLines(r: ResumptionFacts): string[] {
  return [
    `An earlier session of this project was compacted, but its checkpoint could not be read: ${clip(r.checkpointPath, 300)}`,
    `Before continuing its work, read the resumption section of ${clip(r.orchestrationPath, 300)} if it exists, and ask the user what to continue if it is unclear.`,
    ...(r.appendix ?? []),
  ];
}

function noStateLines(r: ResumptionFacts, c: Checkpoint): string[] {
  return [
    c.trigger.type === 'skill'
      ? `An earlier session of this project saved a checkpoint with the recovery skill (${clip(c.timestamp, 40) || 'time unknown'}) at context fill ${describeFill(c)}.`
      : `An earlier session of this project was compacted (${clip(c.trigger.type, 40)}, ${clip(c.timestamp, 40) || 'time unknown'}) at context fill ${describeFill(c)}.`,
    ...(c.trigger.type === 'skill' ? [RECOVERY_DONE] : []),
    `No resumption state was recorded (${describeOrchestration(c)}). Checkpoint: ${clip(r.checkpointPath, 300)}`,
    ...(r.appendix ?? []),
    'Do not assume the earlier work is finished: ask the user what to continue before starting.',
  ];
}

function headerLines(r: ResumptionFacts, c: Checkpoint, v: ResumptionView): string[] {
  const lines: string[] = [];
  const ids = [v.workflowId && `WORKFLOW: ${clip(v.workflowId, 120)}`, v.projectId && `PROJECT: ${clip(v.projectId, 120)}`].filter(Boolean);
  if (ids.length) lines.push(ids.join('  '));
  if (v.planFile) lines.push(`ORCHESTRATION PLAN: ${clip(v.planFile, 300)}`);
  lines.push(`CHECKPOINT: ${clip(r.checkpointPath, 300)} (${clip(c.timestamp, 40) || 'time unknown'}, ${describeOrigin(c)})`);
  if (c.trigger.type === 'skill') lines.push(RECOVERY_DONE);
  lines.push('');
  return lines;
}

function recoveryStateLines(r: ResumptionFacts, c: Checkpoint, v: ResumptionView, limit: Limits): string[] {
  const f = (value: string | undefined) => (value === undefined ? undefined : clip(value, limit.field));
  const lines = ['RECOVERY STATE:'];
  const phase = v.currentPhase ? `Phase ${clip(v.currentPhase, 60)}${v.currentPhaseName ? ` (${f(v.currentPhaseName)})` : ''}` : undefined;
  pushField(lines, '- Current phase: ', phase);
  pushField(lines, '- Workflow status: ', f(v.workflowStatus));
  pushField(lines, '- Last activity: ', v.currentActivity === undefined ? undefined : quoted(f(v.currentActivity)!));
  pushField(lines, '- Last checkpoint: ', f(v.lastCheckpoint));
  lines.push(`- Context fill at interruption: ${describeFill(c)}`);
  // Our own count wins over the orchestration file's when higher: nothing updates that file's count at a compaction.
  lines.push(`- Compaction events in previous session: ${Math.max(countOf(v.compactionCount), r.sessionCompactions)}`);
  lines.push(
    '',
    `NEXT ACTION: ${v.nextStep === undefined ? 'not recorded: read the resumption section and ask the user if unclear' : quoted(f(v.nextStep)!)}`,
  );
  return lines;
}

function trajectoryLines(v: ResumptionView, limit: Limits): string[] {
  const f = (value: string) => clip(value, limit.field);
  const quality = [
    v.gatesCompleted && `- Gates completed: ${f(v.gatesCompleted)}`,
    v.gatesRemaining && `- Gates remaining: ${f(v.gatesRemaining)}`,
    v.currentGate &&
      `- Current gate: ${clip(v.currentGate, 60)}${v.currentGateIteration ? ` (iteration ${clip(v.currentGateIteration, 20)})` : ''}`,
    v.lastGateScore && `- Last gate score: ${clip(v.lastGateScore, 40)}`,
    v.lowestDimension && `- Recurring weak dimension: ${f(v.lowestDimension)}`,
  ].filter((line): line is string => Boolean(line));
  const lines: string[] = [];
  if (quality.length) lines.push('', 'QUALITY TRAJECTORY:', ...quality);
  if (v.decisions.length) lines.push('', 'KEY DECISIONS (carry forward):', ...listLines(v.decisions.map(describeDecision), limit, true));
  if (v.agentSummaries.length) lines.push('', 'AGENT WORK COMPLETED:', ...listLines(v.agentSummaries, limit, true));
  if (v.defectPatterns.length) lines.push('', 'DEFECT PATTERNS (avoid re-introducing):', ...listLines(v.defectPatterns, limit, true));
  return lines;
}

function filesToReadLines(r: ResumptionFacts, v: ResumptionView, limit: Limits): string[] {
  const files = v.filesToRead.slice(0, Math.max(1, limit.items));
  const lines = ['', 'READ THESE FILES IN ORDER:'];
  if (files.length === 0)
    lines.push(`1. [PRIORITY 1] ${clip(r.orchestrationPath, 300)}`, '   Sections: resumption', '   Purpose: the recorded workflow state');
  files.forEach((file, i) => {
    lines.push(`${i + 1}. [PRIORITY ${i + 1}] ${clip(file.path, 300)}`);
    if (file.sections) lines.push(`   Sections: ${clip(file.sections, limit.field)}`);
    if (file.purpose) lines.push(`   Purpose: ${quoted(clip(file.purpose, limit.field))}`);
  });
  return lines;
}

function closingLines(v: ResumptionView): string[] {
  return [
    '',
    'AFTER READING:',
    '1. Confirm you understand the current workflow state',
    '2. Identify what phase/step to continue from',
    `3. Proceed with ${v.nextStep === undefined ? 'the next step you identified' : 'the NEXT ACTION recorded above, if it still fits what the user asks'}`,
    '',
    'Do NOT re-read artifacts from completed phases unless specifically needed for the current',
    'task. Minimize context consumption: you are resuming mid-workflow and context budget is limited.',
  ];
}

/** The orchestration file's compaction count as a number (0 when absent or not a count). */
function countOf(text: string | undefined): number {
  return text !== undefined && /^\d{1,6}$/.test(text.trim()) ? Number(text.trim()) : 0;
}
