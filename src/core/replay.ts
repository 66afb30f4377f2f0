/**
 * Calibration: replay recorded sessions against candidate ceilings. A session
 * is the main thread's timeline (turns, gated calls, compactions); the guard
 * is evaluated at every recorded Agent/Task/Skill call, because a ceiling only
 * matters where it would have gated something.
 */
import { describeCall, judgeCall, type Verdict } from './ceiling.js';
import { describeAssumption } from './guard-text.js';
import { classifyModelAttachment } from './model-attachment.js';
import { classifyRecord } from './occupancy.js';
import type { Policy } from './policy.js';
import type { ResolvedWindow } from './window.js';

export type TimelineEvent =
  | { kind: 'turn'; tokens: number; output: number }
  | { kind: 'call'; tool: string; target: string | undefined; tokens: number }
  | { kind: 'compaction'; postTokens: number | undefined };

export type TimelineCall = Extract<TimelineEvent, { kind: 'call' }>;

/** Builds one session's timeline from its records, in file order; `gated` names the tools whose calls are kept. */
export class TimelineBuilder {
  readonly events: TimelineEvent[] = [];
  /** The model of the newest main-thread turn: what the session's window is looked up by. */
  model: string | undefined;
  /** The newest model attachment's id: it keeps the `[1m]` of a 1M variant (core/model-attachment.ts). */
  attachmentModel: string | undefined;
  private lastMessageId: string | undefined;

  constructor(private readonly gated: ReadonlySet<string>) {}

  add(record: unknown): void {
    const evidence = classifyRecord(record);
    if (!evidence) {
      this.attachmentModel = classifyModelAttachment(record) ?? this.attachmentModel;
      return;
    }
    if (evidence.kind === 'compaction') {
      this.events.push({ kind: 'compaction', postTokens: evidence.postTokens });
      this.lastMessageId = undefined;
      return;
    }
    if (evidence.model !== undefined) this.model = evidence.model;
    const message = (record as { message: Record<string, unknown> }).message;
    const id = typeof message.id === 'string' ? message.id : undefined;
    // One response split over several lines repeats its usage: one turn, whose calls may sit on any of the lines.
    if (id === undefined || id !== this.lastMessageId) {
      const usage = message.usage as Record<string, unknown>;
      const output =
        typeof usage.output_tokens === 'number' && Number.isFinite(usage.output_tokens) && usage.output_tokens > 0
          ? usage.output_tokens
          : 0;
      this.events.push({ kind: 'turn', tokens: evidence.tokens, output });
      this.lastMessageId = id;
    }
    if (!Array.isArray(message.content)) return;
    for (const block of message.content as Array<Record<string, unknown>>) {
      if (block?.type !== 'tool_use' || typeof block.name !== 'string' || !this.gated.has(block.name)) continue;
      const { target } = describeCall(block.name, block.input);
      this.events.push({ kind: 'call', tool: block.name, target, tokens: evidence.tokens });
    }
  }
}

/** The tools a timeline must record for the guard to judge: every tool the policy names, whatever its action. */
export function recordedTools(policy: Pick<Policy, 'tools'>): Set<string> {
  return new Set(Object.keys(policy.tools));
}

/**
 * The guard's own verdict on a recorded call (judgeCeiling, as PreToolUse
 * runs it), so calibration counts exactly what the guard would have gated.
 */
export function judgeTimelineCall(call: TimelineCall, policy: Policy, window: ResolvedWindow): Verdict {
  return judgeCall({ tool: call.tool, target: call.target }, policy, () => ({
    occupancy: { kind: 'measured', tokens: call.tokens, source: 'usage' },
    window,
  }));
}

/** False for calls the guard does not judge at all: disabled, a tool it does not gate, a recovery skill. */
export function isJudgedCall(verdict: Verdict): boolean {
  return verdict.messageId !== 'disabled' && verdict.messageId !== 'not-gated' && verdict.messageId !== 'recovery-skill';
}

export type CeilingOutcome = {
  /** The first call the guard would have warned about or blocked: its position among the session's judged calls, tool and percent. */
  first: { callNumber: number; tool: string; percent: number; turn: number } | undefined;
  /** Calls the guard would have warned about or blocked, by tool. */
  gatedByTool: Record<string, number>;
  /** Of those, the ones it would have blocked. */
  blockedByTool: Record<string, number>;
  turnsAfterFirst: number;
  tokensAfterFirst: number;
};

