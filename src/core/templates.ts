/**
 * The text injected into the model's context: <context-monitor>,
 * <compaction-alert> (seed 003 Template 2), <resumption-context> (Template 1)
 * and the resumption staleness warning. Each has a token budget (chars / 4);
 * free-text fields are trimmed to fit, structured fields are kept. Every
 * field from a file passes through clip(), which sanitises it (sanitize.ts).
 */
import { describeAutocompact, type AutocompactPoint } from './autocompact.js';
import type { Checkpoint } from './checkpoint.js';
import { TOKEN_BUDGET } from './constants.js';
import { formatPercent, formatTokens, STATE_THE_WINDOW, WINDOW_PROVEN_WRONG } from './messages.js';
import type { Occupancy } from './occupancy.js';
import { viewResumption, hasResumptionState, type ResumptionView } from './resumption.js';
import { sanitizeText } from './sanitize.js';
import type { Tier } from './tiers.js';
import type { ResolvedWindow } from './window.js';

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

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
  const lines: string[] = [];
  if (f.occupancy.kind === 'unknown-since-compaction') {
    lines.push(`Context unknown since compaction: Claude Code compacted this session and no turn has reported usage since. Tier UNKNOWN; ceiling ${f.ceilingPct}% of ${size} tokens (window: ${f.window.source}).`);
  } else if (f.occupancy.kind === 'unavailable' || f.percent === undefined) {
    lines.push(`Context not measured yet (no assistant turn with usage in the transcript). Ceiling ${f.ceilingPct}% of ${size} tokens (window: ${f.window.source}).`);
  } else if (f.occupancy.tokens > f.window.tokens) {
    lines.push(`Context ${formatTokens(f.occupancy.tokens)} tokens exceeds the assumed ${size}-token window (${f.window.source}), ${WINDOW_PROVEN_WRONG} and no tier applies; the user should state it: ${STATE_THE_WINDOW}.`);
  } else {
    const head = `Context ${formatPercent(f.percent)} (${formatTokens(f.occupancy.tokens)} of ${size} tokens, window: ${f.window.source}).`;
    if (f.tier === 'NOMINAL') lines.push(`${head} Tier NOMINAL; ceiling ${f.ceilingPct}%.`);
    else if (f.tier === 'LOW') lines.push(`${head} Tier LOW: over the ${f.ceilingPct}% ceiling. Load no new agents or skills; run /${f.recoverySkill} when the current step is done.`);
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
      ...(a.lead?.length ? ['', ...a.lead] : []),
    ];
    if (a.eventCount > 1) lines.push(`COMPACTION EVENT: ${a.eventNumber} of ${a.eventCount} this session`);
    lines.push('', `CHECKPOINT: ${clip(a.checkpointPath, 300)}`, `TRIGGER: ${clip(c.trigger.type, 40)} (PreCompact hook)${c.trigger.customInstructions ? `, instructions: ${clip(flatten(c.trigger.customInstructions), limit.field)}` : ''}`);
    lines.push(`PRE-COMPACTION FILL: ${describeFill(c)}`);
    if (hasState) {
      const doing = describeDoing(view, limit.field);
      if (doing) lines.push('', `YOU WERE DOING: ${doing}`);
      if (view.lastGateScore) lines.push(`LAST SCORE: ${view.lastGateScore}${view.currentGate ? ` (${view.currentGate}${view.currentGateIteration ? `, iteration ${view.currentGateIteration}` : ''})` : ''}`);
      if (view.criticalContext) lines.push('', 'CRITICAL CONTEXT:', clip(view.criticalContext, limit.field));
      if (view.pendingDecisions.length > 0) lines.push('', 'PENDING DECISIONS:', ...listLines(view.pendingDecisions.map(describeDecision), limit));
    } else {
      lines.push('', `No resumption state was recorded (${describeOrchestration(c)}).`);
    }
    lines.push('', 'IMMEDIATE ACTIONS:', `1. Read checkpoint file: ${clip(a.checkpointPath, 300)}`);
    if (hasState || c.orchestration.status !== 'missing') {
      lines.push(`2. Read the ${basename(a.orchestrationPath)} resumption section: ${clip(a.orchestrationPath, 300)}`, '3. Merge checkpoint data into the resumption section if the checkpoint is newer');
      lines.push(`4. Continue from: ${view.nextStep ? clip(view.nextStep, limit.field) : 'the resumption section\'s next_step'}`);
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

// ---------------------------------------------------------------- <resumption-context>

export type ResumptionFacts = {
  checkpoint: Checkpoint | undefined;
  checkpointPath: string;
  orchestrationPath: string;
  /** Checkpoints the earlier session wrote (its compaction count). */
  sessionCompactions: number;
  /** Lines placed before the closing instructions: the summary kept at compaction (compaction-text.ts). */
  appendix?: string[] | undefined;
};

export function renderResumptionContext(r: ResumptionFacts): string {
  const budget = TOKEN_BUDGET.resumptionContext * 4;
  const c = r.checkpoint;
  if (!c) {
    return hardCut(
      wrap('resumption-context', [
        `An earlier session of this project was compacted, but its checkpoint could not be read: ${clip(r.checkpointPath, 300)}`,
        `Before continuing its work, read the resumption section of ${clip(r.orchestrationPath, 300)} if it exists, and ask the user what to continue if it is unclear.`,
        ...(r.appendix ?? []),
      ]),
      budget,
    );
  }
  if (!hasResumptionState(viewResumption(c.orchestration.resumption, c.orchestration.header))) {
    return hardCut(
      wrap('resumption-context', [
        `An earlier session of this project was compacted (${clip(c.trigger.type, 40)}, ${clip(c.timestamp, 40) || 'time unknown'}) at context fill ${describeFill(c)}.`,
        `No resumption state was recorded (${describeOrchestration(c)}). Checkpoint: ${clip(r.checkpointPath, 300)}`,
        ...(r.appendix ?? []),
        'Do not assume the earlier work is finished: ask the user what to continue before starting.',
      ]),
      budget,
    );
  }
  const v = viewResumption(c.orchestration.resumption, c.orchestration.header);
  return fitToBudget(budget, 'resumption-context', (limit) => {
    const f = (value: string | undefined) => (value === undefined ? undefined : clip(value, limit.field));
    const lines = [
      'You are resuming a workflow that was interrupted. Do NOT start over. Continue from the exact',
      'point of interruption using the persistent state below.',
      '',
    ];
    const ids = [v.workflowId && `WORKFLOW: ${clip(v.workflowId, 120)}`, v.projectId && `PROJECT: ${clip(v.projectId, 120)}`].filter(Boolean);
    if (ids.length) lines.push(ids.join('  '));
    if (v.planFile) lines.push(`ORCHESTRATION PLAN: ${clip(v.planFile, 300)}`);
    lines.push(`CHECKPOINT: ${clip(r.checkpointPath, 300)} (${clip(c.timestamp, 40) || 'time unknown'}, ${clip(c.trigger.type, 40)} compaction)`, '');
    lines.push('RECOVERY STATE:');
    const phase = v.currentPhase ? `Phase ${clip(v.currentPhase, 60)}${v.currentPhaseName ? ` (${f(v.currentPhaseName)})` : ''}` : undefined;
    pushField(lines, '- Current phase: ', phase);
    pushField(lines, '- Workflow status: ', f(v.workflowStatus));
    pushField(lines, '- Last activity: ', f(v.currentActivity));
    pushField(lines, '- Last checkpoint: ', f(v.lastCheckpoint));
    lines.push(`- Context fill at interruption: ${describeFill(c)}`);
    lines.push(`- Compaction events in previous session: ${v.compactionCount ?? r.sessionCompactions}`);
    lines.push('', `NEXT ACTION: ${f(v.nextStep) ?? 'not recorded: read the resumption section and ask the user if unclear'}`);
    const quality = [
      v.gatesCompleted && `- Gates completed: ${f(v.gatesCompleted)}`,
      v.gatesRemaining && `- Gates remaining: ${f(v.gatesRemaining)}`,
      v.currentGate && `- Current gate: ${clip(v.currentGate, 60)}${v.currentGateIteration ? ` (iteration ${clip(v.currentGateIteration, 20)})` : ''}`,
      v.lastGateScore && `- Last gate score: ${clip(v.lastGateScore, 40)}`,
      v.lowestDimension && `- Recurring weak dimension: ${f(v.lowestDimension)}`,
    ].filter((line): line is string => Boolean(line));
    if (quality.length) lines.push('', 'QUALITY TRAJECTORY:', ...quality);
    if (v.decisions.length) lines.push('', 'KEY DECISIONS (carry forward):', ...listLines(v.decisions.map(describeDecision), limit));
    if (v.agentSummaries.length) lines.push('', 'AGENT WORK COMPLETED:', ...listLines(v.agentSummaries, limit));
    if (v.defectPatterns.length) lines.push('', 'DEFECT PATTERNS (avoid re-introducing):', ...listLines(v.defectPatterns, limit));
    const files = v.filesToRead.slice(0, Math.max(1, limit.items));
    lines.push('', 'READ THESE FILES IN ORDER:');
    if (files.length === 0) lines.push(`1. [PRIORITY 1] ${clip(r.orchestrationPath, 300)}`, '   Sections: resumption', '   Purpose: the recorded workflow state');
    files.forEach((file, i) => {
      lines.push(`${i + 1}. [PRIORITY ${i + 1}] ${clip(file.path, 300)}`);
      if (file.sections) lines.push(`   Sections: ${clip(file.sections, limit.field)}`);
      if (file.purpose) lines.push(`   Purpose: ${clip(file.purpose, limit.field)}`);
    });
    if (r.appendix?.length) lines.push('', ...r.appendix);
    lines.push(
      '',
      'AFTER READING:',
      '1. Confirm you understand the current workflow state',
      '2. Identify what phase/step to continue from',
      `3. Proceed with: ${f(v.nextStep) ?? 'the next step you identified'}`,
      '',
      'Do NOT re-read artifacts from completed phases unless specifically needed for the current',
      'task. Minimize context consumption: you are resuming mid-workflow and context budget is limited.',
    );
    return lines;
  });
}

// ---------------------------------------------------------------- staleness

export type StalenessFacts =
  | { kind: 'fresh' }
  | { kind: 'unparseable'; error: string }
  | { kind: 'no-resumption' }
  | { kind: 'no-updated-at' }
  | { kind: 'bad-updated-at'; value: string }
  | { kind: 'stale'; updatedAt: string; ageMinutes: number; staleMinutes: number };

/** Judge resumption.updated_at against `now`. Pure: the parsed YAML and the clock come in. */
export function judgeStaleness(resumption: unknown, now: Date, staleMinutes: number): StalenessFacts {
  if (typeof resumption !== 'object' || resumption === null || Array.isArray(resumption)) return { kind: 'no-resumption' };
  const raw = (resumption as Record<string, unknown>).updated_at;
  if (raw === undefined || raw === null || raw === '') return { kind: 'no-updated-at' };
  const time = raw instanceof Date ? raw.getTime() : typeof raw === 'string' ? Date.parse(raw) : Number.NaN;
  if (!Number.isFinite(time)) return { kind: 'bad-updated-at', value: String(raw).slice(0, 80) };
  const ageMinutes = Math.floor((now.getTime() - time) / 60_000);
  if (ageMinutes <= staleMinutes) return { kind: 'fresh' };
  return { kind: 'stale', updatedAt: new Date(time).toISOString(), ageMinutes, staleMinutes };
}

export function renderStaleness(s: StalenessFacts, fileName: string): string | undefined {
  const file = clip(fileName, 120);
  const fix = `Update the resumption section (current_phase, current_activity, next_step, decisions) and set resumption.updated_at to the current time (ISO 8601), so a compaction or a new session can resume from it.`;
  switch (s.kind) {
    case 'fresh':
      return undefined;
    case 'unparseable':
      return `context-ceiling: ${file} was just written but is not valid YAML (${clip(flatten(s.error), 200)}). Fix it: checkpoints cannot record its resumption section until it parses.`;
    case 'no-resumption':
      return `context-ceiling: ${file} was just written but has no resumption: section. ${fix}`;
    case 'no-updated-at':
      return `context-ceiling: ${file} was just written but resumption.updated_at is missing. ${fix}`;
    case 'bad-updated-at':
      return `context-ceiling: ${file} was just written but resumption.updated_at ("${clip(s.value, 80)}") is not a timestamp. ${fix}`;
    case 'stale':
      return `context-ceiling: ${file} was just written but its resumption section was last updated ${describeAge(s.ageMinutes)} ago (updated_at ${s.updatedAt}; stale after ${s.staleMinutes} min). ${fix}`;
  }
}

// ---------------------------------------------------------------- helpers

type Limits = { field: number; items: number };

/** Render with generous limits, then trim free text and lists until the text fits `budget` characters. */
function fitToBudget(budget: number, tag: string, render: (limit: Limits) => string[]): string {
  const limit: Limits = { field: 600, items: 8 };
  for (;;) {
    const text = wrap(tag, render(limit));
    if (text.length <= budget) return text;
    if (limit.field > 60) limit.field = Math.floor(limit.field * 0.7);
    else if (limit.items > 1) limit.items -= 1;
    else return hardCut(text, budget);
  }
}

/** Last resort: cut the text so it ends with its closing tag within `budget` characters. */
function hardCut(text: string, budget: number): string {
  if (text.length <= budget) return text;
  const close = text.slice(text.lastIndexOf('\n</'));
  return `${text.slice(0, budget - close.length - 1).trimEnd()}…${close}`;
}

/** Fields are sanitised on their way in; the last guard keeps any `<` that could start a tag out of the body all the same. */
function wrap(tag: string, lines: string[]): string {
  return `<${tag}>\n${lines.join('\n').replace(/<(?=[\s/!?A-Za-z])/g, '‹')}\n</${tag}>`;
}

function listLines(items: string[], limit: Limits): string[] {
  const shown = items.slice(0, limit.items).map((item) => `- ${clip(item, limit.field)}`);
  if (items.length > limit.items) shown.push(`- (${items.length - limit.items} more in the resumption section)`);
  return shown;
}

function pushField(lines: string[], label: string, value: string | undefined): void {
  if (value !== undefined) lines.push(`${label}${value}`);
}

/** Sanitise, then cut to `limit` characters. */
function clip(raw: string, limit: number): string {
  const text = sanitizeText(raw.length > limit * 4 ? raw.slice(0, limit * 4) : raw);
  return text.length <= limit ? text : `${text.slice(0, Math.max(1, limit - 1)).trimEnd()}…`;
}

function flatten(text: string): string {
  return sanitizeText(text);
}

function describeDecision(d: { id: string | undefined; text: string; impact: string | undefined }): string {
  const sentence = d.impact && !/[.!?]$/.test(d.text) ? `${d.text}.` : d.text;
  return `${d.id ? `${d.id}: ` : ''}${sentence}${d.impact ? ` Affects ${d.impact}.` : ''}`;
}

function describeDoing(v: ResumptionView, limit: number): string | undefined {
  const phase = v.currentPhase ? `Phase ${clip(v.currentPhase, 60)}${v.currentPhaseName ? ` (${clip(v.currentPhaseName, limit)})` : ''}` : undefined;
  const parts = [phase, v.currentActivity && clip(v.currentActivity, limit)].filter(Boolean);
  return parts.length ? parts.join(', ') : undefined;
}

export function describeFill(c: Checkpoint): string {
  const { occupancy, percent, window, windowSource, state } = c.context;
  if (occupancy === null || percent === null) return state === 'unknown-since-compaction' ? 'unknown (no turn since the previous compaction)' : 'unknown (not measured)';
  const source = clip(windowSource, 80);
  if (occupancy > window) return `${formatTokens(occupancy)} tokens, more than the ${formatTokens(window)}-token window (${source}), which is therefore wrong`;
  return `${formatPercent(percent)} (${formatTokens(occupancy)} of ${formatTokens(window)} tokens, window: ${source}), tier ${clip(c.context.tier, 20)}`;
}

function describeOrchestration(c: Checkpoint): string {
  const file = basename(c.orchestration.path) || 'the orchestration file';
  if (c.orchestration.status === 'missing') return `no ${file} in the project`;
  if (c.orchestration.status === 'unavailable') return `${file} could not be used: ${clip(flatten(c.orchestration.error ?? 'unknown error'), 160)}`;
  return `${file}: ${c.orchestration.error ? clip(c.orchestration.error, 160) : 'its resumption section is empty'}`;
}

function describeAge(minutes: number): string {
  if (minutes < 120) return `${minutes} min`;
  if (minutes < 48 * 60) return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
  return `${Math.floor(minutes / 1440)} days`;
}

function basename(path: string): string {
  return clip(path.slice(path.lastIndexOf('/') + 1), 120);
}
