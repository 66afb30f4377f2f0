/** `context-ceiling status`: the numbers behind the guard, for one transcript. */
import { judgeCeiling, type Verdict } from '../core/ceiling.js';
import { AUTOCOMPACT_PCT_ENV, AUTOCOMPACT_WINDOW_ENV, describeAutocompact, resolveAutocompact, type AutocompactPoint } from '../core/autocompact.js';
import { sanitizeText } from '../core/sanitize.js';
import type { EffectiveEnv } from '../core/settings-env.js';
import { ASSUMED_WINDOW_ADVICE, describeWindowSource, formatPercent, formatTokens, WINDOW_PROVEN_WRONG } from '../core/messages.js';
import type { Occupancy } from '../core/occupancy.js';
import { describeSource } from '../core/policy.js';
import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { sessionWindow } from '../hooks/context.js';
import { windowFromConfig } from '../core/window.js';
import type { LoadedConfig } from '../io/config.js';
import { claudeSettingsOf, loadValidConfig, projectDirOf } from './context.js';
import { findSessionTranscript, newestTranscript, projectTranscriptDir } from '../io/locate.js';
import { readOccupancy } from '../io/transcript.js';
import { CliError, describeFsError, parseFlags, UsageError, type CliIO, type Command, toJsonOutput } from './io.js';

const usage = 'context-ceiling status [--transcript FILE | --session ID] [--json]';

export const statusCommand: Command = {
  summary: 'occupancy, window, tier and what the guard would do now',
  usage,
  help: `Usage: ${usage}

Measures the context occupancy of one Claude Code session from its
transcript and shows the window (and where it came from), the percent,
the tier, what the guard would do now for an Agent and a Skill call, and
where Claude Code itself will compact when CLAUDE_AUTOCOMPACT_PCT_OVERRIDE
or CLAUDE_CODE_AUTO_COMPACT_WINDOW sets that point.

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
    if (flags._.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(String(flags._[0]))}`, usage);
    if (flags.transcript && flags.session) throw new UsageError('give --transcript or --session, not both', usage);
    const projectDir = projectDirOf(io);
    const config = loadValidConfig(io);
    const transcript = locate(flags.transcript, flags.session, io, projectDir);
    try {
      statSync(transcript);
    } catch (error) {
      throw new CliError(`cannot read ${transcript}: ${describeFsError(error)}`);
    }
    const report = buildStatus(transcript, config, claudeSettingsOf(io));
    if (report.error) throw new CliError(`cannot read ${transcript}: ${report.error}`);
    io.out(flags.json ? toJsonOutput(report.json) : renderStatus(report));
    for (const warning of config.warnings) io.err(`context-ceiling: warning: ${warning}\n`);
    return 0;
  },
};

function locate(transcript: string | undefined, session: string | undefined, io: CliIO, projectDir: string): string {
  if (transcript) return transcript;
  if (session) {
    const found = findSessionTranscript(io.env, io.home, projectDir, session);
    if (!found) throw new CliError(`no transcript for session ${session} under ${projectTranscriptDir(io.env, io.home, projectDir)} or any other project`);
    return found;
  }
  const dir = projectTranscriptDir(io.env, io.home, projectDir);
  const newest = newestTranscript(dir);
  if (!newest) throw new CliError(`no transcript found in ${dir}; run inside a Claude Code project or pass --transcript FILE`);
  return newest;
}

type StatusReport = {
  transcript: string;
  occupancy: Occupancy;
  verdicts: { Agent: Verdict; Skill: Verdict };
  config: LoadedConfig;
  autocompact: AutocompactPoint | undefined;
  /** The settings file that set Claude Code's compaction point, when not the process environment. */
  autocompactFrom: string | undefined;
  error: string | undefined;
  json: Record<string, unknown>;
};

