/** `context-ceiling status`: the numbers behind the guard, for one transcript. */
import { judgeCall, resolveToolAction, type Verdict } from '../core/ceiling.js';
import {
  AUTOCOMPACT_PCT_ENV,
  AUTOCOMPACT_WINDOW_ENV,
  compactionPointTokens,
  describeAutocompact,
  resolveAutocompact,
  type AutocompactPoint,
} from '../core/autocompact.js';
import { sanitizeText } from '../core/sanitize.js';
import type { EffectiveEnv } from '../core/settings-env.js';
import { describeAssumption, describeWindowSource, formatPercent, formatTokens } from '../core/guard-text.js';
import type { Occupancy } from '../core/occupancy.js';
import { computePercent, computeTier, sessionTiers } from '../core/tiers.js';
import { describeSource } from '../core/policy.js';
import { statSync } from 'node:fs';
import { basename } from 'node:path';
import type { ResolvedWindow } from '../core/window.js';
import { formatCount } from '../core/plural.js';
import type { LoadedConfig } from '../io/config.js';
import { readEvents } from '../events/log.js';
import { readLastError, resolveStateDir, type LastError } from '../io/state.js';
import { claudeSettingsOf, loadValidConfig, projectDirOf, sessionWindowOf } from './project.js';
import { findSessionTranscript, newestTranscript, projectTranscriptDir } from '../io/locate.js';
import { readOccupancy } from '../io/transcript.js';
import type { CliIO, Command } from './command.js';
import { CliError, describeFsError, UsageError } from './errors.js';
import { parseFlags } from './flags.js';
import { toJsonOutput } from './output.js';
import { type CliMessageId, cliMessage } from './messages.js';

const usage = 'context-ceiling status [--transcript FILE | --session ID] [--json]';

export const statusCommand: Command = {
  usage,
  help: `Usage: ${usage}

Measures the context occupancy of one Claude Code session from its
transcript and shows the window (and where it came from), the percent,
the tier, the tokens left before the ceiling and before Claude Code's own
compaction, what the guard would do now for every gated tool (Agent, Task,
Skill, Workflow), and where Claude Code itself will compact when
CLAUDE_AUTOCOMPACT_PCT_OVERRIDE or CLAUDE_CODE_AUTO_COMPACT_WINDOW sets that point.

Settings are read as the hooks get them: the "env" blocks of
.claude/settings.local.json, .claude/settings.json and
~/.claude/settings.json (in that order of precedence) over the
environment, as Claude Code applies them.

With no option it reads the newest transcript of the current project under
~/.claude/projects/ (CLAUDE_PROJECT_DIR, else the current directory).

Options:
  --transcript FILE   read this transcript
  --session ID        read <ID>.jsonl of this project (or of any project)
  --json              one JSON object: occupancy, window, windowSource,
                      percent, tier, verdicts, autocompact, ...
`,
  run(args, io) {
    const flags = parseFlags(args, { string: ['transcript', 'session'], boolean: ['json'] }, usage);
    if (flags._.length > 0) throw new UsageError(cliMessage('unexpected-argument', { arg: String(flags._[0]) }), usage);
    if (flags.transcript && flags.session) throw new UsageError(cliMessage('both-transcript-and-session'), usage);
    const projectDir = projectDirOf(io);
    const config = loadValidConfig(io);
    const transcript = locate(flags.transcript, flags.session, io, projectDir);
    try {
      statSync(transcript);
    } catch (error) {
      throw new CliError(cliMessage('cannot-read', { path: transcript, reason: describeFsError(error) }));
    }
    const report = buildStatus(transcript, config, claudeSettingsOf(io), io);
    if (report.error) throw new CliError(cliMessage('cannot-read', { path: transcript, reason: report.error }));
    io.out(flags.json ? toJsonOutput(report.json) : renderStatus(report));
    for (const warning of config.warnings) io.err(`${cliMessage('warning', { warning })}\n`);
    return 0;
  },
};

function locate(transcript: string | undefined, session: string | undefined, io: CliIO, projectDir: string): string {
  if (transcript) return transcript;
  if (session) {
    const found = findSessionTranscript(io.env, io.home, projectDir, session);
    if (!found)
      throw new CliError(cliMessage('no-session-transcript', { session, dir: projectTranscriptDir(io.env, io.home, projectDir) }));
    return found;
  }
  const dir = projectTranscriptDir(io.env, io.home, projectDir);
  const newest = newestTranscript(dir);
  if (!newest) throw new CliError(cliMessage('no-transcript-found', { dir }));
  return newest;
}