export type SessionAnalysis = {
  turns: number;
  calls: number;
  compactions: number;
  peakPercent: number | undefined;
  /** The window the session's peak was judged against. */
  window: ResolvedWindow;
  byCeiling: Record<number, CeilingOutcome>;
};

/**
 * The policy as configured (each candidate ceiling replaces its `ceilingPct`), and the session's window
 * as the guard would have resolved it when the session had held `heldTokens` (a session that outgrew a
 * window proved it wrong from then on, as the guard's kept evidence does).
 */
export type ReplayRules = { window: (heldTokens: number) => ResolvedWindow; ceilings: readonly number[]; policy: Policy };

export function analyzeSession(events: readonly TimelineEvent[], rules: ReplayRules): SessionAnalysis {
  const { calls, windows, turns, compactions, peakTokens } = collectCalls(events, rules.window);
  const sweep = judgeSweep(calls, windows, rules);
  const window = rules.window(Math.max(0, peakTokens));
  const peak = peakTokens < 0 ? undefined : (peakTokens / window.tokens) * 100;
  const byCeiling: Record<number, CeilingOutcome> = {};
  rules.ceilings.forEach((ceiling, c) => {
    byCeiling[ceiling] = outcomeAt(events, sweep, c);
  });
  return { turns, calls: sweep.judged, compactions, peakPercent: peak, window, byCeiling };
}

/**
 * One walk over the timeline: its calls in order, the window at each (from what the session had held by then;
 * resolved again only when that changed, since windowFor is pure), and the counts analyzeSession reports.
 */
function collectCalls(events: readonly TimelineEvent[], windowFor: ReplayRules['window']) {
  const calls: TimelineCall[] = [];
  const windows: ResolvedWindow[] = [];
  let turns = 0;
  let compactions = 0;
  let peakTokens = -1;
  let held = 0;
  let heldWindow: { held: number; window: ResolvedWindow } | undefined;
  for (const e of events) {
    if (e.kind === 'compaction') {
      compactions += 1;
      continue;
    }
    held = Math.max(held, e.tokens);
    if (e.kind === 'turn') {
      turns += 1;
      peakTokens = Math.max(peakTokens, e.tokens);
      continue;
    }
    if (heldWindow?.held !== held) heldWindow = { held, window: windowFor(held) };
    calls.push(e);
    windows.push(heldWindow.window);
  }
  return { calls, windows, turns, compactions, peakTokens };
}

/**
 * The guard's verdicts the sweep needs, from its one call site here: for each call, whether the guard judges it at
 * all (at the policy as configured), and for each judged call its verdict at every candidate ceiling (the policy's
 * `ceilingPct` replaced). `verdicts[c][i]` is call i's verdict at ceiling c, undefined for a call not judged.
 */
type Sweep = {
  calls: readonly TimelineCall[];
  judged: number;
  verdicts: ReadonlyArray<ReadonlyArray<Verdict | undefined>>;
  /** The call's position among the judged calls (1-based), 0 for one not judged. */
  callNumbers: readonly number[];
};

function judgeSweep(calls: readonly TimelineCall[], windows: readonly ResolvedWindow[], rules: ReplayRules): Sweep {
  // The candidate that is the configured ceiling is the policy as configured: its verdict is the first one, not judged twice.
  const policies = [
    rules.policy,
    ...rules.ceilings.map((ceiling) => (ceiling === rules.policy.ceilingPct ? rules.policy : { ...rules.policy, ceilingPct: ceiling })),
  ];
  const verdicts = rules.ceilings.map(() => new Array<Verdict | undefined>(calls.length));
  const callNumbers = new Array<number>(calls.length).fill(0);
  let judged = 0;
  for (let i = 0; i < calls.length; i++) {
    const call = calls[i]!;
    const first = judgeTimelineCall(call, rules.policy, windows[i]!);
    if (!isJudgedCall(first)) continue;
    judged += 1;
    callNumbers[i] = judged;
    for (let p = 1; p < policies.length; p++)
      verdicts[p - 1]![i] = policies[p] === rules.policy ? first : judgeTimelineCall(call, policies[p]!, windows[i]!);
  }
  return { calls, judged, verdicts, callNumbers };
}

