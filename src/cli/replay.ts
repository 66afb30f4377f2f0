/** `context-ceiling replay DIR...`: sweep candidate ceilings over recorded sessions, to pick one with evidence. */
import { type Dirent, readdirSync, type Stats, statSync } from 'node:fs';
import { basename, sep } from 'node:path';
import { join } from '../io/join-path.js';
import { BUN_FLOOR } from '../core/bun-floor.js';
import { NODE_AS_FAST_AS_BUN } from './replay-runtime.js';
import { formatBytes, formatTokens } from '../core/guard-text.js';
import { formatCount } from '../core/plural.js';
import { recordedTools, summarize, NEAR_DONE_TURNS, type ReplaySummary, type SessionAnalysis } from '../core/replay.js';
import { statedWindows } from '../core/window.js';
import { describeRecommendation } from './replay-recommendation.js';
import { claudeConfigDir } from '../io/locate.js';
import { claudeSettingsOf, loadValidConfig } from './project.js';
import { siblingBundle } from '../io/bundle-dir.js';
import { REPLAY_WORKER_BUNDLE } from './replay-file.js';
import { chooseJobs, replayFiles } from './replay-files.js';
import { renderReplayHtml } from '../core/replay-html.js';
import { sanitizeText } from '../core/sanitize.js';
import { writeFileAtomic } from '../io/fs-safe.js';
import type { CliIO, Command } from './command.js';
import { CliError, describeFsError, UsageError } from './errors.js';
import { parseFlags, parseWindowFlag } from './flags.js';
import { checkWritableFile, toJsonOutput } from './output.js';
import { cliMessage } from './messages.js';

/** What `--runtime` takes: Bun where it is installed and reads faster than this Node (the default), or Node always. */
const REPLAY_RUNTIMES = ['auto', 'node'];

const usage =
  'context-ceiling replay [DIR...] [--ceilings 20,30,40,50,60] [--window N] [--jobs N] [--runtime auto|node] [--html FILE] [--json]';

