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
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, constants, createReadStream, openSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
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

/** Perl, made stdout non-blocking, runs the command it is given. */
const NON_BLOCKING_STDOUT = 'fcntl(STDOUT, F_SETFL, fcntl(STDOUT, F_GETFL, 0) | O_NONBLOCK) or die $!; exec @ARGV or die $!';

/**
 * The CLI writing into a pipe left non-blocking (as a parent sharing its own stdout, a Node one among them, can
 * leave it), whose reader starts only after `delayMs`: once the pipe's buffer (64 KiB) is full, every write fails
 * with EAGAIN until the reader drains it, and none of the output may be lost. The FIFO is opened read-write, so no
 * open waits for the other end; the reader opens it again and reads to its end.
 */
export async function runCliIntoSlowPipe(sandbox: Sandbox, args: string[], delayMs = 300): Promise<HookRun> {
  fifos += 1;
  const fifo = join(sandbox.tmp, `slow-${process.pid}-${fifos}.fifo`);
  await execa('mkfifo', [fifo]);
  const fd = openSync(fifo, constants.O_RDWR);
  let child: ChildProcess;
  try {
    // Node's spawn makes a child's stdio blocking (libuv): Perl (perl-base, in every Debian) makes it non-blocking again.
    child = spawn('perl', ['-MFcntl', '-e', NON_BLOCKING_STDOUT, process.execPath, CLI_BIN, ...args], {
      env: sandbox.env({ CLAUDE_PROJECT_DIR: sandbox.project }),
      cwd: sandbox.project,
      stdio: ['ignore', fd, 'pipe'],
    });
  } finally {
    closeSync(fd); // the child has its own copy: the reader's end comes when the child's is closed
  }
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += String(chunk);
  });
  const exited = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
  await delay(delayMs);
  const chunks: Buffer[] = [];
  for await (const chunk of createReadStream(fifo)) chunks.push(chunk as Buffer);
  return { exitCode: await exited, stdout: Buffer.concat(chunks).toString(), stderr };
}
