/** `context-ceiling report TRANSCRIPT [--html FILE]`: one session's occupancy, turn by turn. */
import { basename } from 'node:path';
import { renderHtmlReport } from '../core/report-html.js';
import { buildReport, renderTerminalReport } from '../core/report.js';
import { recordedTools, TimelineBuilder } from '../core/replay.js';
import { sanitizeText } from '../core/sanitize.js';
import { describeWindowSource } from '../core/guard-text.js';
import { writeFileAtomic } from '../io/fs-safe.js';
import { formatCount } from '../core/plural.js';
import { readEvents } from '../events/log.js';
import { resolveStateDir } from '../io/state.js';
import { claudeSettingsOf, loadValidConfig, sessionWindowOf } from './project.js';
import { countEvents } from './events.js';
import { recordedSessionWindow } from '../window/session-window.js';
import { compactionPointTokens, resolveAutocompact } from '../core/autocompact.js';
import { sessionTiers } from '../core/tiers.js';
import { scanRecords } from '../io/replay-scan.js';
import type { Command } from './command.js';
import { CliError, describeFsError, isFsError, UsageError } from './errors.js';
import { parseFlags, parseWindowFlag, WINDOW_FLAG } from './flags.js';
import { checkWritableFile, colourOnStdout, toJsonOutput } from './output.js';
import { cliMessage } from './messages.js';

const usage = 'context-ceiling report TRANSCRIPT [--html FILE] [--window N] [--width COLUMNS] [--json]';

export const reportCommand: Command = {
  usage,
  help: `Usage: ${usage}

Draws one session's main-thread occupancy per turn against the ceiling and
the tier thresholds (WARNING, CRITICAL, EMERGENCY), with compactions (▲) and
gated calls over the ceiling (*) marked.

Options:
  --html FILE     also write a self-contained HTML page (inline SVG, no network)
  --window N      judge the session against this window, as a stated one (default:
                  the session's own, as the guard resolves it)
  --width N       terminal chart width in columns (default 72)
  --json          the data behind the chart as one JSON object (points,
                  compactions, the guard's verdict on every gated call)

Gated calls are judged by the guard's own rule: a tool the policy turns
"off" and recovery skills are not drawn.

On a terminal the occupancy takes each tier's colour (as in the status line);
--no-color or NO_COLOR turns that off, and output that is not a terminal has none.
`,
  run(args, io) {
    const flags = parseFlags(args, { string: ['html', 'window', 'width'], boolean: ['json'] }, usage);
    const [transcript, ...extra] = flags._.map(String);
    if (!transcript) throw new UsageError(cliMessage('report.needs-transcript'), usage);
    if (extra.length > 0) throw new UsageError(cliMessage('unexpected-argument', { arg: extra[0] }), usage);
    const stated = parseWindowFlag(flags.window, usage);
    if (flags.width !== undefined && (!/^\d+$/.test(flags.width) || Number(flags.width) < 10 || Number(flags.width) > 1000))
      throw new UsageError(cliMessage('report.width-invalid'), usage);
    if (flags.html) checkWritableFile(flags.html);
    const config = loadValidConfig(io);
    const { policy } = config;
    const timeline = new TimelineBuilder(recordedTools(policy));
    try {
      scanRecords(transcript, (record) => timeline.add(record));
    } catch (error) {
      // Only the file's own failure is "cannot read"; an exception of the analysis is a bug and surfaces as one.
      if (!isFsError(error)) throw error;
      throw new CliError(cliMessage('cannot-read', { path: transcript, reason: describeFsError(error) }));
    }
    // The whole session in one picture: judged against the window it had once it had held its peak.
    const peak = timeline.events.reduce((most, e) => (e.kind === 'turn' ? Math.max(most, e.tokens) : most), 0);
    const measured = {
      occupancy: { kind: 'measured' as const, tokens: peak, source: 'usage' as const },
      model: timeline.model,
      fileSize: undefined,
    };
    // --window is a stated window, as in replay: a session that held more gives way to its model's.
    const window = stated
      ? recordedSessionWindow({ stated }, timeline, claudeSettingsOf(io).env)(peak)
      : sessionWindowOf(io, config, transcript, measured);
    const report = buildReport(
      timeline.events,
      {
        title: `Session ${sanitizeText(basename(transcript, '.jsonl'))}`,
        window: window.tokens,
        windowSource: window.detail === WINDOW_FLAG ? WINDOW_FLAG : describeWindowSource(window),
        windowProvenance: window.source,
        ceilingPct: policy.ceilingPct,
        // As the monitor places them: the default tiers below where Claude Code compacts this window.
        tiers: sessionTiers(policy, window.tokens, compactionPointTokens(resolveAutocompact(claudeSettingsOf(io).env), window.tokens)),
      },
      { policy, window },
    );
    if (flags.html) {
      try {
        writeFileAtomic(flags.html, renderHtmlReport(report), 0o644);
      } catch (error) {
        throw new CliError(cliMessage('report.cannot-write', { path: flags.html, reason: describeFsError(error) }));
      }
    }
    const session = basename(transcript, '.jsonl');
    const stateDir = resolveStateDir({ policy, env: claudeSettingsOf(io).env, home: io.home });
    const logged = countEvents(readEvents(stateDir).filter((e) => e.session === session));
    const events = { blocks: logged.blocks, warnings: logged.warnings };
    if (flags.json) io.out(toJsonOutput({ transcript, ...report, events, html: flags.html ?? null }));
    else {
      io.out(renderTerminalReport(report, flags.width !== undefined ? Number(flags.width) : 72, colourOnStdout(io)));
      if (logged.blocks + logged.warnings > 0)
        io.out(
          `${cliMessage('report.events', { blocks: formatCount(logged.blocks, 'block'), warnings: formatCount(logged.warnings, 'warning'), session })}\n`,
        );
      if (flags.html) io.out(`${cliMessage('report.html-written', { path: sanitizeText(flags.html) })}\n`);
    }
    return 0;
  },
};
