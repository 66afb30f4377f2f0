/**
 * A picture of one session's occupancy: a terminal chart and a self-contained
 * HTML/SVG page, both with the ceiling and tier thresholds and compaction
 * markers. Pure: the timeline and the numbers come in.
 */
import type { VerdictKind } from './ceiling.js';
import { formatTokens } from './messages.js';
import { formatCount } from './plural.js';
import type { Policy } from './policy.js';
import { isJudgedCall, judgeTimelineCall, type TimelineEvent } from './replay.js';
import type { ResolvedWindow } from './window.js';

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
};

/** The guard's judgement of every call comes from `judgeTimelineCall`, as in replay: a tool turned off is never drawn. */
export function buildReport(events: readonly TimelineEvent[], base: Omit<ReportData, 'points' | 'compactions' | 'calls'>, guard: { policy: Policy; window: ResolvedWindow }): ReportData {
  const points: ReportPoint[] = [];
  const compactions: number[] = [];
  const calls: ReportData['calls'] = [];
  for (const e of events) {
    if (e.kind === 'turn') points.push({ turn: points.length + 1, tokens: e.tokens, percent: (e.tokens / base.window) * 100 });
    else if (e.kind === 'compaction') compactions.push(points.length);
    else {
      const verdict = judgeTimelineCall(e, guard.policy, guard.window);
      if (!isJudgedCall(verdict)) continue;
      calls.push({ turn: points.length, tool: e.tool, percent: (e.tokens / base.window) * 100, over: verdict.kind !== 'allow', verdict: verdict.kind });
    }
  }
  return { ...base, points, compactions, calls };
}

const ROWS = 20; // 5 % per row
const BLOCKS = [' ', '▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/** The chart as text: one column per turn (or group of turns, their peak), 5 % per row. */
export function renderTerminalReport(r: ReportData, width = 72): string {
  const lines = [`${r.title}`, summaryLine(r), ''];
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
    let cells = '';
    for (const peak of peaks) {
      const filled = peak - (top - 5); // percent points of this column inside this row
      if (filled >= 5 || (peak > 100 && row === ROWS)) cells += '█';
      else if (filled > 0) cells += BLOCKS[Math.max(1, Math.round((filled / 5) * 8))];
      else cells += threshold ? threshold.char : ' ';
    }
    const label = row % 4 === 0 || threshold ? `${String(top).padStart(3)}%` : '    ';
    lines.push(`${label} ┤${cells}${threshold ? ` ${threshold.label}` : ''}`);
  }
  const marks = new Array<string>(columns).fill(' ');
  for (const c of r.calls) if (c.over && c.turn > 0) marks[column(c.turn)] = '*';
  // A compaction happens after its turn: mark the column of the next one.
  for (const turn of r.compactions) if (turn > 0) marks[column(Math.min(r.points.length, turn + 1))] = '▲';
  lines.push(`     └${'─'.repeat(columns)}`, `      ${marks.join('')}`);
  const axis = `      turn 1${' '.repeat(Math.max(1, columns - 7 - String(r.points.length).length))}${r.points.length}`;
  lines.push(axis, '', `Legend: █ occupancy (peak per column, ${per > 1 ? `${per.toFixed(1)} turns` : '1 turn'} each) · ─ ceiling · ··· tier thresholds · ▲ compaction · * gated call over the ceiling`);
  return `${lines.join('\n')}\n`;
}

function summaryLine(r: ReportData): string {
  const peak = r.points.reduce((max, p) => (p.percent > max.percent ? p : max), r.points[0] ?? { percent: 0, tokens: 0, turn: 0 });
  const over = r.calls.filter((c) => c.over).length;
  return `${r.points.length} turns · peak ${Math.round(peak.percent)}% (${formatTokens(peak.tokens)} tokens, turn ${peak.turn}) · ${formatCount(r.compactions.length, 'compaction')} · ${formatCount(r.calls.length, 'gated call')}, ${over} over the ${r.ceilingPct}% ceiling · window ${formatTokens(r.window)} (${r.windowSource})`;
}