export function buildStatus(transcript: string, config: LoadedConfig, { env, origins }: EffectiveEnv): StatusReport {
  const { policy } = config;
  const measurement = readOccupancy(transcript, { maxScanBytes: policy.maxScanBytes });
  // The transcript's file name is its session id: the key of the status line bridge.
  const window = sessionWindow({ window: windowFromConfig(config), policy }, new Date(), basename(transcript, '.jsonl'), measurement.model);
  const judge = (toolName: string) => judgeCeiling({ toolName, toolInput: {}, occupancy: measurement.occupancy, window, policy });
  const verdicts = { Agent: judge('Agent'), Skill: judge('Skill') };
  const { data, tier } = verdicts.Agent;
  const autocompact = resolveAutocompact(env);
  const autocompactFrom = [AUTOCOMPACT_PCT_ENV, AUTOCOMPACT_WINDOW_ENV].map((name) => origins[name]).find((origin) => origin !== undefined);
  const occupancy = measurement.occupancy;
  return {
    transcript,
    occupancy,
    verdicts,
    config,
    autocompact,
    autocompactFrom,
    error: measurement.error,
    json: {
      transcript,
      occupancy: data.occupancy ?? null,
      occupancyState: occupancy.kind,
      occupancySource: occupancy.kind === 'measured' ? occupancy.source : null,
      window: window.tokens,
      windowSource: window.source,
      // For a window from a settings file's env, the file (as config show names it).
      windowDetail: window.detail ?? (window.source === 'env' ? config.sources.window?.detail : undefined) ?? null,
      percent: data.percent === undefined ? null : Math.round(data.percent * 100) / 100,
      ceilingPct: policy.ceilingPct,
      strict: policy.strict,
      strictSource: describeSource(config.sources.strict!),
      enabled: policy.enabled,
      tier,
      verdicts: Object.fromEntries(Object.entries(verdicts).map(([tool, v]) => [tool, { kind: v.kind, messageId: v.messageId }])),
      autocompactPct: autocompact?.pct ?? null,
      autocompactWindow: autocompact?.windowTokens ?? null,
    },
  };
}

function renderStatus(report: StatusReport): string {
  const { occupancy, verdicts, config } = report;
  const { data, tier } = verdicts.Agent;
  const { policy, sources } = config;
  const window = data.window;
  const rows: Array<[string, string]> = [['Transcript', report.transcript]];
  rows.push(['Occupancy', describeOccupancy(occupancy)]);
  const windowHint = window.source === 'default' ? ` — ${ASSUMED_WINDOW_ADVICE}` : '';
  const windowFrom = describeWindowSource(window, sources.window && describeSource(sources.window));
  rows.push(['Window', `${formatTokens(window.tokens)} tokens (${windowFrom})${windowHint}`]);
  rows.push(['Percent', data.percent === undefined ? 'unknown' : formatPercent(data.percent)]);
  rows.push([
    'Ceiling',
    `${policy.ceilingPct}% (${describeSource(sources.ceilingPct!)}), ${policy.strict ? 'strict: over the ceiling blocks' : 'warn mode'} (${describeSource(sources.strict!)})${policy.enabled ? '' : ' — guard disabled'}`,
  ]);
  rows.push(['Tier', tier]);
  rows.push(['Guard now', `Agent: ${verdictWord(verdicts.Agent)} · Skill: ${verdictWord(verdicts.Skill)} · recovery skills: allow`]);
  if (report.autocompact !== undefined) rows.push(['Autocompact', `${describeAutocompact(report.autocompact, window.tokens)}${report.autocompactFrom ? ` Set in ${report.autocompactFrom}.` : ''}`]);
  if (verdicts.Agent.messageId === 'window-contradicted') {
    rows.push(['Note', `measured occupancy exceeds the window, ${WINDOW_PROVEN_WRONG}; the guard will not block until it is fixed`]);
  }
  // Paths, model ids and settings file names come from outside: one sanitiser before the terminal.
  return `${rows.map(([label, value]) => `${label.padEnd(12)}${sanitizeText(value)}`).join('\n')}\n`;
}

function describeOccupancy(occupancy: Occupancy): string {
  switch (occupancy.kind) {
    case 'measured':
      return `${formatTokens(occupancy.tokens)} tokens (${occupancy.source === 'usage' ? 'latest main-thread turn' : 'right after the last compaction'})`;
    case 'unknown-since-compaction':
      return 'unknown since compaction (no turn since the last compact_boundary, which carries no postTokens)';
    case 'unavailable':
      return occupancy.reason === 'scan-cap' ? 'unknown (no usage within the scan cap)' : 'unknown (no assistant turn with usage yet)';
  }
}

function verdictWord(verdict: Verdict): string {
  return verdict.kind === 'allow' ? `allow (${verdict.messageId})` : `${verdict.kind}${verdict.messageId === 'window-contradicted' ? ` (${WINDOW_PROVEN_WRONG})` : ''}`;
}
