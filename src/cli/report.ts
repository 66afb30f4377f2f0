/** `context-ceiling report TRANSCRIPT [--html FILE]`: one session's occupancy, turn by turn. */
import { basename } from 'node:path';
import { DEFAULT_GATED_TOOLS } from '../core/constants.js';
import { buildReport, renderHtmlReport, renderTerminalReport } from '../core/report.js';
import { TimelineBuilder } from '../core/replay.js';
import { sessionWindow, windowFromConfig } from '../hooks/context.js';
import { writeFileAtomic } from '../io/fs-safe.js';
import { loadValidConfig } from './context.js';
import { scanRecords } from '../io/replay-scan.js';
import { CliError, parseFlags, UsageError, type Command } from './io.js';

const usage = 'context-ceiling report TRANSCRIPT [--html FILE] [--window N] [--width COLUMNS]';

export const reportCommand: Command = {
  summary: 'a picture of one session: occupancy per turn, thresholds, compactions',
  usage,
  help: `Usage: ${usage}

Draws one session's main-thread occupancy per turn against the ceiling and
the tier thresholds (WARNING, CRITICAL, EMERGENCY), with compactions (▲) and
gated calls over the ceiling (*) marked.

Options:
  --html FILE     also write a self-contained HTML page (inline SVG, no network)
  --window N      window in tokens (default: configured, else the status line
                  bridge for this session, else 200000)
  --width N       terminal chart width in columns (default 72)
`,
  run(args, io) {
    const flags = parseFlags(args, { string: ['html', 'window', 'width'] }, usage);
    const [transcript, ...extra] = flags._.map(String);
    if (!transcript) throw new UsageError('report needs a TRANSCRIPT', usage);
    if (extra.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(extra[0])}`, usage);
    if (flags.window !== undefined && (!/^\d+$/.test(flags.window) || Number(flags.window) < 1000)) throw new UsageError('--window takes a whole number of tokens, at least 1000', usage);
    if (flags.width !== undefined && (!/^\d+$/.test(flags.width) || Number(flags.width) < 10 || Number(flags.width) > 1000)) throw new UsageError('--width takes a number of columns from 10 to 1000', usage);
    const config = loadValidConfig(io);
    const { policy } = config;
    const timeline = new TimelineBuilder(new Set([...DEFAULT_GATED_TOOLS, ...Object.entries(policy.tools).filter(([, a]) => a !== 'off').map(([t]) => t)]));
    let model: string | undefined;
    try {
      scanRecords(transcript, (record) => {
        timeline.add(record);
        const m = (record as { message?: { model?: unknown } })?.message?.model;
        if (typeof m === 'string' && m !== '<synthetic>') model = m;
      });
    } catch (error) {
      throw new CliError(`cannot read ${transcript}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    const window = flags.window !== undefined ? { tokens: Number(flags.window), source: '--window' } : sessionWindow({ window: windowFromConfig(config), policy }, new Date(), basename(transcript, '.jsonl'), model);
    const report = buildReport(
      timeline.events,
      { title: `Session ${basename(transcript, '.jsonl')}`, window: window.tokens, windowSource: window.source, ceilingPct: policy.ceilingPct, tiers: policy.tiers },
      policy.recoverySkills,
    );
    io.out(renderTerminalReport(report, flags.width !== undefined ? Number(flags.width) : 72));
    if (flags.html) {
      writeFileAtomic(flags.html, renderHtmlReport(report), 0o644);
      io.out(`HTML report written to ${flags.html}\n`);
    }
    return 0;
  },
};
