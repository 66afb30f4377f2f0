/**
 * A typed, display-ready view of ORCHESTRATION.yaml's `resumption:` section
 * (seed 003's variables). The YAML is written by a model and can hold
 * anything, so every field is coerced to short single-line text or dropped.
 */

import { sanitizeText } from './sanitize.js';
import { asRecord } from './json-shape.js';

export type Decision = { id: string | undefined; text: string; impact: string | undefined };
export type FileToRead = { path: string; sections: string | undefined; purpose: string | undefined };

export type ResumptionView = {
  workflowId?: string | undefined;
  projectId?: string | undefined;
  planFile?: string | undefined;
  currentPhase?: string | undefined;
  currentPhaseName?: string | undefined;
  workflowStatus?: string | undefined;
  currentActivity?: string | undefined;
  lastCheckpoint?: string | undefined;
  contextFillAtUpdate?: string | undefined;
  compactionCount?: string | undefined;
  nextStep?: string | undefined;
  criticalContext?: string | undefined;
  gatesCompleted?: string | undefined;
  gatesRemaining?: string | undefined;
  currentGate?: string | undefined;
  currentGateIteration?: string | undefined;
  lastGateScore?: string | undefined;
  lowestDimension?: string | undefined;
  /** Decisions not yet applied (seed 003: `applied: false`), the ones a resuming model must carry. */
  pendingDecisions: Decision[];
  decisions: Decision[];
  agentSummaries: string[];
  defectPatterns: string[];
  filesToRead: FileToRead[];
  /** Files being changed when the state was written (`files_in_flight`), which a summary must not lose. */
  filesInFlight: string[];
  updatedAt?: string | undefined;
};

/** Longest single value kept from the YAML before templates trim further. */
const MAX_FIELD = 2_000;
const MAX_ITEMS = 50;

export function viewResumption(resumption: unknown, header?: unknown): ResumptionView {
  const r = asRecord(resumption) ?? {};
  const h = asRecord(header) ?? {};
  const quality = asRecord(r.quality_trajectory) ?? {};
  const currentGate = text(quality.current_gate);
  const decisions = list(r.decisions)
    .map(toDecision)
    .filter((d): d is Decision & { applied: boolean } => d !== undefined);
  return {
    workflowId: text(h.workflow_id) ?? text(r.workflow_id),
    projectId: text(h.project_id) ?? text(r.project_id),
    planFile: text(h.plan_file) ?? text(r.plan_file),
    currentPhase: text(r.current_phase),
    currentPhaseName: text(r.current_phase_name),
    workflowStatus: text(r.workflow_status),
    currentActivity: text(r.current_activity),
    lastCheckpoint: text(r.last_checkpoint),
    contextFillAtUpdate: text(r.context_fill_at_update),
    compactionCount: text(asRecord(r.compaction_events)?.count),
    nextStep: text(r.next_step) ?? text(r.next_action),
    criticalContext: text(r.critical_context) ?? text(asRecord(r.recovery_instructions)?.critical_context),
    gatesCompleted: text(quality.gates_completed),
    gatesRemaining: text(quality.gates_remaining),
    currentGate,
    currentGateIteration: text(quality.current_gate_iteration),
    lastGateScore: text(quality.last_score) ?? lastScore(quality.score_history, currentGate),
    lowestDimension: text(quality.lowest_dimension),
    pendingDecisions: decisions.filter((d) => !d.applied).map(stripApplied),
    decisions: decisions.map(stripApplied),
    agentSummaries: summaries(r.agent_summaries),
    defectPatterns: list(asRecord(r.defect_summary)?.recurring_patterns).map(describeItem).filter(isText),
    filesToRead: list(r.files_to_read)
      .map(toFile)
      .filter((f): f is FileToRead => f !== undefined),
    filesInFlight: list(r.files_in_flight ?? r.files_in_progress)
      .map((item) => toFile(item)?.path)
      .filter(isText),
    updatedAt: text(r.updated_at),
  };
}

/** True when the view carries anything a template can show. */
export function hasResumptionState(view: ResumptionView): boolean {
  return Object.entries(view).some(([, value]) => (Array.isArray(value) ? value.length > 0 : value !== undefined));
}

/**
 * Scalars as single-line text; lists of scalars joined; then sanitised
 * (sanitize.ts), so YAML content can never close or open one of our tags.
 */
export function text(value: unknown): string | undefined {
  let out: string | undefined;
  if (typeof value === 'string') out = value;
  else if (typeof value === 'number' && Number.isFinite(value)) out = String(value);
  else if (typeof value === 'boolean') out = String(value);
  else if (value instanceof Date && !Number.isNaN(value.getTime())) out = value.toISOString();
  else if (Array.isArray(value) && value.length > 0 && value.every((v) => ['string', 'number', 'boolean'].includes(typeof v)))
    out = value.slice(0, MAX_ITEMS).join(', ');
  if (out === undefined) return undefined;
  const clean = sanitizeText(out.length > MAX_FIELD * 4 ? out.slice(0, MAX_FIELD * 4) : out);
  return clean.length === 0 ? undefined : clean.slice(0, MAX_FIELD);
}

function toDecision(value: unknown): (Decision & { applied: boolean }) | undefined {
  const plain = text(value);
  if (plain !== undefined) return { id: undefined, text: plain, impact: undefined, applied: false };
  const d = asRecord(value);
  if (!d) return undefined;
  const body = text(d.decision) ?? text(d.summary) ?? text(d.title) ?? text(d.description) ?? text(d.text);
  if (body === undefined) return undefined;
  return { id: text(d.id), text: body, impact: text(d.impact) ?? text(d.phase_impact) ?? text(d.affects), applied: d.applied === true };
}

function stripApplied(decision: Decision & { applied: boolean }): Decision {
  return { id: decision.id, text: decision.text, impact: decision.impact };
}

function toFile(value: unknown): FileToRead | undefined {
  const plain = text(value);
  if (plain !== undefined) return { path: plain, sections: undefined, purpose: undefined };
  const f = asRecord(value);
  const path = f && text(f.path);
  if (!f || !path) return undefined;
  return { path, sections: text(f.sections), purpose: text(f.purpose) };
}

/** agent_summaries as a list of strings, a list of {agent, summary}, or a map agent → summary. */
function summaries(value: unknown): string[] {
  if (Array.isArray(value)) return value.slice(0, MAX_ITEMS).map(describeItem).filter(isText);
  const map = asRecord(value);
  if (!map) return [];
  return Object.entries(map)
    .slice(0, MAX_ITEMS)
    .map(([agent, summary]) => {
      const body = text(summary) ?? describeItem(summary);
      return body ? `${text(agent) ?? agent}: ${body}` : undefined;
    })
    .filter(isText);
}

function describeItem(value: unknown): string | undefined {
  const plain = text(value);
  if (plain !== undefined) return plain;
  const item = asRecord(value);
  if (!item) return undefined;
  const name = text(item.agent) ?? text(item.name) ?? text(item.id) ?? text(item.pattern);
  const body = text(item.summary) ?? text(item.description) ?? text(item.status) ?? text(item.result);
  if (name && body) return `${name}: ${body}`;
  return name ?? body;
}

function lastScore(history: unknown, gate: string | undefined): string | undefined {
  const map = asRecord(history);
  const scores = map && gate !== undefined ? map[gate] : history;
  return Array.isArray(scores) && scores.length > 0 ? text(scores[scores.length - 1]) : undefined;
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value.slice(0, MAX_ITEMS) : [];
}

function isText(value: string | undefined): value is string {
  return value !== undefined;
}