/** One self-contained HTML page (inline SVG and CSS, no script, no network). */
export function renderHtmlReport(r: ReportData): string {
  const W = 960;
  const H = 460;
  const m = { left: 64, right: 150, top: 48, bottom: 56 };
  const plotW = W - m.left - m.right;
  const plotH = H - m.top - m.bottom;
  const yMax = Math.max(100, Math.ceil(Math.max(0, ...r.points.map((p) => p.percent)) / 10) * 10);
  const turns = Math.max(1, r.points.length);
  const x = (turn: number) => m.left + (turns === 1 ? plotW / 2 : ((turn - 1) / (turns - 1)) * plotW);
  const y = (percent: number) => m.top + plotH - (Math.min(percent, yMax) / yMax) * plotH;
  const f = (n: number) => n.toFixed(1);
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const parts: string[] = [];
  for (let pct = 0; pct <= yMax; pct += yMax > 100 ? 50 : 20) {
    parts.push(`<line class="grid" x1="${m.left}" x2="${m.left + plotW}" y1="${f(y(pct))}" y2="${f(y(pct))}"/>`);
    parts.push(`<text class="tick y-tick" x="${m.left - 8}" y="${f(y(pct) + 4)}" text-anchor="end">${pct}%</text>`);
  }
  const xTicks = [...new Set([1, Math.round(turns / 4), Math.round(turns / 2), Math.round((3 * turns) / 4), turns].filter((t) => t >= 1))];
  for (const t of xTicks) parts.push(`<text class="tick x-tick" x="${f(x(t))}" y="${m.top + plotH + 18}" text-anchor="middle">${t}</text>`);
  const thresholds = [
    { cls: 'ceiling', pct: r.ceilingPct, label: `ceiling ${r.ceilingPct}%` },
    { cls: 'tier-warning', pct: r.tiers.warningPct, label: `WARNING ${r.tiers.warningPct}%` },
    { cls: 'tier-critical', pct: r.tiers.criticalPct, label: `CRITICAL ${r.tiers.criticalPct}%` },
    { cls: 'tier-emergency', pct: r.tiers.emergencyPct, label: `EMERGENCY ${r.tiers.emergencyPct}%` },
  ];
  for (const t of thresholds) {
    parts.push(`<line class="threshold ${t.cls}" data-pct="${t.pct}" x1="${m.left}" x2="${m.left + plotW}" y1="${f(y(t.pct))}" y2="${f(y(t.pct))}"/>`);
    parts.push(`<text class="threshold-label ${t.cls}" x="${m.left + plotW + 6}" y="${f(y(t.pct) + 4)}">${t.label}</text>`);
  }
  for (const turn of r.compactions) {
    const at = x(Math.min(turns, turn + 0.5));
    parts.push(`<line class="compaction" data-turn="${turn}" x1="${f(at)}" x2="${f(at)}" y1="${m.top}" y2="${m.top + plotH}"><title>compaction after turn ${turn}</title></line>`);
  }
  if (r.points.length > 0) {
    const points = r.points.map((p) => `${f(x(p.turn))},${f(y(p.percent))}`).join(' ');
    parts.push(`<polyline class="occupancy" data-turns="${r.points.length}" points="${points}"/>`);
  }
  for (const c of r.calls) {
    if (c.turn < 1) continue;
    parts.push(`<circle class="gated-call ${c.over ? 'over' : 'under'}" cx="${f(x(c.turn))}" cy="${f(y(c.percent))}" r="4"><title>${esc(c.tool)} at turn ${c.turn}, ${Math.round(c.percent)}%</title></circle>`);
  }
  parts.push(`<text class="axis-label" x="${m.left + plotW / 2}" y="${H - 14}" text-anchor="middle">turn</text>`);
  parts.push(`<text class="axis-label" transform="translate(16 ${m.top + plotH / 2}) rotate(-90)" text-anchor="middle">occupancy, % of ${esc(formatTokens(r.window))}-token window (${esc(r.windowSource)})</text>`);
  const legend = [
    ['legend-occupancy', 'occupancy per turn'],
    ['legend-ceiling', `ceiling (${r.ceilingPct}%)`],
    ['legend-tier', 'tier thresholds'],
    ['legend-compaction', 'compaction'],
    ['legend-gated', 'gated call over the ceiling'],
  ];
  const legendItems = legend.map(([cls, label], i) => `<g class="legend-item ${cls}" transform="translate(${m.left + i * 150} 20)"><rect class="swatch" width="14" height="4" y="-6"/><text x="20" y="0">${esc(label!)}</text></g>`).join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${esc(r.title)}</title>
<style>
  body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #1d232a; background: #fff; }
  h1 { font-size: 18px; margin: 0 0 4px; }
  p.summary { margin: 0 0 12px; color: #4a5560; }
  svg { background: #fbfcfd; border: 1px solid #e3e7eb; }
  .grid { stroke: #e8ecef; }
  text, text.threshold-label { stroke: none; }
  .tick, .axis-label, .threshold-label, .legend-item text { fill: #4a5560; font-size: 12px; }
  .occupancy { fill: none; stroke: #1f6feb; stroke-width: 2; }
  .threshold { stroke-width: 1.5; }
  .ceiling { stroke: #d1242f; stroke-dasharray: 6 4; fill: #d1242f; }
  .tier-warning { stroke: #bf8700; stroke-dasharray: 2 3; fill: #bf8700; }
  .tier-critical { stroke: #e16f24; stroke-dasharray: 2 3; fill: #e16f24; }
  .tier-emergency { stroke: #a40e26; stroke-dasharray: 2 3; fill: #a40e26; }
  .compaction { stroke: #6e40c9; stroke-width: 1.5; stroke-dasharray: 4 3; }
  .gated-call.over { fill: #d1242f; }
  .gated-call.under { fill: #8c959f; }
  .legend-occupancy .swatch { fill: #1f6feb; }
  .legend-ceiling .swatch { fill: #d1242f; }
  .legend-tier .swatch { fill: #bf8700; }
  .legend-compaction .swatch { fill: #6e40c9; }
  .legend-gated .swatch { fill: #d1242f; }
</style>
</head>
<body>
<h1>${esc(r.title)}</h1>
<p class="summary">${esc(summaryLine(r))}</p>
<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" aria-label="Context occupancy per turn">
<g class="legend">${legendItems}</g>
${parts.join('\n')}
</svg>
</body>
</html>
`;
}
