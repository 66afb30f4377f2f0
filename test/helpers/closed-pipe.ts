/**
 * The CLI on a terminal (a pseudo-terminal from util-linux `script`), its output as the terminal got it.
 */
export async function runCliOnTerminal(sandbox: Sandbox, args: string[], env: Record<string, string> = {}): Promise<HookRun> {
  const quote = (arg: string) => `'${arg.replaceAll("'", "'\\''")}'`;
  const result = await execa('script', ['-qec', [process.execPath, CLI_BIN, ...args].map(quote).join(' '), '/dev/null'], {
    env: sandbox.env({ CLAUDE_PROJECT_DIR: sandbox.project, ...env }),
    extendEnv: false,
    cwd: sandbox.project,
    reject: false,
    stdin: 'ignore',
  });
  return { exitCode: result.exitCode ?? -1, stdout: String(result.stdout).replaceAll('\r\n', '\n'), stderr: String(result.stderr) };
}

/**
 * The CLI writing into a pipe nobody reads any more, as after `| head` has read its lines, without a race:
 * a FIFO opened read-write and then for writing, its read end closed before the CLI starts, so the very
 * first write fails with EPIPE. Its stderr stays an ordinary pipe, captured.
 */
import { join } from 'node:path';
import { execa } from 'execa';
import { CLI_BIN, type HookRun, type Sandbox } from './sandbox.js';

const CLOSED_PIPE = 'mkfifo "$1" && exec 4<>"$1" 5>"$1" 4<&- && shift && exec "$@" >&5';
/** For another stdout that fails: `/dev/full` (ENOSPC on every write). */
const INTO_FILE = 'file="$1" && shift && exec "$@" >"$file"';

let fifos = 0;

export function runCliIntoClosedPipe(sandbox: Sandbox, args: string[], env: Record<string, string> = {}): Promise<HookRun> {
  fifos += 1;
  return runWithStdout(sandbox, CLOSED_PIPE, join(sandbox.tmp, `closed-${process.pid}-${fifos}.fifo`), args, env);
}

export function runCliIntoFile(sandbox: Sandbox, file: string, args: string[], env: Record<string, string> = {}): Promise<HookRun> {
  return runWithStdout(sandbox, INTO_FILE, file, args, env);
}

async function runWithStdout(
  sandbox: Sandbox,
  script: string,
  path: string,
  args: string[],
  env: Record<string, string>,
): Promise<HookRun> {
  const result = await execa('/bin/sh', ['-c', script, 'sh', path, process.execPath, CLI_BIN, ...args], {
    env: sandbox.env({ CLAUDE_PROJECT_DIR: sandbox.project, ...env }),
    extendEnv: false,
    cwd: sandbox.project,
    reject: false,
    stripFinalNewline: false,
    stdin: 'ignore',
  });
  return { exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) };
}
