/** replay's recommendation, worded (its rule is core/replay.ts recommendCeiling); apart from replay.ts, which reads and times the history. */
import { formatCount } from '../core/plural.js';
import { ROOM_PCT, type ReplaySummary } from '../core/replay.js';
import { cliMessage } from './messages.js';

export function describeRecommendation(s: ReplaySummary, currentCeiling: number): string {
  const r = s.recommendation;
  if (r.kind === 'never')
    return cliMessage('replay.recommend-never', {
      current: currentCeiling,
      atRisk: r.atRisk,
      withCalls: s.atRiskWithCalls,
      lowest: Math.min(...s.ceilings.map((c) => c.ceiling)),
    });
  const c = r.summary;
  const first = c.medianFirstCall === undefined ? 'an unknown call' : `call #${c.medianFirstCall} at ${Math.round(c.medianFirstPercent!)}%`;
  if (r.kind === 'too-late')
    return cliMessage('replay.recommend-too-late', { ceiling: r.ceiling, caught: c.atRiskGated, atRisk: r.atRisk, first, room: ROOM_PCT });
  const byTool = Object.entries(c.gatedByTool)
    .map(([tool, n]) => `${tool} ${n}`)
    .join(', ');
  return cliMessage('replay.recommend-protects', {
    ceiling: r.ceiling,
    caught: c.atRiskGated,
    atRisk: r.atRisk,
    room: ROOM_PCT,
    loads: `${formatCount(c.gatedLoads, 'load')} (${byTool})`,
    sessions: c.sessionsGated,
    of: s.sessions,
    first,
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