function outcomeAt(events: readonly TimelineEvent[], sweep: Sweep, c: number): CeilingOutcome {
  const outcome: CeilingOutcome = { first: undefined, gatedByTool: {}, blockedByTool: {}, turnsAfterFirst: 0, tokensAfterFirst: 0 };
  const verdicts = sweep.verdicts[c]!;
  let turn = 0;
  let i = 0; // the index of the next call in sweep.calls: events holds them in the same order
  for (const e of events) {
    if (e.kind === 'turn') {
      turn += 1;
      if (outcome.first && turn > outcome.first.turn) {
        outcome.turnsAfterFirst += 1;
        outcome.tokensAfterFirst += e.tokens + e.output;
      }
      continue;
    }
    if (e.kind !== 'call') continue;
    const verdict = verdicts[i];
    const callNumber = sweep.callNumbers[i]!;
    i += 1;
    if (verdict === undefined || verdict.kind === 'allow') continue;
    outcome.gatedByTool[e.tool] = (outcome.gatedByTool[e.tool] ?? 0) + 1;
    if (verdict.kind === 'block') outcome.blockedByTool[e.tool] = (outcome.blockedByTool[e.tool] ?? 0) + 1;
    outcome.first ??= { callNumber, tool: e.tool, percent: verdict.data.percent!, turn };
  }
  return outcome;
}

/** A session ending within this many turns of its first gated call was nearly done: gating it there mostly annoys. */
export const NEAR_DONE_TURNS = 3;

export type CeilingSummary = {
  ceiling: number;
  sessionsGated: number;
  /** Of those, the sessions at risk (isAtRisk). */
  atRiskGated: number;
  gatedLoads: number;
  gatedByTool: Record<string, number>;
  blockedLoads: number;
  blockedByTool: Record<string, number>;
  nearDone: number;
  medianFirstCall: number | undefined;
  medianFirstPercent: number | undefined;
  medianTurnsAfterFirst: number | undefined;
  tokensAfterFirst: number;
};

export type ReplaySummary = {
  sessions: number;
  /** Which window the sessions were judged against: each distinct window and where it came from, with how many sessions. */
  windows: Array<{ tokens: number; source: string; detail: string | undefined; verified: boolean; sessions: number }>;
  sessionsWithCalls: number;
  compactions: number;
  sessionsCompacted: number;
  peak: { p50: number; p90: number; p99: number; max: number } | undefined;
  /** Sessions by peak occupancy in 10-point bands: index 0 is 0-9 %, 10 is 100 % and above. */
  peakHistogram: number[];
  ceilings: CeilingSummary[];
  /** Sessions that were compacted or peaked at AT_RISK_PCT or more: the ones a ceiling is for. */
  atRisk: number;
  /** Of those, the ones that made a call the guard judges (at any fill): none gated means all came below every candidate. */
  atRiskWithCalls: number;
  /** The ceiling this history argues for, and why (recommendCeiling). */
  recommendation: Recommendation;
};

/**
 * The rule, on the history's own numbers. A session is *at risk* when it was compacted or peaked at AT_RISK_PCT
 * or more (seed 000's WARNING). A candidate *protects* when it gates at least PROTECT_SHARE of the at-risk
 * sessions and its first gated call comes, at the median, at ROOM_PCT or less (room left to summarise).
 * `protects`: the highest candidate that protects (the later, the fewer sessions it interrupts);
 * `too-late`: none protects, so the lowest candidate that gates any at-risk session is named, with why;
 * `never`: no session was at risk or no candidate gated one, so the history does not argue for a ceiling.
 */
export type Recommendation =
  | { kind: 'protects'; ceiling: number; summary: CeilingSummary; atRisk: number }
  | { kind: 'too-late'; ceiling: number; summary: CeilingSummary; atRisk: number }
  | { kind: 'never'; ceiling: undefined; summary: undefined; atRisk: number };

export const AT_RISK_PCT = 70;
export const PROTECT_SHARE = 0.9;
export const ROOM_PCT = 50;

export function recommendCeiling(ceilings: readonly CeilingSummary[], atRisk: number): Recommendation {
  const sorted = [...ceilings].sort((a, b) => a.ceiling - b.ceiling);
  const catching = sorted.filter((c) => c.atRiskGated > 0);
  if (atRisk === 0 || catching.length === 0) return { kind: 'never', ceiling: undefined, summary: undefined, atRisk };
  const protecting = catching.filter((c) => c.atRiskGated >= PROTECT_SHARE * atRisk && (c.medianFirstPercent ?? 100) <= ROOM_PCT);
  const best = protecting[protecting.length - 1];
  if (best) return { kind: 'protects', ceiling: best.ceiling, summary: best, atRisk };
  const lowest = catching[0]!;
  return { kind: 'too-late', ceiling: lowest.ceiling, summary: lowest, atRisk };
}