export const replayCommand: Command = {
  usage,
  help: `Usage: ${usage}

Reads every transcript under the given directories (default
~/.claude/projects), rebuilds each session's main-thread occupancy turn by
turn (sidechains and progress records excluded, compactions honoured) and
evaluates the guard at every recorded Agent/Task/Skill call, for each
candidate ceiling:

  sessions gated      sessions where at least one call was over the ceiling
  first gated call    median position (nth gated-tool call) and fill of the first
  gated loads         calls the guard would have warned about or blocked, by
                      tool, as the guard judges them (a tool the policy turns
                      "off" and recovery skills never count)
  near done           gated sessions that ended within ${NEAR_DONE_TURNS} turns of the first
  turns after first   median turns after the first gated call
  tokens after first  prompt and output tokens of the turns after it

plus the distribution of each session's peak occupancy and the compactions
seen. <session>/subagents/agent-*.jsonl are subagents, agent-acompact-* files
Claude Code's compaction summariser: neither is a session. Only records that
may decide are parsed (assistant turns, compactions, model attachments; a
line's type is read from its first bytes); unreadable files and such lines
that do not parse are counted, never fatal.

Options:
  --ceilings LIST   candidate ceilings in percent (default 20,30,40,50,60)
  --window N        judge every session against this window (default: each session's
                    own, from the configured window or its model, as the guard would)
  --jobs N          threads reading files (default: one per two idle CPUs, up
                    to 4, once there is more than 128 MiB to read: a thread
                    keeps about two CPUs busy; 1 reads everything
                    in this thread; the same threads under Bun)
  --runtime R       what runs the replay: auto (the default: Bun where \`bun\`
                    ${BUN_FLOOR} or newer is on the PATH and Node is older than
                    ${NODE_AS_FAST_AS_BUN}, which Bun outreads; it is handed the whole run with
                    the same arguments and output, else Node runs it; a Bun that
                    cannot take it leaves the run to Node) or node (Node always)
  --html FILE       also write the history as a self-contained HTML page (inline SVG,
                    no network): the summary, the recommendation, each candidate's
                    share of sessions gated and first gated fill, the table, the peaks
  --json            one JSON object instead of the table
`,
  async run(args, io) {
    const flags = parseFlags(args, { string: ['ceilings', 'window', 'jobs', 'runtime', 'html'], boolean: ['json'] }, usage);
    // What runs it was decided before this code loaded (cli/replay-runtime.ts): here the value is only checked.
    if (flags.runtime !== undefined && !REPLAY_RUNTIMES.includes(flags.runtime))
      throw new UsageError(cliMessage('replay.runtime-invalid', { got: flags.runtime }), usage);
    if (flags.html) checkWritableFile(flags.html);
    const ceilings = parseCeilings(flags.ceilings);
    const config = loadValidConfig(io);
    const flagWindow = parseWindowFlag(flags.window, usage);
    const stated = flagWindow ? { stated: flagWindow } : statedWindows(config);
    const { env } = claudeSettingsOf(io);
    const dirs = flags._.length > 0 ? flags._.map(String) : [join(claudeConfigDir(io.env, io.home), 'projects')];
    const files = discover(dirs);
    const sessions = files.filter((f) => f.kind === 'session');
    const totalBytes = sessions.reduce((sum, f) => sum + f.size, 0);
    const progress = createProgress(io, totalBytes, sessions.length);
    const started = process.hrtime.bigint();
    const setup = { gated: [...recordedTools(config.policy)], stated, env, ceilings, policy: config.policy };
    const jobs = chooseJobs(parseJobs(flags.jobs), sessions.length, totalBytes);
    const { results: replayed, threads } = await replayFiles(sessions, setup, jobs, siblingBundle(REPLAY_WORKER_BUNDLE), (index) =>
      progress.advance(sessions[index]!.size),
    );
    const analyses: SessionAnalysis[] = [];
    let unreadable = 0;
    let corruptLines = 0;
    let oversizedLines = 0;
    let bytes = 0;
    for (const file of replayed) {
      if (!file) {
        unreadable += 1;
        continue;
      }
      corruptLines += file.scan.corruptLines;
      oversizedLines += file.scan.oversizedLines;
      bytes += file.scan.bytes;
      analyses.push(file.analysis);
    }
    progress.done();
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const summary = summarize(analyses, ceilings);
    const report = {
      files: {
        sessions: sessions.length,
        subagents: files.filter((f) => f.kind === 'subagent').length,
        summarisers: files.filter((f) => f.kind === 'summariser').length,
      },
      bytes,
      seconds: Math.round(seconds * 1000) / 1000,
      threads,
      corrupt: { unreadableFiles: unreadable, lines: corruptLines, oversizedLines },
      ...summary,
    };
    if (flags.html) {
      try {
        writeFileAtomic(flags.html, renderHtml(report, summary, config.policy.ceilingPct), 0o644);
      } catch (error) {
        throw new CliError(cliMessage('report.cannot-write', { path: flags.html, reason: describeFsError(error) }));
      }
    }
    io.out(flags.json ? toJsonOutput({ ...report, html: flags.html ?? null }) : renderReport(report, summary, config.policy.ceilingPct));
    if (flags.html && !flags.json) io.out(`${cliMessage('report.html-written', { path: sanitizeText(flags.html) })}\n`);
    return 0;
  },
};

function parseCeilings(raw: string | undefined): number[] {
  if (raw === undefined) return [20, 30, 40, 50, 60];
  const values = raw.split(',').map((v) => v.trim());
  if (values.some((v) => !/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 100))
    throw new UsageError(cliMessage('replay.ceilings-invalid', { got: raw }), usage);
  return [...new Set(values.map(Number))].sort((a, b) => a - b);
}

function parseJobs(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 64)
    throw new UsageError(cliMessage('replay.jobs-invalid', { got: raw }), usage);
  return Number(raw);
}

