/** The report as one self-contained HTML page (inline SVG and CSS, no script, no network). */
import { formatTokens } from './guard-text.js';
import { summaryLine, type ReportData } from './report.js';

const W = 960;
const H = 460;
const M = { left: 64, right: 150, top: 48, bottom: 56 };
const PLOT_W = W - M.left - M.right;
const PLOT_H = H - M.top - M.bottom;

/** Turn and percent to SVG coordinates for one report's data. */
type Scale = { x: (turn: number) => number; y: (percent: number) => number; yMax: number; turns: number };

const f = (n: number) => n.toFixed(1);
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const CSS = `  body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #1d232a; background: #fff; }
  h1 { font-size: 18px; margin: 0 0 4px; }
  p.summary { margin: 0 0 12px; color: #4a5560; }
  p.note { margin: 0 0 12px; color: #8a1f11; }
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
`;

export function renderHtmlReport(r: ReportData): string {
  const scale = scaleOf(r);
  const parts = [...axisParts(scale), ...thresholdParts(r, scale), ...dataParts(r, scale), ...labelParts(r)];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${esc(r.title)}</title>
<style>
${CSS}</style>
</head>
<body>
<h1>${esc(r.title)}</h1>
<p class="summary">${esc(summaryLine(r))}</p>${r.peakNote ? `\n<p class="note">${esc(r.peakNote)}</p>` : ''}
<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" aria-label="Context occupancy per turn">
<g class="legend">${legendItems(r)}</g>
${parts.join('\n')}
</svg>
</body>
</html>
`;
}

function scaleOf(r: ReportData): Scale {
  const yMax = Math.max(100, Math.ceil(Math.max(0, ...r.points.map((p) => p.percent)) / 10) * 10);
  const turns = Math.max(1, r.points.length);
  return {
    x: (turn) => M.left + (turns === 1 ? PLOT_W / 2 : ((turn - 1) / (turns - 1)) * PLOT_W),
    y: (percent) => M.top + PLOT_H - (Math.min(percent, yMax) / yMax) * PLOT_H,
    yMax,
    turns,
  };
}

function axisParts({ x, y, yMax, turns }: Scale): string[] {
  const parts: string[] = [];
  for (let pct = 0; pct <= yMax; pct += yMax > 100 ? 50 : 20) {
    parts.push(`<line class="grid" x1="${M.left}" x2="${M.left + PLOT_W}" y1="${f(y(pct))}" y2="${f(y(pct))}"/>`);
    parts.push(`<text class="tick y-tick" x="${M.left - 8}" y="${f(y(pct) + 4)}" text-anchor="end">${pct}%</text>`);
  }
  const xTicks = [...new Set([1, Math.round(turns / 4), Math.round(turns / 2), Math.round((3 * turns) / 4), turns].filter((t) => t >= 1))];
  for (const t of xTicks)
    parts.push(`<text class="tick x-tick" x="${f(x(t))}" y="${M.top + PLOT_H + 18}" text-anchor="middle">${t}</text>`);
  return parts;
}

function thresholdParts(r: ReportData, { y }: Scale): string[] {
  const thresholds = [
    { cls: 'ceiling', pct: r.ceilingPct, label: `ceiling ${r.ceilingPct}%` },
    { cls: 'tier-warning', pct: r.tiers.warningPct, label: `WARNING ${r.tiers.warningPct}%` },
    { cls: 'tier-critical', pct: r.tiers.criticalPct, label: `CRITICAL ${r.tiers.criticalPct}%` },
    { cls: 'tier-emergency', pct: r.tiers.emergencyPct, label: `EMERGENCY ${r.tiers.emergencyPct}%` },
  ];
  return thresholds.flatMap((t) => [
    `<line class="threshold ${t.cls}" data-pct="${t.pct}" x1="${M.left}" x2="${M.left + PLOT_W}" y1="${f(y(t.pct))}" y2="${f(y(t.pct))}"/>`,
    `<text class="threshold-label ${t.cls}" x="${M.left + PLOT_W + 6}" y="${f(y(t.pct) + 4)}">${t.label}</text>`,
  ]);
}

/** Compactions, the occupancy line and the gated calls. */
function dataParts(r: ReportData, { x, y, turns }: Scale): string[] {
  const parts: string[] = [];
  for (const turn of r.compactions) {
    const at = x(Math.min(turns, turn + 0.5));
    parts.push(
      `<line class="compaction" data-turn="${turn}" x1="${f(at)}" x2="${f(at)}" y1="${M.top}" y2="${M.top + PLOT_H}"><title>compaction after turn ${turn}</title></line>`,
    );
  }
  if (r.points.length > 0) {
    const points = r.points.map((p) => `${f(x(p.turn))},${f(y(p.percent))}`).join(' ');
    parts.push(`<polyline class="occupancy" data-turns="${r.points.length}" points="${points}"/>`);
  }
  for (const c of r.calls) {
    if (c.turn < 1) continue;
    parts.push(
      `<circle class="gated-call ${c.over ? 'over' : 'under'}" cx="${f(x(c.turn))}" cy="${f(y(c.percent))}" r="4"><title>${esc(c.tool)} at turn ${c.turn}, ${Math.round(c.percent)}%</title></circle>`,
    );
  }
  return parts;
}

function labelParts(r: ReportData): string[] {
  return [
    `<text class="axis-label" x="${M.left + PLOT_W / 2}" y="${H - 14}" text-anchor="middle">turn</text>`,
    `<text class="axis-label" transform="translate(16 ${M.top + PLOT_H / 2}) rotate(-90)" text-anchor="middle">occupancy, % of ${esc(formatTokens(r.window))}-token window (${esc(r.windowSource)})</text>`,
  ];
}

function legendItems(r: ReportData): string {
  const legend = [
    ['legend-occupancy', 'occupancy per turn'],
    ['legend-ceiling', `ceiling (${r.ceilingPct}%)`],
    ['legend-tier', 'tier thresholds'],
    ['legend-compaction', 'compaction'],
    ['legend-gated', 'gated call over the ceiling'],
  ];
  return legend
    .map(
      ([cls, label], i) =>
        `<g class="legend-item ${cls}" transform="translate(${M.left + i * 150} 20)"><rect class="swatch" width="14" height="4" y="-6"/><text x="20" y="0">${esc(label!)}</text></g>`,
    )
    .join('');
}
