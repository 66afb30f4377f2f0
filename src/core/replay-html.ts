/**
 * replay's history as one self-contained HTML page (inline SVG and CSS, no script, no network): the summary lines,
 * the recommendation, a chart of each candidate ceiling (share of sessions it gates, median fill of its first gated
 * call, the recommended one marked) beside the sessions' peaks, and the table.
 */

/** What the page shows, worded by the CLI (cli/replay.ts) so the page says exactly what the terminal says. */
export type ReplayPage = {
  title: string;
  /** Replayed …, Windows …, Compactions …, Peak … */
  lines: string[];
  recommendation: string;
  header: string[];
  rows: string[][];
  /** Per candidate: its ceiling, the share of sessions it gates (percent) and its first gated call's median fill. */
  ceilings: Array<{ ceiling: number; gatedShare: number; medianFirstPercent: number | undefined }>;
  recommended: number | undefined;
  /** Sessions by peak in 10-point bands, index 10 is 100 % and above. */
  peakHistogram: number[];
  /** One line under the table: what could not be read. */
  corrupt: string;
};

const W = 960;
const H = 360;
const M = { left: 64, right: 24, top: 48, bottom: 56 };
const PLOT_W = W - M.left - M.right;
const PLOT_H = H - M.top - M.bottom;

const f = (n: number) => n.toFixed(1);
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const y = (percent: number) => M.top + PLOT_H - (Math.max(0, Math.min(100, percent)) / 100) * PLOT_H;

const CSS = `  body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #1d232a; background: #fff; }
  h1 { font-size: 18px; margin: 0 0 8px; }
  h2 { font-size: 15px; margin: 20px 0 6px; }
  p { margin: 0 0 4px; color: #4a5560; }
  p.recommendation { margin: 12px 0; padding: 8px 12px; color: #1d232a; background: #f1f8ff; border-left: 4px solid #1f6feb; }
  svg { background: #fbfcfd; border: 1px solid #e3e7eb; display: block; margin: 8px 0; }
  .grid { stroke: #e8ecef; }
  .tick, .axis-label, .bar-label, .legend-item text { fill: #4a5560; font-size: 12px; }
  .gated { fill: #8fb8f5; }
  .gated.recommended { fill: #1f6feb; }
  .first-fill { fill: #d1242f; }
  .peak { fill: #bf8700; }
  .legend-gated .swatch { fill: #8fb8f5; }
  .legend-recommended .swatch { fill: #1f6feb; }
  .legend-first .swatch { fill: #d1242f; }
  table { border-collapse: collapse; margin: 8px 0; }
  th, td { border: 1px solid #e3e7eb; padding: 4px 8px; text-align: left; font-variant-numeric: tabular-nums; }
  tr.recommended td { background: #f1f8ff; font-weight: 600; }
`;

