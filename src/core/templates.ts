/**
 * The text injected into the model's context: <context-monitor> and
 * <compaction-alert> (seed 003 Template 2). <resumption-context> is in
 * resumption-template.ts, the staleness warning in staleness.ts; the budget and
 * clipping they share in template-kit.ts.
 */
import { describeAutocompact, type AutocompactPoint } from './autocompact.js';
import type { Checkpoint } from './checkpoint.js';
import { TOKEN_BUDGET } from './limits.js';
import { describeWindowSource, formatPercent, formatTokens, STATE_THE_WINDOW, WINDOW_PROVEN_WRONG } from './messages.js';
import type { Occupancy } from './occupancy.js';
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
} from './template-kit.js';
import type { Tier } from './tiers.js';
import type { ResolvedWindow } from './window.js';

export { describeFill, estimateTokens } from './template-kit.js';

// ---------------------------------------------------------------- <context-monitor>

export type MonitorFacts = {
  occupancy: Occupancy;
  percent: number | undefined;
  tier: Tier;
  window: ResolvedWindow;
  ceilingPct: number;
  recoverySkill: string;
  /** File name of the orchestration file, as the model should know it. */
  orchestrationFile: string;
  /** Where Claude Code itself will compact, when its knobs set a point. */
  autocompact?: AutocompactPoint | undefined;
};

const MONITOR_ACTIONS: Partial<Record<Tier, (f: MonitorFacts) => string[]>> = {
  WARNING: (f) => [
    `Update the resumption section of ${f.orchestrationFile} (next_step, decisions, updated_at).`,
    `Run /${f.recoverySkill} before loading any agent or skill.`,
    'Prefer targeted reads (line ranges, grep) over whole files.',
  ],
  CRITICAL: (f) => [
    `Checkpoint now: write the resumption section of ${f.orchestrationFile} (next_step, decisions, updated_at).`,
    `Run /${f.recoverySkill} now; finish the current step before starting anything new.`,
    'Load no agents or skills.',
  ],
  EMERGENCY: (f) => [
    `Preserve state immediately: write next_step, open decisions and updated_at to the resumption section of ${f.orchestrationFile}.`,
    `Then run /${f.recoverySkill}. Start no new work; load no agents or skills.`,
  ],
};

export function renderMonitor(facts: MonitorFacts): string {
  // Both come from the project's policy file: text from outside like any other.
  const f = { ...facts, recoverySkill: clip(facts.recoverySkill, 80), orchestrationFile: clip(facts.orchestrationFile, 120) };
  const size = formatTokens(f.window.tokens);
  const from = describeWindowSource(f.window);
  const lines: string[] = [];
  if (f.occupancy.kind === 'unknown-since-compaction') {
    lines.push(
      `Context unknown since compaction: Claude Code compacted this session and no turn has reported usage since. Tier UNKNOWN; ceiling ${f.ceilingPct}% of ${size} tokens (window: ${from}).`,
    );
  } else if (f.occupancy.kind === 'unavailable' || f.percent === undefined) {
    lines.push(
      `Context not measured yet (no assistant turn with usage in the transcript). Ceiling ${f.ceilingPct}% of ${size} tokens (window: ${from}).`,
    );
  } else if (f.occupancy.tokens > f.window.tokens) {
    lines.push(
      `Context ${formatTokens(f.occupancy.tokens)} tokens exceeds the ${size}-token window (${from}), ${WINDOW_PROVEN_WRONG} and no tier applies; the user should state it: ${STATE_THE_WINDOW}.`,
    );
  } else {
    const head = `Context ${formatPercent(f.percent)} (${formatTokens(f.occupancy.tokens)} of ${size} tokens, window: ${from}).`;
    if (f.tier === 'NOMINAL') lines.push(`${head} Tier NOMINAL; ceiling ${f.ceilingPct}%.`);
    else if (f.tier === 'LOW')
      lines.push(
        `${head} Tier LOW: over the ${f.ceilingPct}% ceiling. Load no new agents or skills; run /${f.recoverySkill} when the current step is done.`,
      );
    else {
      lines.push(`${head} Tier ${f.tier}${f.tier === 'EMERGENCY' ? ': compaction is imminent' : ''} (ceiling ${f.ceilingPct}%).`);
      lines.push('Recommended actions:', ...(MONITOR_ACTIONS[f.tier]?.(f) ?? []).map((action) => `- ${action}`));
    }
  }
  if (f.autocompact !== undefined) lines.push(describeAutocompact(f.autocompact, f.window.tokens));
  const calm = f.tier === 'NOMINAL' || f.tier === 'LOW' || f.tier === 'UNKNOWN';
  return hardCut(wrap('context-monitor', lines), (calm ? TOKEN_BUDGET.monitorCalm : TOKEN_BUDGET.monitorAlarm) * 4);
}

// ---------------------------------------------------------------- <compaction-alert>

export type AlertFacts = {
  /** The checkpoint as read back, or undefined when its file was corrupt. */
  checkpoint: Checkpoint | undefined;
  /** How the checkpoint file should be named to the model (project-relative when possible). */
  checkpointPath: string;
  /** Orchestration file path to name in the actions (project-relative when possible). */
  orchestrationPath: string;
  /** "COMPACTION EVENT k of n": this checkpoint's position among the session's checkpoints. */
  eventNumber: number;
  eventCount: number;
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

function genericAlertLines(a: AlertFacts): string[] {
  return [
    'CONTEXT COMPACTION OCCURRED. Some conversation history was compressed by Claude Code.',
    `The checkpoint written at compaction could not be read (${clip(a.checkpointPath, 300)}).`,
    ...(a.eventCount > 1 ? [`COMPACTION EVENT: ${a.eventNumber} of ${a.eventCount} this session`] : []),
    '',
    'IMMEDIATE ACTIONS:',
    `1. Read the ${basename(a.orchestrationPath)} resumption section if the project has one: ${clip(a.orchestrationPath, 300)}`,
    '2. Re-read the files you were changing before going on',
    '3. If the next step is unclear, ask the user',
  ];
}
