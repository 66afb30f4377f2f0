/** replay's recommendation, worded (its rule is core/replay.ts recommendCeiling); apart from replay.ts, which reads and times the history. */
import { formatCount } from '../core/plural.js';
import { NEAR_DONE_TURNS, type ReplaySummary } from '../core/replay.js';
import { cliMessage } from './messages.js';

export function describeRecommendation(s: ReplaySummary, currentCeiling: number): string {
  const r = s.recommendation;
  if (r.kind === 'never') return cliMessage('replay.recommend-never', { current: currentCeiling });
  const c = r.summary;
  if (r.kind === 'annoys')
    return cliMessage('replay.recommend-annoys', {
      ceiling: r.ceiling,
      nearDone: c.nearDone,
      sessions: c.sessionsGated,
      turns: NEAR_DONE_TURNS,
    });
  const byTool = Object.entries(c.gatedByTool)
    .map(([tool, n]) => `${tool} ${n}`)
    .join(', ');
  return cliMessage('replay.recommend-gates', {
    ceiling: r.ceiling,
    loads: `${formatCount(c.gatedLoads, 'load')} (${byTool})`,
    sessions: String(c.sessionsGated),
    of: s.sessions,
    first: c.medianFirstCall === undefined ? 'an unknown call' : `call #${c.medianFirstCall} at ${Math.round(c.medianFirstPercent!)}%`,
    turnsAfter: formatCount(c.medianTurnsAfterFirst ?? 0, 'turn'),
    tokensAfter: formatTokensCompact(c.tokensAfterFirst),
    nearDone: c.nearDone,
  });
}

function formatTokensCompact(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)} k`;
  return String(n);
}
