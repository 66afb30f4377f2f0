/**
 * `context-ceiling events`: the guard's warnings and blocks, from the event log in the private state
 * directory. In `claude -p` and the Agent SDK the person sees no hook output at all, so a CI job prints
 * this (`events --summary`) after the run.
 */
import { formatPercent, formatTokens } from '../core/guard-text.js';
import { formatCount } from '../core/plural.js';
import { sanitizeText } from '../core/sanitize.js';
import { readEvents, type GuardEvent } from '../events/log.js';
import { resolveStateDir } from '../io/state.js';
import { claudeSettingsOf, loadValidConfig } from './project.js';
import type { Command } from './command.js';
import { UsageError } from './errors.js';
import { parseFlags } from './flags.js';
import { toJsonOutput } from './output.js';
import { cliMessage } from './messages.js';

const usage = 'context-ceiling events [--session ID] [--since TIME] [--summary] [--json]';

export const eventsCommand: Command = {
  usage,
  help: `Usage: ${usage}

Every warning and block the guard gave, oldest first, from events.jsonl in the
private state directory (${'$'}XDG_STATE_HOME/context-ceiling, else
~/.local/state/context-ceiling). Print mode (claude -p) and the Agent SDK show
the person no hook output, so this is where a CI job sees what happened:

  context-ceiling events --summary --since "$RUN_STARTED"

Options:
  --session ID    only this session's events
  --since TIME    only events at or after TIME (an ISO time, or 30m, 2h, 1d ago)
  --summary       one line: how many blocks and warnings, in how many sessions
  --json          the events as one JSON array (with --summary: the counts)
`,
  run(args, io) {
    const flags = parseFlags(args, { string: ['session', 'since'], boolean: ['summary', 'json'] }, usage);
    if (flags._.length > 0) throw new UsageError(cliMessage('unexpected-argument', { arg: String(flags._[0]) }), usage);
    const since = flags.since === undefined ? undefined : parseSince(flags.since, new Date());
    if (since === null) throw new UsageError(cliMessage('events.since-invalid', { got: flags.since! }), usage);
    const config = loadValidConfig(io);
    const stateDir = resolveStateDir({ policy: config.policy, env: claudeSettingsOf(io).env, home: io.home });
    const events = readEvents(stateDir).filter(
      (e) => (flags.session === undefined || e.session === flags.session) && (since === undefined || Date.parse(e.at) >= since),
    );
    const counts = countEvents(events);
    if (flags.summary) io.out(flags.json ? toJsonOutput(counts) : `${summaryLine(counts, flags.since)}\n`);
    else if (flags.json) io.out(toJsonOutput(events));
    else io.out(renderEvents(events));
    return 0;
  },
};

type EventCounts = { blocks: number; warnings: number; sessions: number; highest: GuardEvent | undefined };

export function countEvents(events: readonly GuardEvent[]): EventCounts {
  let highest: GuardEvent | undefined;
  for (const e of events) if (e.percent !== undefined && (highest?.percent === undefined || e.percent > highest.percent)) highest = e;
  return {
    blocks: events.filter((e) => e.outcome === 'block').length,
    warnings: events.filter((e) => e.outcome === 'warn').length,
    sessions: new Set(events.map((e) => e.session)).size,
    highest,
  };
}

/** `context-ceiling: 1 block and 2 warnings in 1 session since …; highest 47% of 1,000,000 (model claude-opus-5-5).` */
export function summaryLine(counts: EventCounts, since: string | undefined): string {
  const when = since === undefined ? '' : cliMessage('events.since', { since: sanitizeText(since) });
  if (counts.blocks + counts.warnings === 0) return cliMessage('events.none', { when });
  const h = counts.highest;
  return cliMessage('events.summary', {
    blocks: formatCount(counts.blocks, 'block'),
    warnings: formatCount(counts.warnings, 'warning'),
    sessions: formatCount(counts.sessions, 'session'),
    when,
    highest:
      h?.percent === undefined ? '' : cliMessage('events.highest', { pct: formatPercent(h.percent), window: describeEventWindow(h) }),
  });
}

function renderEvents(events: readonly GuardEvent[]): string {
  if (events.length === 0) return `${cliMessage('events.empty')}\n`;
  const rows = events.map((e) => [
    e.at.replace('T', ' ').replace(/\.\d+Z$/, 'Z'),
    e.session.slice(0, 8),
    e.outcome,
    e.target ? `${e.tool} ${e.target}` : e.tool,
    e.percent === undefined ? '?' : formatPercent(e.percent),
    describeEventWindow(e),
  ]);
  const table = [['time', 'session', 'outcome', 'call', 'fill', 'window'], ...rows].map((row) => row.map((cell) => sanitizeText(cell)));
  const widths = table[0]!.map((_, col) => Math.max(...table.map((row) => row[col]!.length)));
  return table
    .map((row) => `${row.map((cell, col) => (col === row.length - 1 ? cell : cell.padEnd(widths[col]! + 2))).join('')}\n`)
    .join('');
}

function describeEventWindow(e: GuardEvent): string {
  return `${formatTokens(e.window.tokens)} (${e.window.detail ? `${e.window.source} ${e.window.detail}` : e.window.source})`;
}

/** An ISO time, or a span back from now (`30m`, `2h`, `1d`); null when it is neither. */
export function parseSince(raw: string, now: Date): number | null {
  const span = /^(\d{1,6})([smhd])$/.exec(raw.trim());
  if (span) return now.getTime() - Number(span[1]) * { s: 1e3, m: 6e4, h: 3.6e6, d: 8.64e7 }[span[2] as 's' | 'm' | 'h' | 'd'];
  const time = Date.parse(raw);
  return Number.isFinite(time) ? time : null;
}
