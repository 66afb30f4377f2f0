/**
 * A picture of one session's occupancy: a terminal chart and a self-contained
 * HTML/SVG page, both with the ceiling and tier thresholds and compaction
 * markers. Pure: the timeline and the numbers come in.
 */
import type { VerdictKind } from './ceiling.js';
import { ENV } from './env-names.js';
import { formatTokens } from './guard-text.js';
import { formatCount } from './plural.js';
import type { Policy } from './policy.js';
import { isJudgedCall, judgeTimelineCall, type TimelineEvent } from './replay.js';
import type { ResolvedWindow } from './window.js';
import { TIER_COLOURS } from './statusline.js';
import { computeTier } from './tiers.js';

export type ReportPoint = { turn: number; percent: number; tokens: number };

export type ReportData = {
  title: string;
  window: number;
  windowSource: string;
  ceilingPct: number;
  tiers: { warningPct: number; criticalPct: number; emergencyPct: number };
  points: ReportPoint[];
  /** Turn after which a compaction happened. */
  compactions: number[];
  /** Calls the guard judges, at the turn that made them, with its verdict; `over` when it would warn or block. */
  calls: Array<{ turn: number; tool: string; percent: number; over: boolean; verdict: VerdictKind }>;
  /** Where the window came from (`evidence`: only what the session itself held). */
  windowProvenance?: string | undefined;
  /** Why the peak is over 100 % (or at 100 % on a window only the session's own size proves) and how to fix it (peakNote). */
  peakNote?: string | undefined;
};

/** The guard's judgement of every call comes from `judgeTimelineCall`, as in replay: a tool turned off is never drawn. */
export function buildReport(
  events: readonly TimelineEvent[],
  base: Omit<ReportData, 'points' | 'compactions' | 'calls'>,
  guard: { policy: Policy; window: ResolvedWindow },
): ReportData {
  const points: ReportPoint[] = [];
  const compactions: number[] = [];
  const calls: ReportData['calls'] = [];
  for (const e of events) {
    if (e.kind === 'turn') points.push({ turn: points.length + 1, tokens: e.tokens, percent: (e.tokens / base.window) * 100 });
    else if (e.kind === 'compaction') compactions.push(points.length);
    else {
      const verdict = judgeTimelineCall(e, guard.policy, guard.window);
      if (!isJudgedCall(verdict)) continue;
      calls.push({
        turn: points.length,
        tool: e.tool,
        percent: (e.tokens / base.window) * 100,
        over: verdict.kind !== 'allow',
        verdict: verdict.kind,
      });
    }
  }
  const report = { ...base, points, compactions, calls };
  const note = peakNote(report);
  return note === undefined ? report : { ...report, peakNote: note };
}

/**
 * A peak over 100 % is never real: the session held more than the window it was judged against, so that
 * window is wrong (a 1M variant the transcript does not name, a stated window that is too small). Say so,
 * and how to state the right one.
 */
export function peakNote(r: Pick<ReportData, 'points' | 'window' | 'windowSource' | 'windowProvenance'>): string | undefined {
  const peak = r.points.reduce((max, p) => Math.max(max, p.tokens), 0);
  const larger = peak <= 1_000_000 ? 1_000_000 : Math.ceil(peak / 100_000) * 100_000;
  const fix = `Judge it against the real one: report --window ${larger}; and tell the guard: ${ENV.window}=${larger} or "window" in a policy file.`;
  if (r.windowProvenance === 'evidence' && peak >= r.window)
    return (
      `Peak 100% only because the window is unknown: the session held ${formatTokens(peak)} tokens, more than the window its model was thought to have, ` +
      `so it is judged against what it held (the guard does the same, and warns only). ${fix}`
    );
  if (peak <= r.window) return undefined;
  return (
    `Peak over 100%: the session held ${formatTokens(peak)} tokens, more than the ${formatTokens(r.window)}-token window it was judged against (${r.windowSource}), so that window is wrong ` +
    `(often a [1m] variant the transcript does not name, or a stated window that is too small). ${fix}`
  );
}

