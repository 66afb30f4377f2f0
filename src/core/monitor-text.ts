/**
 * The <context-monitor> the model reads on every prompt (seed 003 Template 2, seed 004's fields). The
 * compaction alert is in alert-text.ts, <resumption-context> in resumption-text.ts, the staleness warning in
 * staleness.ts; the budget and clipping they share in text-budget.ts.
 */
import { describeAutocompact, type AutocompactPoint } from './autocompact.js';
import { TOKEN_BUDGET } from './limits.js';
import type { CompactionNumbers, StuckAfterCompaction } from './compaction-notice.js';
import {
  describeStuck,
  describeWayDown,
  describeWindowSource,
  formatBytes,
  formatPercent,
  formatTokens,
  STATE_THE_WINDOW,
  WINDOW_PROVEN_WRONG,
} from './guard-text.js';
import type { Occupancy } from './occupancy.js';
import { clip, hardCut, wrap } from './text-budget.js';
import type { Tier } from './tiers.js';
import { describeAge, type ResolvedWindow } from './window.js';
import type { StalenessFacts } from './staleness.js';

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
  /** Tokens at which Claude Code compacts this session (compactionPointTokens: its default or the knobs' point). */
  compactAt?: number | undefined;
  /** The session's history (seed 004's fields): compactions so far and the newest checkpoint. */
  session?: MonitorSession | undefined;
  /** Seed 003 L4: the resumption section's staleness, when the project keeps an orchestration file. */
  staleness?: StalenessFacts | undefined;
  /** The most of the transcript a hook reads backwards (maxScanBytes): named when no usage lay within it. */
  maxScanBytes?: number | undefined;
  /** A compaction this monitor has not reported yet (said once per compaction): Claude Code's numbers for it. */
  compacted?: CompactionNumbers | undefined;
  /** The session's newest compaction left the context over the ceiling (judgeStuckAfterCompaction): /compact is no way down. */
  stuck?: StuckAfterCompaction | undefined;
};

export type { CompactionNumbers };