type StatusReport = {
  transcript: string;
  occupancy: Occupancy;
  /** What the guard would do now for each tool the policy gates (and recovery skills, never gated). */
  verdicts: Record<string, Verdict>;
  /** The warnings and blocks the event log holds for this session. */
  events: { blocks: number; warnings: number; session: string };
  window: ResolvedWindow;
  config: LoadedConfig;
  autocompact: AutocompactPoint | undefined;
  /** The settings file that set Claude Code's compaction point, when not the process environment. */
  autocompactFrom: string | undefined;
  /** A hook's last unexpected failure (runtime/run.ts), if any. */
  lastError: LastError | undefined;
  error: string | undefined;
  json: Record<string, unknown>;
};

export function buildStatus(transcript: string, config: LoadedConfig, { env, origins }: EffectiveEnv, io: CliIO): StatusReport {
  const { policy } = config;
  const measurement = readOccupancy(transcript, { maxScanBytes: policy.maxScanBytes });
  const window = sessionWindowOf(io, config, transcript, measurement);
  const autocompact = resolveAutocompact(env);
  const facts = { occupancy: measurement.occupancy, window, compactAt: compactionPointTokens(autocompact, window.tokens) };
  const gated = Object.keys(policy.tools).filter((tool) => resolveToolAction(tool, policy) !== 'off');
  const verdicts = Object.fromEntries(gated.map((tool) => [tool, judgeCall({ tool }, policy, () => facts)]));
  const occupancyTokens = measurement.occupancy.kind === 'measured' ? measurement.occupancy.tokens : undefined;
  const percent = occupancyTokens === undefined ? undefined : computePercent(occupancyTokens, window.tokens);
  const tier = computeTier(percent, sessionTiers(policy, window.tokens, compactionPointTokens(autocompact, window.tokens)));
  const session = basename(transcript, '.jsonl');
  const stateDir = resolveStateDir({ policy, env, home: io.home });
  const logged = readEvents(stateDir).filter((e) => e.session === session);
  const lastError = readLastError(stateDir);
  const events = {
    blocks: logged.filter((e) => e.outcome === 'block').length,
    warnings: logged.filter((e) => e.outcome === 'warn').length,
  };
  const autocompactFrom = [AUTOCOMPACT_PCT_ENV, AUTOCOMPACT_WINDOW_ENV].map((name) => origins[name]).find((origin) => origin !== undefined);
  const occupancy = measurement.occupancy;
  return {
    transcript,
    occupancy,
    verdicts,
    window,
    events: { ...events, session },
    config,
    autocompact,
    autocompactFrom,
    lastError,
    error: measurement.error,
    json: {
      transcript,
      occupancy: occupancyTokens ?? null,
      occupancyState: occupancy.kind,
      occupancySource: occupancy.kind === 'measured' ? occupancy.source : null,
      window: window.tokens,
      windowSource: window.source,
      windowVerified: window.verified,
      // For a window from a settings file's env, the file (as config show names it).
      windowDetail: window.detail ?? (window.source === 'env' ? config.sources.window?.detail : undefined) ?? null,
      windowDisproved: window.disproved ? { tokens: window.disproved.tokens, source: window.disproved.source } : null,
      percent: percent === undefined ? null : Math.round(percent * 100) / 100,
      ceilingPct: policy.ceilingPct,
      strict: policy.strict,
      strictSource: describeSource(config.sources.strict!),
      enabled: policy.enabled,
      tier,
      verdicts: Object.fromEntries(Object.entries(verdicts).map(([tool, v]) => [tool, { kind: v.kind, messageId: v.messageId }])),
      events,
      // Seed 004's "estimated remaining": tokens to the ceiling (negative: over it) and to Claude Code's compaction.
      compactAt: compactionPointTokens(autocompact, window.tokens),
      tokensToCeiling: occupancyTokens === undefined ? null : Math.ceil((policy.ceilingPct / 100) * window.tokens) - occupancyTokens,
      tokensToCompaction: occupancyTokens === undefined ? null : compactionPointTokens(autocompact, window.tokens) - occupancyTokens,
      autocompactPct: autocompact?.pct ?? null,
      autocompactWindow: autocompact?.windowTokens ?? null,
      lastError: lastError ?? null,
    },
  };
}