const ROWS = 20; // 5 % per row
const BLOCKS = [' ', '▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/**
 * The chart as text: one column per turn (or group of turns, their peak), 5 % per row. With `colour`, the
 * occupancy in each row takes the colour of that row's tier (as in the status line); without, no escape at all.
 */
export function renderTerminalReport(r: ReportData, width = 72, colour = false): string {
  const lines = [`${r.title}`, summaryLine(r), ...(r.peakNote ? [r.peakNote] : []), ''];
  if (r.points.length === 0) return `${lines.join('\n')}No assistant turn with usage: nothing to draw.\n`;
  const columns = Math.min(width, r.points.length);
  const per = r.points.length / columns;
  const column = (turn: number) => Math.min(columns - 1, Math.floor((turn - 1) / per));
  const peaks = new Array<number>(columns).fill(0);
  for (const p of r.points) peaks[column(p.turn)] = Math.max(peaks[column(p.turn)]!, p.percent);
  const thresholds = new Map<number, { char: string; label: string }>([
    [Math.round(r.tiers.emergencyPct / 5), { char: '·', label: `EMERGENCY ${r.tiers.emergencyPct}%` }],
    [Math.round(r.tiers.criticalPct / 5), { char: '·', label: `CRITICAL ${r.tiers.criticalPct}%` }],
    [Math.round(r.tiers.warningPct / 5), { char: '·', label: `WARNING ${r.tiers.warningPct}%` }],
    [Math.round(r.ceilingPct / 5), { char: '─', label: `ceiling ${r.ceilingPct}%` }],
  ]);
  for (let row = ROWS; row >= 1; row--) {
    const top = row * 5;
    const threshold = thresholds.get(row);
    const paint = colour ? TIER_COLOURS[computeTier(top - 5, { ceilingPct: r.ceilingPct, ...r.tiers })] : undefined;
    const label = row % 4 === 0 || threshold ? `${String(top).padStart(3)}%` : '    ';
    lines.push(`${label} ┤${rowCells(peaks, top, threshold?.char ?? ' ', paint)}${threshold ? ` ${threshold.label}` : ''}`);
  }
  const marks = new Array<string>(columns).fill(' ');
  for (const c of r.calls) if (c.over && c.turn > 0) marks[column(c.turn)] = '*';
  // A compaction happens after its turn: mark the column of the next one.
  for (const turn of r.compactions) if (turn > 0) marks[column(Math.min(r.points.length, turn + 1))] = '▲';
  lines.push(`     └${'─'.repeat(columns)}`, `      ${marks.join('')}`);
  const axis = `      turn 1${' '.repeat(Math.max(1, columns - 7 - String(r.points.length).length))}${r.points.length}`;
  lines.push(
    axis,
    '',
    `Legend: █ occupancy (peak per column, ${per > 1 ? `${per.toFixed(1)} turns` : '1 turn'} each) · ─ ceiling · ··· tier thresholds · ▲ compaction · * gated call over the ceiling`,
  );
  return `${lines.join('\n')}\n`;
}

/** One row of the chart: each column's share of the row's 5 points, runs of occupancy painted with `paint` (an SGR code). */
function rowCells(peaks: readonly number[], top: number, empty: string, paint: string | undefined): string {
  let cells = '';
  let run = '';
  const flush = () => {
    cells += run && paint ? `\u001b[${paint}m${run}\u001b[0m` : run;
    run = '';
  };
  for (const peak of peaks) {
    const filled = peak - (top - 5); // percent points of this column inside this row
    if (filled >= 5 || (peak > 100 && top === ROWS * 5)) run += '█';
    else if (filled > 0) run += BLOCKS[Math.max(1, Math.round((filled / 5) * 8))];
    else {
      flush();
      cells += empty;
    }
  }
  flush();
  return cells;
}

/** The one-line summary under the chart, in the terminal and the HTML page. */
export function summaryLine(r: ReportData): string {
  const peak = r.points.reduce((max, p) => (p.percent > max.percent ? p : max), r.points[0] ?? { percent: 0, tokens: 0, turn: 0 });
  const over = r.calls.filter((c) => c.over).length;
  // Under 1 % is '<1%' as everywhere else (a session that held tokens never peaked at 0 %).
  const peakPct = peak.percent > 0 && peak.percent < 1 ? '<1%' : `${Math.round(peak.percent)}%`;
  return `${formatCount(r.points.length, 'turn')} · peak ${peakPct} (${formatTokens(peak.tokens)} tokens, turn ${peak.turn}) · ${formatCount(r.compactions.length, 'compaction')} · ${formatCount(r.calls.length, 'gated call')}, ${over} over the ${r.ceilingPct}% ceiling · window ${formatTokens(r.window)} (${r.windowSource})`;
}
