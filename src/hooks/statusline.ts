/**
 * The status line command: print one line for Claude Code's status bar and
 * record the session's real window for the hooks. Never fails: bad input prints
 * nothing; an unwritable state directory only skips the record; an unexpected
 * error prints a short fallback line, one stderr line, and keeps the last-error
 * record `status` and `doctor` show, as a hook does (runtime/run.ts failedOpen).
 */
import type * as ChildProcess from 'node:child_process';
import { compactionPointTokens, resolveAutocompact } from '../core/autocompact.js';
import { LARGEST_KNOWN_WINDOW } from '../core/window.js';
import { type NoReading, parseStatusInput, renderStatusLine, STATUSLINE_FAILED, type StatusInput } from '../core/statusline.js';
import { describeError } from '../io/debug.js';
import { STATUSLINE_EVENT } from '../io/last-error.js';
import { readOccupancy } from '../io/transcript.js';
import { recordLearnedWindow } from '../window/learned.js';
import { writeStatuslineReport } from '../window/statusline-report.js';
import { loadHookConfig } from '../runtime/hook-config.js';
import { parseJson, readStdin, writeAll } from '../runtime/hook-io.js';
import type { HookHost } from '../runtime/host.js';
import { failedOpen, processHookHost, withTrustedEnv } from '../runtime/run.js';
import { bundledServices } from './bundled-services.js';

export type StatusLineOptions = {
  wrap?: string | undefined;
  /** Told when the line reads the transcript (Claude Code gave no usage): a kind of run of its own for the code cache. */
  onTranscriptRead?: (() => void) | undefined;
};

/**
 * The status line process, `node statusline.cjs [--wrap "<command>"] [--no-color]`: never fails, at worst prints
 * nothing. Returns the kind of run, for the code cache: `statusline`, or `transcript` when it read the transcript.
 */
export function statusLineMain(args: readonly string[], bundleDir: string, stateDir?: string): string {
  let kind = 'statusline';
  try {
    const wrapAt = args.indexOf('--wrap');
    const wrap = wrapAt === -1 ? undefined : args[wrapAt + 1];
    // The state directory keeps a policy file's validation (io/policy-cache.ts): the line runs after every turn.
    const host = processHookHost(bundledServices(bundleDir, stateDir));
    // --no-color is said as NO_COLOR, which the status line reads (to a wrapped command too), as the CLI's statusline does.
    if (args.some((arg, i) => arg === '--no-color' && (wrapAt === -1 || i !== wrapAt + 1))) host.env = { ...host.env, NO_COLOR: '1' };
    const output = runStatusLine(readStdin(), host, {
      wrap,
      onTranscriptRead: () => {
        kind = 'transcript';
      },
    });
    if (output) writeAll(1, `${output}\n`);
  } catch {
    process.exitCode = 0; // a status line never fails
  }
  return kind;
}

/** Output for the status bar (may be several lines when a wrapped command prints several). Never throws. */
export function runStatusLine(stdin: string | undefined, given: HookHost, options: StatusLineOptions = {}): string {
  let host = given;
  let wrapped = '';
  try {
    host = withTrustedEnv(given);
    wrapped = options.wrap ? runWrapped(options.wrap, stdin ?? '', host) : '';
    const input = parseStatusInput(parseJson(stdin));
    if (!input) return wrapped;
    return withWrapped(wrapped, ourStatusLine(input, host, options.onTranscriptRead));
  } catch (error) {
    host.writeStderr(failedOpen(STATUSLINE_EVENT, describeError(error), host).stderr);
    return withWrapped(wrapped, STATUSLINE_FAILED);
  }
}

/** Ours appended to the first line of the wrapped command's output: that one is shown even where a status line is a single line. */
function withWrapped(wrapped: string, ours: string): string {
  if (!wrapped) return ours;
  const lines = wrapped.replace(/\n+$/, '').split('\n');
  lines[0] = `${lines[0]}  ${ours}`;
  return lines.join('\n');
}