export function summarize(analyses: readonly SessionAnalysis[], ceilings: readonly number[]): ReplaySummary {
  const summary = summarizeCeilings(analyses, ceilings);
  return { ...summary, recommendation: recommendCeiling(summary.ceilings, summary.atRisk) };
}

function summarizeCeilings(analyses: readonly SessionAnalysis[], ceilings: readonly number[]): ReplaySummary {
  const peaks = analyses
    .map((a) => a.peakPercent)
    .filter((p): p is number => p !== undefined)
    .sort((a, b) => a - b);
  const histogram = new Array<number>(11).fill(0);
  for (const p of peaks) histogram[Math.min(10, Math.floor(p / 10))]! += 1;
  return {
    sessions: analyses.length,
    windows: countWindows(analyses),
    sessionsWithCalls: analyses.filter((a) => a.calls > 0).length,
    compactions: analyses.reduce((sum, a) => sum + a.compactions, 0),
    sessionsCompacted: analyses.filter((a) => a.compactions > 0).length,
    peak: peaks.length
      ? { p50: quantile(peaks, 0.5), p90: quantile(peaks, 0.9), p99: quantile(peaks, 0.99), max: peaks[peaks.length - 1]! }
      : undefined,
    peakHistogram: histogram,
    atRisk: analyses.filter(isAtRisk).length,
    atRiskWithCalls: analyses.filter((a) => isAtRisk(a) && a.calls > 0).length,
    recommendation: { kind: 'never', ceiling: undefined, summary: undefined, atRisk: 0 },
    ceilings: ceilings.map((ceiling) => {
      const outcomes = analyses.map((a) => a.byCeiling[ceiling]!).filter((o) => o.first !== undefined);
      const gatedByTool = sumByTool(outcomes.map((o) => o.gatedByTool));
      const blockedByTool = sumByTool(outcomes.map((o) => o.blockedByTool));
      const sorted = (values: number[]) => values.sort((a, b) => a - b);
      return {
        ceiling,
        sessionsGated: outcomes.length,
        atRiskGated: analyses.filter((a) => isAtRisk(a) && a.byCeiling[ceiling]!.first !== undefined).length,
        gatedLoads: Object.values(gatedByTool).reduce((a, b) => a + b, 0),
        gatedByTool,
        blockedLoads: Object.values(blockedByTool).reduce((a, b) => a + b, 0),
        blockedByTool,
        nearDone: outcomes.filter((o) => o.turnsAfterFirst <= NEAR_DONE_TURNS).length,
        medianFirstCall: median(sorted(outcomes.map((o) => o.first!.callNumber))),
        medianFirstPercent: median(sorted(outcomes.map((o) => o.first!.percent))),
        medianTurnsAfterFirst: median(sorted(outcomes.map((o) => o.turnsAfterFirst))),
        tokensAfterFirst: outcomes.reduce((sum, o) => sum + o.tokensAfterFirst, 0),
      };
    }),
  };
}

/** A session a ceiling is for: it was compacted, or its peak reached AT_RISK_PCT of its window. */
function isAtRisk(a: SessionAnalysis): boolean {
  return a.compactions > 0 || (a.peakPercent ?? 0) >= AT_RISK_PCT;
}

function countWindows(analyses: readonly SessionAnalysis[]): ReplaySummary['windows'] {
  const counts = new Map<string, ReplaySummary['windows'][number]>();
  for (const { window } of analyses) {
    const detail = window.detail ?? describeAssumption(window).replace(/^ \((.*)\)$/, '$1');
    const key = `${window.tokens}|${window.source}|${detail ?? ''}`;
    const entry = counts.get(key) ?? { tokens: window.tokens, source: window.source, detail, verified: window.verified, sessions: 0 };
    entry.sessions += 1;
    counts.set(key, entry);
  }
  return [...counts.values()].sort((a, b) => b.sessions - a.sessions);
}

function sumByTool(counts: ReadonlyArray<Record<string, number>>): Record<string, number> {
  const sum: Record<string, number> = {};
  for (const byTool of counts) for (const [tool, n] of Object.entries(byTool)) sum[tool] = (sum[tool] ?? 0) + n;
  return sum;
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

function median(sorted: readonly number[]): number | undefined {
  return sorted.length ? quantile(sorted, 0.5) : undefined;
}
