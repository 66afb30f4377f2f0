/** Hook process plumbing: bounded stdin, protocol output. */
import { fstatSync, readSync, writeSync } from 'node:fs';

/** Claude Code's hook inputs are small; anything beyond this is not a real input and fails open. */
export const MAX_STDIN_BYTES = 8 * 1024 * 1024;

const pause = new Int32Array(new SharedArrayBuffer(4));

/** All of stdin as UTF-8, or undefined when it is a terminal, unreadable or too large. */
export function readStdin(maxBytes = MAX_STDIN_BYTES): string | undefined {
  // Not process.stdin or node:tty: either pulls in the net/stream stack, ~4 ms of a hook's start-up.
  if (isCharacterDevice(0)) return undefined; // a terminal (or /dev/null): no hook input
  // One buffer, grown when full: no chunk copies and no concat (each Buffer helper a hook first uses is compiled then).
  let buffer = Buffer.allocUnsafe(16 * 1024); // hook inputs are a few KB; a larger fresh buffer costs page faults
  let total = 0;
  for (;;) {
    if (total === buffer.length) {
      const bigger = Buffer.allocUnsafe(Math.min(buffer.length * 2, maxBytes + 1));
      buffer.copy(bigger, 0, 0, total);
      buffer = bigger;
    }
    let read: number;
    try {
      read = readSync(0, buffer, total, buffer.length - total, null);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') {
        Atomics.wait(pause, 0, 0, 5); // non-blocking pipe not ready yet
        continue;
      }
      if (code === 'EOF') break;
      return undefined;
    }
    if (read === 0) break;
    total += read;
    if (total > maxBytes) return undefined;
  }
  // UTF-8 is toString's default: naming it adds Node's encoding lookup, two functions compiled on every hook run.
  return buffer.toString(undefined, 0, total);
}

/**
 * What a hook run produced, and why (`reason`: a short stable phrase, e.g. `allow below-ceiling`,
 * `monitor`, `no-input`; the debug channel states it for every run, silence included). Only the entry
 * point writes it out.
 */
export type HookOutcome = { exitCode: 0 | 2; stdout: string; stderr: string; reason: string };

/** Nothing printed, for this reason. */
export function silent(reason: string): HookOutcome {
  return { exitCode: 0, stdout: '', stderr: '', reason };
}

/**
 * Write all of `text` to fd 1 or 2 synchronously, so nothing is lost when the process ends; a descriptor left
 * non-blocking by whoever started us is waited on. The error that stopped it (the reader gone, mostly), else
 * undefined: a hook has no one to tell, the CLI does (cli/main.ts).
 */
export function writeAll(fd: 1 | 2, text: string): NodeJS.ErrnoException | undefined {
  const bytes = Buffer.from(text);
  let done = 0;
  while (done < bytes.length) {
    try {
      done += writeSync(fd, bytes, done, bytes.length - done);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') return error as NodeJS.ErrnoException;
      Atomics.wait(pause, 0, 0, 1);
    }
  }
  return undefined;
}

/** Block this (short-lived) process for `ms` without spinning. */
export function sleepSync(ms: number): void {
  Atomics.wait(pause, 0, 0, ms);
}

function isCharacterDevice(fd: number): boolean {
  try {
    return fstatSync(fd).isCharacterDevice();
  } catch {
    return true; // no usable stdin at all
  }
}

/**
 * Whether `fd` is a terminal, as `isatty(3)` says, asking node:tty only of a character device: it pulls in the
 * net/stream stack (~3 ms of a Node start, 10–16 ms of Bun's), and a pipe or a file is never a terminal.
 */
export function isTerminal(fd: number): boolean {
  // A closed descriptor reads as a character device there, and isatty(3) then says no.
  return isCharacterDevice(fd) && (require('node:tty') as typeof import('node:tty')).isatty(fd);
}

/** JSON.parse that answers undefined instead of throwing: bad stdin is silence, not an error. */
export function parseJson(text: string | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
