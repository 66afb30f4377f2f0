/** How a command writes its output: colour only when wanted, `--json` that a terminal cannot misread. */
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { join } from '../io/join-path.js';
import type { CliIO } from './command.js';
import { CliError } from './errors.js';
import { cliMessage } from './messages.js';

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

/** Refuse a directory (or a path under a missing one) for an output file before any output, rather than failing after it. */
export function checkWritableFile(path: string): void {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (stat?.isDirectory()) throw new CliError(cliMessage('report.html-is-directory', { path, example: join(path, 'report.html') }));
  if (!statSync(dirname(resolve(path)), { throwIfNoEntry: false })?.isDirectory())
    throw new CliError(cliMessage('report.html-no-directory', { path, dir: dirname(resolve(path)) }));
}