export function renderReplayHtml(p: ReplayPage): string {
  const rows = p.rows
    .map((row, i) => {
      const recommended = p.ceilings[i]?.ceiling === p.recommended;
      return `<tr${recommended ? ' class="recommended"' : ''}>${row.map((cell) => `<td>${esc(cell)}</td>`).join('')}</tr>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${esc(p.title)}</title>
<style>
${CSS}</style>
</head>
<body>
<h1>${esc(p.title)}</h1>
${p.lines.map((line) => `<p class="summary">${esc(line)}</p>`).join('\n')}
<p class="recommendation">${esc(p.recommendation)}</p>
<h2>Candidate ceilings</h2>
${ceilingChart(p)}
<table>
<thead><tr>${p.header.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead>
<tbody>
${rows}
</tbody>
</table>
<h2>Peak occupancy per session</h2>
${peakChart(p.peakHistogram)}
<p class="summary">${esc(p.corrupt)}</p>
</body>
</html>
`;
}

/** A bar per candidate: the share of sessions it gates; a dot at the median fill of its first gated call. */
function ceilingChart(p: ReplayPage): string {
  const parts = axis('% of sessions gated · fill of the first gated call');
  const slot = PLOT_W / Math.max(1, p.ceilings.length);
  p.ceilings.forEach((c, i) => {
    const x = M.left + i * slot + slot * 0.2;
    const width = slot * 0.6;
    const recommended = c.ceiling === p.recommended;
    parts.push(
      `<rect class="gated${recommended ? ' recommended' : ''}" data-ceiling="${c.ceiling}" data-share="${f(c.gatedShare)}" x="${f(x)}" y="${f(y(c.gatedShare))}" width="${f(width)}" height="${f(y(0) - y(c.gatedShare))}"><title>${c.ceiling}%: ${Math.round(c.gatedShare)}% of sessions gated</title></rect>`,
      `<text class="bar-label" x="${f(x + width / 2)}" y="${f(y(0) + 18)}" text-anchor="middle">${c.ceiling}%${recommended ? ' (recommended)' : ''}</text>`,
    );
    if (c.medianFirstPercent !== undefined)
      parts.push(
        `<circle class="first-fill" data-ceiling="${c.ceiling}" data-fill="${f(c.medianFirstPercent)}" cx="${f(x + width / 2)}" cy="${f(y(c.medianFirstPercent))}" r="5"><title>${c.ceiling}%: first gated call at ${Math.round(c.medianFirstPercent)}% (median)</title></circle>`,
      );
  });
  const legend = [
    ['legend-gated', 'sessions gated'],
    ['legend-recommended', 'recommended ceiling'],
    ['legend-first', 'first gated call: median fill'],
  ]
    .map(
      ([cls, label], i) =>
        `<g class="legend-item ${cls}"><rect class="swatch" x="${M.left + i * 200}" y="16" width="12" height="12"/><text x="${M.left + i * 200 + 18}" y="27">${label}</text></g>`,
    )
    .join('');
  return svg('Sessions gated and first gated fill per candidate ceiling', [`<g class="legend">${legend}</g>`, ...parts]);
}

/** Sessions per 10-point band of their peak. */
function peakChart(histogram: number[]): string {
  const most = Math.max(1, ...histogram);
  const parts = axis('% of the busiest band', false);
  const slot = PLOT_W / histogram.length;
  histogram.forEach((n, i) => {
    const share = (n / most) * 100;
    const x = M.left + i * slot + slot * 0.15;
    const width = slot * 0.7;
    parts.push(
      `<rect class="peak" data-band="${i * 10}" data-sessions="${n}" x="${f(x)}" y="${f(y(share))}" width="${f(width)}" height="${f(y(0) - y(share))}"><title>${n} sessions</title></rect>`,
      `<text class="bar-label" x="${f(x + width / 2)}" y="${f(y(0) + 18)}" text-anchor="middle">${i === 10 ? '100+' : `${i * 10}`}%</text>`,
    );
    if (n > 0) parts.push(`<text class="bar-label" x="${f(x + width / 2)}" y="${f(y(share) - 4)}" text-anchor="middle">${n}</text>`);
  });
  return svg('Sessions by peak occupancy', parts);
}

function axis(label: string, ticks = true): string[] {
  const parts: string[] = [];
  for (let pct = 0; pct <= 100; pct += 20) {
    parts.push(`<line class="grid" x1="${M.left}" x2="${M.left + PLOT_W}" y1="${f(y(pct))}" y2="${f(y(pct))}"/>`);
    if (ticks) parts.push(`<text class="tick y-tick" x="${M.left - 8}" y="${f(y(pct) + 4)}" text-anchor="end">${pct}%</text>`);
  }
  parts.push(
    `<text class="axis-label" transform="translate(16 ${f(M.top + PLOT_H / 2)}) rotate(-90)" text-anchor="middle">${esc(label)}</text>`,
  );
  return parts;
}

function svg(label: string, parts: string[]): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(label)}">
${parts.join('\n')}
</svg>`;
}
