/** CLI entry: a name → command table; each command loads only when asked for. */
import { homedir } from 'node:os';
import { isTerminal, readStdin, writeAll } from '../runtime/hook-io.js';
import type { CliIO, Command } from './command.js';
import { CliError, describeFsError, UsageError } from './errors.js';
import { asksHelp, takeNoColor } from './command-line.js';
import { cliMessage } from './messages.js';

declare const PACKAGE_VERSION: string;

const COMMANDS: Record<string, () => Promise<Command>> = {
  hook: async () => (await import('./hook.js')).hookCommand,
  status: async () => (await import('./status.js')).statusCommand,
  config: async () => (await import('./config.js')).configCommand,
  demo: async () => (await import('./demo.js')).demoCommand,
  checkpoints: async () => (await import('./checkpoints.js')).checkpointsCommand,
  events: async () => (await import('./events.js')).eventsCommand,
  install: async () => (await import('./install.js')).installCommand,
  uninstall: async () => (await import('./install.js')).uninstallCommand,
  doctor: async () => (await import('./doctor.js')).doctorCommand,
  statusline: async () => (await import('./statusline.js')).statuslineCommand,
  replay: async () => (await import('./replay.js')).replayCommand,
  report: async () => (await import('./report.js')).reportCommand,
};

const SUMMARIES: Array<[string, string]> = [
  ['hook <event>', 'run a hook (what hooks.json calls; hook --help lists events)'],
  ['status', 'occupancy, window, tier and what the guard would do now'],
  ['config', 'show, get, set, unset, validate the policy; each value with its source'],
  ['checkpoints', 'list, show, acknowledge, clean the checkpoints written at compaction'],
  ['events', 'warnings and blocks the guard gave (--summary: one line for a CI log)'],
  ['install', 'wire the hooks into .claude/settings.json (--user, --local, --strict)'],
  ['uninstall', 'remove exactly what install added'],
  ['doctor', 'check Node, hooks or plugin, config, the window in use, compaction point, state, last error'],
  ['statusline', 'status line command: occupancy and tier; records the real window'],
  ['replay', 'sweep candidate ceilings over recorded transcripts (calibration)'],
  ['report', 'one session: occupancy per turn, thresholds, compactions (--html, --json)'],
  ['demo', 'run the guard on built-in sample transcripts (no Claude Code needed)'],
];

export const MAIN_HELP = `context-ceiling — keep Claude Code sessions inside their context budget

Usage: context-ceiling <command> [options]

Commands:
${SUMMARIES.map(([name, text]) => `  ${name.padEnd(14)}${text}`).join('\n')}

Options:
  -h, --help     help for any command (context-ceiling <command> --help)
  -v, --version  print the version
  --no-color     no ANSI colour, with any command (as NO_COLOR=1 does); output
                 that is not a terminal never has any, except the status line

Output piped into a command that stops reading (| head) ends the run quietly, exit 0.

Exit codes: 0 ok · 1 bad arguments, invalid config or missing input · 2 a hook blocked the tool call.
Configuration: DEV_TEAM_CONTEXT_* variables or a policy file; see docs/configuration.md.
`;

/**
 * The command `argv` runs, as the kind of run its code cache is kept under (io/code-cache-write.ts): a command's
 * name, else `help` (help, the version, a word that is no command), so a typo never adds a kind.
 */
export function commandName(argv: readonly string[]): string {
  const [name] = takeNoColor(argv).args;
  return name !== undefined && Object.hasOwn(COMMANDS, name) ? name : 'help';
}

export async function main(argv: string[], given: CliIO): Promise<number> {
  const { args, noColor } = takeNoColor(argv);
  const io = noColor ? { ...given, noColor: true } : given;
  const [name, ...rest] = args;
  if (name === undefined || name === '-h' || name === '--help' || name === 'help') {
    io.out(MAIN_HELP);
    return 0;
  }
  if (name === '-v' || name === '--version') {
    io.out(`${typeof PACKAGE_VERSION === 'string' ? PACKAGE_VERSION : 'dev'}\n`);
    return 0;
  }
  const load = COMMANDS[name];
  if (!load) {
    io.err(`${cliMessage('main.unknown-command', { name })}\n`);
    return 1;
  }
  try {
    const command = await load();
    if (asksHelp(rest)) {
      io.out(command.help);
      return 0;
    }
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`context-ceiling: ${error.message}\n${error.usage ? `Usage: ${error.usage}\n` : ''}`);
      return 1;
    }
    if (error instanceof CliError) {
      io.err(
        error.message
          .split('\n')
          .map((line) => `context-ceiling: ${line}\n`)
          .join(''),
      );
      return 1;
    }
    io.err(`${cliMessage('main.unexpected-error', { message: error instanceof Error ? error.message : String(error) })}\n`);
    return 1;
  }
}

/**
 * The process's own output. A reader that went away (`| head`, a pager quit early) is no failure: the
 * run ends, exit 0, no trace (EPIPE). Any other failure to write stdout (a full disk) is one line on
 * stderr and exit 1. A broken stderr alone only silences stderr. `end` ends the process (cli.ts), on the
 * next tick, as the stream's error event used to: what the command does in the same step still happens
 * (report --html's page is written in full), and nothing more is written.
 * Written with writeSync, never through process.stdout: the stream and node:tty pull in the net/stream stack,
 * ~3 ms of every command under Node and 10–20 ms under Bun, which runs replay (bench/RESULTS.md).
 */
export function processIO(end: (code: number) => void): CliIO {
  let stdoutOpen = true;
  let stderrOpen = true;
  const err = (text: string) => {
    if (stderrOpen && writeAll(2, text) !== undefined) stderrOpen = false;
  };
  return {
    env: process.env,
    cwd: process.cwd(),
    home: homedir(),
    stdoutIsTTY: isTerminal(1),
    stderrIsTTY: isTerminal(2),
    out: (text) => {
      if (!stdoutOpen) return;
      const error = writeAll(1, text);
      if (error === undefined) return;
      stdoutOpen = false;
      if (!readerGone(error)) err(`${cliMessage('main.cannot-write-output', { reason: describeFsError(error) })}\n`);
      process.nextTick(() => end(readerGone(error) ? 0 : 1));
    },
    err,
    readStdin: () => readStdin(),
  };
}

/** The reader of stdout went away (EPIPE: Node and Bun ignore SIGPIPE, so the write fails instead). */
function readerGone(error: NodeJS.ErrnoException): boolean {
  return error.code === 'EPIPE';
}