/** Our line for the input, after keeping the window it reports for the hooks. */
function ourStatusLine(input: StatusInput, host: HookHost, onTranscriptRead: (() => void) | undefined): string {
  const config = loadHookConfig(host, undefined);
  const { policy, debug } = config;
  const window = input.windowTokens ?? config.loaded.policy.window ?? LARGEST_KNOWN_WINDOW;
  if (input.windowTokens !== undefined) {
    const { stateDir } = config;
    try {
      // Learned for the model, so later sessions of it (print mode has no status line) know the window too.
      if (input.modelId !== undefined) recordLearnedWindow(stateDir, input.modelId, input.windowTokens, host.now());
      writeStatuslineReport(stateDir, {
        sessionId: input.sessionId,
        windowTokens: input.windowTokens,
        usageTokens: input.usageTokens ?? null,
        modelId: input.modelId ?? null,
        version: input.version ?? null,
        updatedAt: host.now().toISOString(),
      });
    } catch (error) {
      debug(`status line report not kept: ${describeError(error)}`);
    }
  }
  if (input.usageTokens === undefined) onTranscriptRead?.();
  const reading = input.usageTokens === undefined ? readSince(input.transcriptPath, policy.maxScanBytes, debug) : undefined;
  return renderStatusLine({
    usage: input.usageTokens ?? reading?.usage,
    from: input.usageTokens === undefined ? reading?.from : 'claude-code',
    noReading: reading?.noReading,
    window,
    ceilingPct: policy.ceilingPct,
    compactAt: compactionPointTokens(resolveAutocompact(host.env), window),
    colour: !host.env.NO_COLOR,
    columns: columnsOf(host.env.COLUMNS),
  });
}

/**
 * What the transcript says when Claude Code's input has no usage: right after a compaction, the size Claude
 * Code gave the compacted context (compact_boundary's postTokens, the number its own display shows), or that
 * it recorded none; on a resumed session before its first turn, the last turn's usage, or that none lay within the
 * most of the transcript it reads.
 */
function readSince(
  transcriptPath: string | undefined,
  maxScanBytes: number,
  debug: (message: string) => void,
): { usage?: number; from?: 'compaction' | 'claude-code'; noReading?: NoReading } | undefined {
  if (transcriptPath === undefined) return undefined;
  const { occupancy, bytesScanned } = readOccupancy(transcriptPath, { maxScanBytes });
  debug(`status line: transcript ${occupancy.kind} scanned=${bytesScanned ?? 0}`);
  if (occupancy.kind === 'unknown-since-compaction') return { noReading: { why: 'compacted' } };
  if (occupancy.kind === 'unavailable' && occupancy.reason === 'scan-cap') return { noReading: { why: 'scan-cap', within: maxScanBytes } };
  if (occupancy.kind === 'unavailable' && occupancy.reason === 'unreadable') return { noReading: { why: 'unreadable' } };
  if (occupancy.kind !== 'measured') return undefined;
  return { usage: occupancy.tokens, from: occupancy.source === 'compaction' ? 'compaction' : 'claude-code' };
}

/** COLUMNS as a width to fit, when it is a sane one. */
function columnsOf(raw: string | undefined): number | undefined {
  const columns = raw !== undefined && /^\d{1,4}$/.test(raw.trim()) ? Number(raw.trim()) : undefined;
  return columns !== undefined && columns >= 10 ? columns : undefined;
}

/** The user's own status line command, given the same input; its failure leaves only ours. */
function runWrapped(command: string, stdin: string, host: HookHost): string {
  // Loaded here, not at the top: node:child_process costs ~12 M instructions to load (15 % of a Node start,
  // measured), and a status line without a command to wrap never spawns one.
  const { spawnSync } = require('node:child_process') as typeof ChildProcess;
  const result = spawnSync('/bin/sh', ['-c', command], {
    input: stdin,
    encoding: 'utf8',
    timeout: 5_000,
    env: host.env as NodeJS.ProcessEnv,
    maxBuffer: 1024 * 1024,
  });
  return result.status === 0 && typeof result.stdout === 'string' ? result.stdout.replace(/\n+$/, '') : '';
}