export type MonitorSession = {
  compactions: number;
  /** True when older checkpoints were left unread: the count is a lower bound. */
  atLeast?: boolean | undefined;
  last: { id: string; trigger: string | undefined; ageSeconds: number | undefined } | undefined;
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

/**
 * Within the seeds' budgets (NOMINAL and OVER_CEILING ≤ 100 tokens, WARNING and above, or the once-per-compaction
 * report, ≤ 200): when the full text is too long, the window is named by its source alone, then Claude Code's knob
 * sentence goes; the advice after a compaction that left the context over the ceiling (the way down, which must be
 * said whole) then drops the history line, then the `Left:` line, before anything is cut.
 */
export function renderMonitor(facts: MonitorFacts): string {
  // The report of a compaction is said once per compaction, like the compaction alert (≤ 500): it may take the 200.
  const calm = !facts.compacted && (facts.tier === 'NOMINAL' || facts.tier === 'OVER_CEILING' || facts.tier === 'UNKNOWN');
  const budget = (calm ? TOKEN_BUDGET.monitorCalm : TOKEN_BUDGET.monitorAlarm) * 4;
  const forms = facts.stuck ? FORMS : FORMS.slice(0, 3);
  let text = '';
  for (const form of forms) {
    text = monitorText(facts, form);
    if (text.length <= budget) return text;
  }
  return hardCut(text, budget);
}

/**
 * What the monitor found, for its verdict's reason (`monitor nominal`, `monitor unmeasured scan-cap`): the branch of
 * monitorText that worded it, so the debug channel tells a measured tier from a text that measured nothing.
 */
export function monitorState(facts: Pick<MonitorFacts, 'occupancy' | 'tier' | 'window'>): string {
  const { occupancy } = facts;
  if (occupancy.kind === 'unknown-since-compaction') return 'unknown-since-compaction';
  if (occupancy.kind === 'unavailable') return `unmeasured ${occupancy.reason}`;
  if (occupancy.tokens > facts.window.tokens) return 'over-window';
  return facts.tier.toLowerCase().replace('_', '-');
}

/** Longest first: each drops one more thing (see renderMonitor). */
const FORMS = ['full', 'short', 'shortest', 'no-history', 'no-left'] as const;
type Form = (typeof FORMS)[number];

function monitorText(facts: MonitorFacts, form: Form): string {
  const rank = FORMS.indexOf(form);
  // Both come from the project's policy file: text from outside like any other.
  const f = { ...facts, recoverySkill: clip(facts.recoverySkill, 80), orchestrationFile: clip(facts.orchestrationFile, 120) };
  const size = formatTokens(f.window.tokens);
  const from = form === 'full' ? describeWindowSource(f.window) : f.window.source;
  const lines: string[] = [];
  if (f.compacted) lines.push(describeCompaction(f.compacted));
  if (f.occupancy.kind === 'unknown-since-compaction') {
    lines.push(
      `Context unknown since compaction: Claude Code compacted this session and no turn has reported usage since. Tier UNKNOWN; ceiling ${f.ceilingPct}% of ${size} tokens (window: ${from}).`,
    );
  } else if (f.occupancy.kind === 'unavailable' && f.occupancy.reason === 'scan-cap' && f.maxScanBytes !== undefined) {
    // Turns may lie further back: the transcript ends in more than a hook reads with no usage in it (a huge line).
    lines.push(
      `Context not measured: no turn with usage in the last ${formatBytes(f.maxScanBytes)} of the transcript, the most a hook reads (maxScanBytes). Ceiling ${f.ceilingPct}% of ${size} tokens (window: ${from}).`,
    );
  } else if (f.occupancy.kind === 'unavailable' && f.occupancy.reason === 'unreadable') {
    lines.push(
      `Context not measured: the transcript cannot be read (no permission, or not a regular file). Ceiling ${f.ceilingPct}% of ${size} tokens (window: ${from}).`,
    );
  } else if (f.occupancy.kind === 'unavailable' || f.percent === undefined) {
    lines.push(
      `Context not measured yet (no assistant turn with usage in the transcript). Ceiling ${f.ceilingPct}% of ${size} tokens (window: ${from}).`,
    );
  } else if (f.occupancy.tokens > f.window.tokens) {
    lines.push(
      `Context ${formatTokens(f.occupancy.tokens)} tokens exceeds the ${size}-token window (${from}), ${WINDOW_PROVEN_WRONG} and no tier applies; the user should state it: ${STATE_THE_WINDOW}.`,
    );
  } else {
    const head = `Context ${formatPercent(f.percent)} (${formatTokens(f.occupancy.tokens)} of ${size} tokens, window: ${from}).`;
    // No skill installed is named 'compact' here (the caller's fallback): the way down then names none.
    const wayDown = () => describeWayDown(f.recoverySkill === 'compact' ? undefined : f.recoverySkill);
    const reads = f.tier === 'OVER_CEILING' ? '' : '; prefer targeted reads';
    if (f.tier === 'NOMINAL') lines.push(`${head} Tier NOMINAL; ceiling ${f.ceilingPct}%.`);
    else if (f.stuck && !f.compacted)
      // Issue 20: the newest compaction already left the context over the ceiling; another is the step just taken.
      lines.push(
        `${head} Tier ${f.tier}: ${describeStuck(f.stuck.postTokens, f.ceilingPct)}. Way down: ${wayDown()}. Load no new agents or skills${reads}.`,
      );
    else if (f.compacted || f.occupancy.source === 'compaction')
      // The compaction the recovery skill or a warning asks for has just happened and the result is still over the
      // ceiling: asking for it again is no way out (issue 20: never ask for the step just taken).
      lines.push(
        `${head} Tier ${f.tier}: still past the ${f.ceilingPct}% ceiling after a compaction; do not ask for /compact again, it was just done.${f.stuck ? ` Way down: ${wayDown()}.` : ''} Load no new agents or skills${reads}.`,
      );
    else if (f.tier === 'OVER_CEILING')
      lines.push(
        `${head} Tier OVER_CEILING: past the ${f.ceilingPct}% ceiling. Load no new agents or skills; run /${f.recoverySkill} after this step.`,
      );
    else {
      lines.push(`${head} Tier ${f.tier}${f.tier === 'EMERGENCY' ? ': compaction is imminent' : ''} (ceiling ${f.ceilingPct}%).`);
      lines.push('Recommended actions:', ...(MONITOR_ACTIONS[f.tier]?.(f) ?? []).map((action) => `- ${action}`));
    }
  }
  const left = rank < FORMS.indexOf('no-left') ? describeLeft(f) : undefined;
  if (left) lines.push(left);
  if (f.autocompact !== undefined && rank < FORMS.indexOf('shortest')) lines.push(describeAutocompact(f.autocompact, f.window.tokens));
  const history =
    rank < FORMS.indexOf('no-history') ? [describeSession(f.session), describeResumption(f.staleness)].filter(Boolean).join(' ') : '';
  if (history) lines.push(history);
  return wrap('context-monitor', lines);
}

/** Seed 004's "Estimated remaining": tokens to the ceiling and to Claude Code's compaction, when measured. */
function describeLeft(f: MonitorFacts): string | undefined {
  if (f.occupancy.kind !== 'measured' || f.occupancy.tokens > f.window.tokens) return undefined;
  const used = f.occupancy.tokens;
  const ceiling = Math.ceil((f.ceilingPct / 100) * f.window.tokens);
  const toCeiling = used < ceiling ? `${formatTokens(ceiling - used)} to the ceiling` : `${formatTokens(used - ceiling)} over the ceiling`;
  if (f.compactAt === undefined) return `Left: ${toCeiling}.`;
  const toCompaction =
    used < f.compactAt
      ? `${formatTokens(f.compactAt - used)} to Claude Code's compaction (~${formatTokens(f.compactAt)})`
      : 'Claude Code compacts before its next request';
  return `Left: ${toCeiling}; ${toCompaction}.`;
}

/** The compaction the monitor reports once: "Claude Code just compacted this session (auto compaction: 951,030 → 2,895 tokens)." */
function describeCompaction(c: CompactionNumbers): string {
  const what = triggerWords(c.trigger) ?? 'compaction';
  const numbers =
    c.preTokens !== undefined && c.postTokens !== undefined
      ? `: ${formatTokens(c.preTokens)} → ${formatTokens(c.postTokens)} tokens`
      : c.postTokens !== undefined
        ? `: ${formatTokens(c.postTokens)} tokens after it`
        : c.preTokens !== undefined
          ? `: ${formatTokens(c.preTokens)} tokens before it`
          : '';
  return `Claude Code just compacted this session (${what}${numbers}).`;
}

const TRIGGER_WORDS: Record<string, string> = { auto: 'auto compaction', manual: '/compact', skill: 'recovery skill' };

/** A trigger from a transcript or a checkpoint (outside text): only the table's own keys, never `constructor` and kin. */
const triggerWords = (trigger: string | undefined): string | undefined =>
  trigger !== undefined && Object.hasOwn(TRIGGER_WORDS, trigger) ? TRIGGER_WORDS[trigger] : undefined;

/** Seed 004's "Compaction events" and "Last checkpoint". */
function describeSession(s: MonitorSession | undefined): string | undefined {
  if (!s) return undefined;
  const count = `Compactions: ${s.atLeast ? '≥' : ''}${s.compactions}.`;
  if (!s.last) return `${count} Last checkpoint: none.`;
  const what = triggerWords(s.last.trigger) ?? 'unreadable';
  const age = s.last.ageSeconds === undefined ? '' : `, ${describeAge(s.last.ageSeconds)} ago`;
  return `${count} Last checkpoint: ${clip(s.last.id, 20)} (${what}${age}).`;
}

/** Seed 003 L4: "Resumption staleness: STALE/FRESH". */
function describeResumption(s: StalenessFacts | undefined): string | undefined {
  if (!s) return undefined;
  switch (s.kind) {
    case 'fresh':
      return 'Resumption: FRESH.';
    case 'stale':
      return `Resumption: STALE (${describeAge(s.ageMinutes * 60)} old).`;
    case 'unparseable':
      return 'Resumption: STALE (not valid YAML).';
    case 'no-resumption':
      return 'Resumption: STALE (no section).';
    case 'no-updated-at':
    case 'bad-updated-at':
      return 'Resumption: STALE (no updated_at).';
  }
}