type Found = { path: string; size: number; kind: 'session' | 'subagent' | 'summariser' };

/** Every .jsonl below the directories (a file argument counts as itself); one that cannot be read is kept, to be counted. */
function discover(roots: string[]): Found[] {
  const found: Found[] = [];
  const add = (path: string) => {
    let size = 0;
    try {
      size = statSync(path).size;
    } catch {
      // a dangling link or a file gone: the scan will count it as unreadable
    }
    found.push({ path, size, kind: classify(path) });
  };
  const visit = (dir: string, depth: number) => {
    if (depth > 6) return;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    // By code unit, not localeCompare: the same order under every locale, and localeCompare's first call builds
    // ICU's collator (69 M instructions, about 4 % of a replay of 400 MiB).
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path, depth + 1);
      else if (entry.name.endsWith('.jsonl')) add(path);
    }
  };
  for (const root of roots) {
    let stat: Stats;
    try {
      stat = statSync(root);
    } catch {
      throw new CliError(cliMessage('replay.no-such-path', { path: root }));
    }
    if (stat.isDirectory()) visit(root, 0);
    else add(root);
  }
  return found;
}

/** A session's own files live under `<session>/subagents/` (agents, workflow runs and their journals): never sessions. */
function classify(path: string): Found['kind'] {
  const name = basename(path);
  if (name.startsWith('agent-acompact')) return 'summariser';
  if (name.startsWith('agent-') || path.split(sep).includes('subagents')) return 'subagent';
  return 'session';
}

function createProgress(io: CliIO, totalBytes: number, totalFiles: number) {
  let done = 0;
  let files = 0;
  let lastDraw = 0;
  let lastDecile = 0;
  let shownFiles = 0;
  // A bar redrawn with \r only where it is drawn, a terminal on stderr, and never under CI, whose logs keep every \r.
  const tty = io.stderrIsTTY === true && io.env.CI === undefined;
  const draw = (final: boolean) => {
    const fraction = totalBytes === 0 ? 1 : done / totalBytes;
    if (tty) {
      const width = 30;
      const filled = Math.round(fraction * width);
      io.err(
        `\rreplay [${'#'.repeat(filled)}${' '.repeat(width - filled)}] ${Math.floor(fraction * 100)}% ${files}/${totalFiles} files${final ? '\n' : ''}`,
      );
    } else {
      const decile = Math.floor(fraction * 10);
      // The last line always counts every file, even when empty ones finish after the bytes reached 100 %.
      if (decile > lastDecile || (final && shownFiles !== files)) {
        io.err(
          `replay: ${Math.floor(fraction * 100)}% (${formatBytes(done)} of ${formatBytes(totalBytes)}, ${files} of ${totalFiles} files)\n`,
        );
        lastDecile = decile;
        shownFiles = files;
      }
    }
  };
  return {
    advance(bytes: number) {
      done += bytes;
      files += 1;
      const now = Date.now();
      if (!tty || now - lastDraw > 100) {
        lastDraw = now;
        draw(false);
      }
    },
    done() {
      if (totalFiles > 0) draw(true);
    },
  };
}

type Report = {
  files: { sessions: number; subagents: number; summarisers: number };
  bytes: number;
  seconds: number;
  corrupt: { unreadableFiles: number; lines: number; oversizedLines: number };
};

