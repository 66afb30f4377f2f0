/** What a CLI command may touch; main() builds the real one, tests can build their own. */
import { statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import minimist from 'minimist';
import type { WindowCandidate } from '../core/window.js';
import { cliMessage } from './messages.js';

export type CliIO = {
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  home: string;
  stdoutIsTTY: boolean;
  /** Whether standard error is a terminal: a progress bar (\r redraws) goes there only then. */
  stderrIsTTY?: boolean | undefined;
  /** `--no-color` was given; main() takes it from any command's arguments. */
  noColor?: boolean | undefined;
  out: (text: string) => void;
  err: (text: string) => void;
  /** Standard input, read whole (size-capped); undefined when there is none or it cannot be read. */
  readStdin: () => string | undefined;
};

/**
 * Whether colour was turned off: `--no-color`, or NO_COLOR set to anything but the empty string (no-color.org).
 * Output that is not a terminal gets none either (colourOnStdout), except the status line, which Claude Code draws.
 */
export function colourTurnedOff(io: Pick<CliIO, 'env' | 'noColor'>): boolean {
  return io.noColor === true || Boolean(io.env.NO_COLOR);
}

/** ANSI colour on stdout: only on a terminal, and only when not turned off. */
export function colourOnStdout(io: Pick<CliIO, 'env' | 'noColor' | 'stdoutIsTTY'>): boolean {
  return io.stdoutIsTTY && !colourTurnedOff(io);
}

const TERMINAL_UNSAFE = /[\u0080-\u009f\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

/**
 * `--json` output: JSON.stringify, with C1 controls, bidi and invisible format characters escaped
 * (\u0085 and friends are valid JSON unescaped, but a terminal acts on them or hides them). Lossless:
 * JSON.parse gives back the same strings.
 */
export function toJsonOutput(value: unknown): string {
  return `${JSON.stringify(value, null, 2).replace(TERMINAL_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`;
}

/** Bad arguments or input: main prints `context-ceiling: <message>` and the usage line, exit 1. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly usage?: string,
  ) {
    super(message);
  }
}

/** A failure that is not the user's typing (invalid config file, no transcript): message only, exit 1. */
export class CliError extends Error {}

const FS_REASONS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EISDIR: 'is a directory',
  ENOTDIR: 'a part of the path is not a directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
};

/** A file-system error as one short phrase: `no such file or directory (ENOENT)`. */
/** A failure of the file system (it carries an errno code), as opposed to an exception of our own code. */
export function isFsError(error: unknown): boolean {
  return typeof (error as NodeJS.ErrnoException | undefined)?.code === 'string';
}

export function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code && FS_REASONS[code]) return `${FS_REASONS[code]} (${code})`;
  return error instanceof Error ? error.message : String(error);
}

/** A command's one-line summary lives in main.ts's table only (`--help` lists them without loading every command). */
export type Command = {
  usage: string;
  help: string;
  run: (args: string[], io: CliIO) => number | Promise<number>;
};

type Flags = { string?: string[]; boolean?: string[]; alias?: Record<string, string> };

/**
 * minimist with declared flags; unknown flags are an error, and strings stay
 * strings (minimist would turn `040` into 40 unless told).
 */
export function parseFlags(args: string[], flags: Flags, usage: string) {
  const known = new Set([
    ...(flags.string ?? []),
    ...(flags.boolean ?? []),
    ...Object.keys(flags.alias ?? {}),
    ...Object.values(flags.alias ?? {}),
    '_',
    '--',
  ]);
  const unknown: string[] = [];
  const parsed = minimist(joinNegativeValues(args, flags.string ?? []), {
    // '_': operands stay as typed (`040`, `1e3`), as options do; commands coerce them themselves.
    string: [...(flags.string ?? []), '_'],
    boolean: [...(flags.boolean ?? []), 'help'],
    alias: { h: 'help', ...(flags.alias ?? {}) },
    unknown: (arg) => {
      if (arg.startsWith('-')) unknown.push(arg);
      return true;
    },
  });
  known.add('help');
  known.add('h');
  if (unknown.length > 0) throw new UsageError(cliMessage('unknown-option', { option: unknown[0]! }), usage);
  for (const name of flags.string ?? []) {
    const value = parsed[name];
    if (Array.isArray(value)) throw new UsageError(cliMessage('flag-repeated', { flag: name }), usage);
    if (name in parsed && value === '' && args.some((a) => a === `--${name}`))
      throw new UsageError(cliMessage('flag-needs-value', { flag: name }), usage);
  }
  return parsed;
}

/** `--window N` of replay and report: a window stated by the user, which the guard trusts like DEV_TEAM_CONTEXT_WINDOW. */
export function parseWindowFlag(raw: string | undefined, usage: string): WindowCandidate | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < 1000 || !Number.isSafeInteger(Number(raw)))
    throw new UsageError(cliMessage('window-flag-invalid', { got: raw }), usage);
  return { tokens: Number(raw), source: 'env', detail: WINDOW_FLAG };
}

/** How a window from --window is named in output. */
export const WINDOW_FLAG = '--window';

/** `--window -5` is a value, not an option `-5`: join it as `--window=-5` so the flag's own check reports it. */
function joinNegativeValues(args: string[], stringFlags: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const next = args[i + 1];
    if (stringFlags.includes(args[i]!.replace(/^--/, '')) && args[i]!.startsWith('--') && next !== undefined && /^-\d/.test(next)) {
      out.push(`${args[i]}=${next}`);
      i += 1;
    } else out.push(args[i]!);
  }
  return out;
}

/** Refuse a directory (or a path under a missing one) for an output file before any output, rather than failing after it. */
export function checkWritableFile(path: string): void {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (stat?.isDirectory()) throw new CliError(cliMessage('report.html-is-directory', { path, example: join(path, 'report.html') }));
  if (!statSync(dirname(resolve(path)), { throwIfNoEntry: false })?.isDirectory())
    throw new CliError(cliMessage('report.html-no-directory', { path, dir: dirname(resolve(path)) }));
}
