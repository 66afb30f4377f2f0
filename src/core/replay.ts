/**
 * Calibration: replay recorded sessions against candidate ceilings. A session
 * is the main thread's timeline (turns, gated calls, compactions); the guard
 * is evaluated at every recorded Agent/Task/Skill call, because a ceiling only
 * matters where it would have gated something.
 */
import { isRecoveryCall } from './ceiling.js';
import { classifyRecord } from './occupancy.js';

export type TimelineEvent =
  | { kind: 'turn'; tokens: number; output: number }
  | { kind: 'call'; tool: string; target: string | undefined; tokens: number }
  | { kind: 'compaction'; postTokens: number | undefined };

/** Builds one session's timeline from its records, in file order. */
export class TimelineBuilder {
  readonly events: TimelineEvent[] = [];
  private lastMessageId: string | undefined;

  constructor(private readonly gated: ReadonlySet<string>) {}

  add(record: unknown): void {
    const evidence = classifyRecord(record);
    if (!evidence) return;
    if (evidence.kind === 'compaction') {
      this.events.push({ kind: 'compaction', postTokens: evidence.postTokens });
      this.lastMessageId = undefined;
      return;
    }
    const message = (record as { message: Record<string, unknown> }).message;
    const id = typeof message.id === 'string' ? message.id : undefined;
    // One response split over several lines repeats its usage: one turn, whose calls may sit on any of the lines.
    if (id === undefined || id !== this.lastMessageId) {
      const usage = message.usage as Record<string, unknown>;
      const output = typeof usage.output_tokens === 'number' && Number.isFinite(usage.output_tokens) && usage.output_tokens > 0 ? usage.output_tokens : 0;
      this.events.push({ kind: 'turn', tokens: evidence.tokens, output });
      this.lastMessageId = id;
    }
    if (!Array.isArray(message.content)) return;
    for (const block of message.content as Array<Record<string, unknown>>) {
      if (block?.type !== 'tool_use' || typeof block.name !== 'string' || !this.gated.has(block.name)) continue;
      const input = (block.input ?? {}) as Record<string, unknown>;
      const target = block.name === 'Skill' ? input.skill : input.subagent_type;
      this.events.push({ kind: 'call', tool: block.name, target: typeof target === 'string' ? target : undefined, tokens: evidence.tokens });
    }
  }
}

export type CeilingOutcome = {
  /** The first recorded call over the ceiling: its position among the session's gated calls, tool and percent. */
  first: { callNumber: number; tool: string; percent: number; turn: number } | undefined;
  gatedByTool: Record<string, number>;
  turnsAfterFirst: number;
  tokensAfterFirst: number;
};

export type SessionAnalysis = {
  turns: number;
  calls: number;
  compactions: number;
  peakPercent: number | undefined;
  byCeiling: Record<number, CeilingOutcome>;
};

export type ReplayRules = { window: number; ceilings: readonly number[]; recoverySkills: readonly string[] };

export function analyzeSession(events: readonly TimelineEvent[], rules: ReplayRules): SessionAnalysis {
  const turns = events.filter((e) => e.kind === 'turn').length;
  const calls = events.filter((e): e is Extract<TimelineEvent, { kind: 'call' }> => e.kind === 'call' && !isRecoveryCall(e.tool, e.target, rules.recoverySkills));
  let peak: number | undefined;
  for (const e of events) if (e.kind === 'turn') peak = Math.max(peak ?? 0, (e.tokens / rules.window) * 100);
  const byCeiling: Record<number, CeilingOutcome> = {};
  for (const ceiling of rules.ceilings) {
    const outcome: CeilingOutcome = { first: undefined, gatedByTool: {}, turnsAfterFirst: 0, tokensAfterFirst: 0 };
    let turn = 0;
    let callNumber = 0;
    const counted = new Set<TimelineEvent>(calls);
    for (const e of events) {
      if (e.kind === 'turn') {
        turn += 1;
        if (outcome.first && turn > outcome.first.turn) {
          outcome.turnsAfterFirst += 1;
          outcome.tokensAfterFirst += e.tokens + e.output;
        }
      } else if (e.kind === 'call' && counted.has(e)) {
        callNumber += 1;
        const percent = (e.tokens / rules.window) * 100;
        if (percent < ceiling) continue;
        outcome.gatedByTool[e.tool] = (outcome.gatedByTool[e.tool] ?? 0) + 1;
        outcome.first ??= { callNumber, tool: e.tool, percent, turn };
      }
    }
    byCeiling[ceiling] = outcome;
  }
  return { turns, calls: calls.length, compactions: events.filter((e) => e.kind === 'compaction').length, peakPercent: peak, byCeiling };
}