function renderStatus(report: StatusReport): string {
  const { occupancy, verdicts, config, window } = report;
  const { policy, sources } = config;
  const percent = report.json.percent as number | null;
  const tier = report.json.tier as string;
  /** A third element `true`: the value is ours alone (a number we formatted), shown as is. */
  const rows: Array<[string, string] | [string, string, true]> = [['Transcript', report.transcript]];
  rows.push(['Occupancy', describeOccupancy(occupancy)]);
  const windowFrom = describeWindowSource(window, sources.window && describeSource(sources.window));
  rows.push([
    'Window',
    cliMessage('status.window', {
      tokens: formatTokens(window.tokens),
      from: windowFrom,
      assumed: !window.verified,
      why: describeAssumption(window),
    }),
  ]);
  // Ours alone: the sanitiser would turn the `<` of `<1%` into `‹`.
  rows.push(['Percent', percent === null ? 'unknown' : formatPercent(percent), true]);
  rows.push([
    'Ceiling',
    cliMessage('status.ceiling', {
      pct: policy.ceilingPct,
      pctFrom: describeSource(sources.ceilingPct!),
      strict: policy.strict,
      strictFrom: describeSource(sources.strict!),
      enabled: policy.enabled,
    }),
  ]);
  rows.push(['Tier', tier]);
  const toCeiling = report.json.tokensToCeiling as number | null;
  const toCompaction = report.json.tokensToCompaction as number | null;
  if (toCeiling !== null && toCompaction !== null)
    rows.push([
      'Left',
      cliMessage('status.left', {
        toCeiling: formatTokens(Math.abs(toCeiling)),
        over: toCeiling <= 0,
        toCompaction: formatTokens(Math.max(0, toCompaction)),
        due: toCompaction <= 0,
        compactAt: formatTokens(report.json.compactAt as number),
      }),
    ]);
  rows.push([
    'Events',
    cliMessage('status.events', {
      blocks: formatCount(report.events.blocks, 'block'),
      warnings: formatCount(report.events.warnings, 'warning'),
      session: report.events.session,
    }),
  ]);
  const guardNow = Object.entries(verdicts).map(([tool, verdict]) => `${tool}: ${verdictWord(verdict)}`);
  rows.push(['Guard now', cliMessage('status.guard-now', { tools: guardNow })]);
  if (report.autocompact !== undefined)
    rows.push([
      'Autocompact',
      `${describeAutocompact(report.autocompact, window.tokens)}${report.autocompactFrom ? cliMessage('autocompact-set-in', { origin: report.autocompactFrom }) : ''}`,
    ]);
  if (report.lastError) rows.push(['Last error', cliMessage('status.last-error', report.lastError)]);
  if (window.disproved)
    rows.push([
      'Note',
      cliMessage('status.window-disproved', {
        tokens: formatTokens(window.disproved.tokens),
        from: describeWindowSource(window.disproved),
      }),
    ]);
  // Paths, model ids and settings file names come from outside: one sanitiser before the terminal.
  return `${rows.map(([label, value, ours]) => `${label.padEnd(12)}${ours ? value : sanitizeText(value)}`).join('\n')}\n`;
}

function describeOccupancy(occupancy: Occupancy): string {
  switch (occupancy.kind) {
    case 'measured':
      return cliMessage(occupancy.source === 'usage' ? 'status.occupancy-usage' : 'status.occupancy-compaction', {
        tokens: formatTokens(occupancy.tokens),
      });
    case 'unknown-since-compaction':
      return cliMessage('status.unknown-since-compaction');
    case 'unavailable':
      return cliMessage(UNAVAILABLE[occupancy.reason]);
  }
}

/** Why nothing was measured, as `status` says it (a transcript not there yet has no turn yet). */
const UNAVAILABLE = {
  'no-transcript': 'status.unavailable-no-usage',
  'no-usage': 'status.unavailable-no-usage',
  'scan-cap': 'status.unavailable-scan-cap',
  unreadable: 'status.unavailable-unreadable',
} as const satisfies Record<Extract<Occupancy, { kind: 'unavailable' }>['reason'], CliMessageId>;

function verdictWord(verdict: Verdict): string {
  if (verdict.kind === 'allow') return cliMessage('status.verdict-allow', { messageId: verdict.messageId });
  return verdict.messageId === 'over-ceiling-assumed-window' ? cliMessage('status.verdict-assumed', { kind: verdict.kind }) : verdict.kind;
}