/** What replay says, in pieces the terminal table and the HTML page both use. */
function replayPieces(r: Report, s: ReplaySummary, currentCeiling: number) {
  const lines: string[] = [];
  const rate = r.seconds > 0 ? ` (${formatBytes(r.bytes / r.seconds)}/s)` : '';
  lines.push(
    cliMessage('replay.replayed', {
      sessions: formatCount(s.sessions, 'session'),
      bytes: formatBytes(r.bytes),
      seconds: r.seconds.toFixed(1),
      rate,
      subagents: formatCount(r.files.subagents, 'subagent file'),
      summarisers: formatCount(r.files.summarisers, 'summariser file'),
    }),
  );
  const windows = s.windows.map((w) =>
    cliMessage('replay.window-entry', {
      sessions: formatCount(w.sessions, 'session'),
      tokens: formatTokens(w.tokens),
      from: w.detail ? `${w.source} ${w.detail}` : w.source,
      assumed: !w.verified,
    }),
  );
  lines.push(cliMessage('replay.windows', { windows, sessions: formatCount(s.sessionsWithCalls, 'session') }));
  lines.push(cliMessage('replay.compactions', { count: s.compactions, sessions: formatCount(s.sessionsCompacted, 'session') }));
  if (s.peak)
    lines.push(cliMessage('replay.peak', { p50: pct(s.peak.p50), p90: pct(s.peak.p90), p99: pct(s.peak.p99), max: pct(s.peak.max) }));
  lines.push(
    `  by band: ${
      s.peakHistogram
        .map((n, i) => `${i === 10 ? '100+' : `${i * 10}-${i * 10 + 9}`}%: ${n}`)
        .filter((_, i) => s.peakHistogram[i]! > 0)
        .join(', ') || cliMessage('replay.no-measured-sessions')
    }`,
  );
  const header = ['ceiling', 'sessions gated', 'first gated (median)', 'gated loads (by tool)', 'near done', 'turns after', 'tokens after'];
  const rows = s.ceilings.map((c) => [
    `${c.ceiling}%`,
    `${c.sessionsGated}${s.sessions ? ` (${Math.round((c.sessionsGated / s.sessions) * 100)}%)` : ''}`,
    c.medianFirstCall === undefined ? '-' : `call #${c.medianFirstCall} at ${pct(c.medianFirstPercent!)}`,
    `${c.gatedLoads}${
      c.gatedLoads
        ? ` (${Object.entries(c.gatedByTool)
            .map(([tool, n]) => `${tool} ${n}`)
            .join(', ')}${c.blockedLoads ? `; ${c.blockedLoads} blocked` : ''})`
        : ''
    }`,
    String(c.nearDone),
    c.medianTurnsAfterFirst === undefined ? '-' : String(c.medianTurnsAfterFirst),
    formatCompact(c.tokensAfterFirst),
  ]);
  const corrupt = cliMessage('replay.corrupt', {
    files: formatCount(r.corrupt.unreadableFiles, 'unreadable file'),
    lines: formatCount(r.corrupt.lines, 'line'),
    oversized: formatCount(r.corrupt.oversizedLines, 'line'),
  });
  return { lines, header, rows, recommendation: describeRecommendation(s, currentCeiling), corrupt };
}

function renderReport(r: Report, s: ReplaySummary, currentCeiling: number): string {
  const { lines, header, rows, recommendation, corrupt } = replayPieces(r, s, currentCeiling);
  lines.push('');
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  for (const row of [header, ...rows])
    lines.push(
      row
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    );
  lines.push('', recommendation, '', corrupt);
  return `${lines.join('\n')}\n`;
}

/** The same history as one HTML page (core/replay-html.ts). */
function renderHtml(r: Report, s: ReplaySummary, currentCeiling: number): string {
  const { lines, header, rows, recommendation, corrupt } = replayPieces(r, s, currentCeiling);
  return renderReplayHtml({
    title: `Replay of ${formatCount(s.sessions, 'session')}`,
    lines: lines.map((line) => line.trim()),
    recommendation,
    header,
    rows,
    ceilings: s.ceilings.map((c) => ({
      ceiling: c.ceiling,
      gatedShare: s.sessions ? (c.sessionsGated / s.sessions) * 100 : 0,
      medianFirstPercent: c.medianFirstPercent,
    })),
    recommended: s.recommendation.kind === 'protects' ? s.recommendation.ceiling : undefined,
    peakHistogram: s.peakHistogram,
    corrupt,
  });
}

function pct(value: number): string {
  return `${Math.round(value)}%`;
}

function formatCompact(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(1)} G`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)} k`;
  return String(n);
}