/** A session ending within this many turns of its first gated call was nearly done: gating it there mostly annoys. */
export const NEAR_DONE_TURNS = 3;

export type CeilingSummary = {
  ceiling: number;
  sessionsGated: number;
  gatedLoads: number;
  gatedByTool: Record<string, number>;
  nearDone: number;
  medianFirstCall: number | undefined;
  medianFirstPercent: number | undefined;
  medianTurnsAfterFirst: number | undefined;
  tokensAfterFirst: number;
};

export type ReplaySummary = {
  sessions: number;
  sessionsWithCalls: number;
  compactions: number;
  sessionsCompacted: number;
  peak: { p50: number; p90: number; p99: number; max: number } | undefined;
  /** Sessions by peak occupancy in 10-point bands: index 0 is 0-9 %, 10 is 100 % and above. */
  peakHistogram: number[];
  ceilings: CeilingSummary[];
};

export function summarize(analyses: readonly SessionAnalysis[], ceilings: readonly number[]): ReplaySummary {
  const peaks = analyses.map((a) => a.peakPercent).filter((p): p is number => p !== undefined).sort((a, b) => a - b);
  const histogram = new Array<number>(11).fill(0);
  for (const p of peaks) histogram[Math.min(10, Math.floor(p / 10))]! += 1;
  return {
    sessions: analyses.length,
    sessionsWithCalls: analyses.filter((a) => a.calls > 0).length,
    compactions: analyses.reduce((sum, a) => sum + a.compactions, 0),
    sessionsCompacted: analyses.filter((a) => a.compactions > 0).length,
    peak: peaks.length ? { p50: quantile(peaks, 0.5), p90: quantile(peaks, 0.9), p99: quantile(peaks, 0.99), max: peaks[peaks.length - 1]! } : undefined,
    peakHistogram: histogram,
    ceilings: ceilings.map((ceiling) => {
      const outcomes = analyses.map((a) => a.byCeiling[ceiling]!).filter((o) => o.first !== undefined);
      const gatedByTool: Record<string, number> = {};
      for (const o of outcomes) for (const [tool, n] of Object.entries(o.gatedByTool)) gatedByTool[tool] = (gatedByTool[tool] ?? 0) + n;
      const sorted = (values: number[]) => values.sort((a, b) => a - b);
      return {
        ceiling,
        sessionsGated: outcomes.length,
        gatedLoads: Object.values(gatedByTool).reduce((a, b) => a + b, 0),
        gatedByTool,
        nearDone: outcomes.filter((o) => o.turnsAfterFirst <= NEAR_DONE_TURNS).length,
        medianFirstCall: median(sorted(outcomes.map((o) => o.first!.callNumber))),
        medianFirstPercent: median(sorted(outcomes.map((o) => o.first!.percent))),
        medianTurnsAfterFirst: median(sorted(outcomes.map((o) => o.turnsAfterFirst))),
        tokensAfterFirst: outcomes.reduce((sum, o) => sum + o.tokensAfterFirst, 0),
      };
    }),
  };
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

function median(sorted: readonly number[]): number | undefined {
  return sorted.length ? quantile(sorted, 0.5) : undefined;
}
