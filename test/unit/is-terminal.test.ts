/**
 * isTerminal: what the CLI asks of its stdout and stderr (colour, the progress bar) without process.stdout or
 * node:tty on the way for a pipe or a file. A terminal answers true in test/blackbox/cli-pipes.test.ts (a
 * pseudo-terminal from `script`: the report's chart comes out coloured).
 */
import { execFileSync } from 'node:child_process';
import { closeSync, constants, fstatSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isTerminal } from '../../src/runtime/hook-io.js';

const dir = mkdtempSync(join(tmpdir(), 'cc-tty-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function withFd<T>(path: string, flags: number, use: (fd: number) => T): T {
  const fd = openSync(path, flags);
  try {
    return use(fd);
  } finally {
    closeSync(fd);
  }
}

describe('isTerminal', () => {
  it('a character device that is no terminal (/dev/null) is none: node:tty tells it from one', () => {
    withFd('/dev/null', constants.O_WRONLY, (fd) => {
      expect(fstatSync(fd).isCharacterDevice()).toBe(true);
      expect(isTerminal(fd)).toBe(false);
    });
  });

  it('a file and a pipe are none, without asking node:tty', () => {
    const file = join(dir, 'out.txt');
    writeFileSync(file, '');
    withFd(file, constants.O_WRONLY, (fd) => expect(isTerminal(fd)).toBe(false));
    const fifo = join(dir, 'out.fifo');
    execFileSync('mkfifo', [fifo]);
    withFd(fifo, constants.O_RDWR, (fd) => {
      expect(fstatSync(fd).isFIFO()).toBe(true);
      expect(isTerminal(fd)).toBe(false);
    });
  });

  it('a closed descriptor is none, and does not throw', () => {
    const fd = openSync('/dev/null', constants.O_RDONLY);
    closeSync(fd);
    expect(isTerminal(fd)).toBe(false);
  });
});
