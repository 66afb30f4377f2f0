/**
 * The debug log (and every file we append to) is appended only when it starts with our header; a file another
 * hook process has just created exclusively and not yet written its header to is waited for, not refused:
 * otherwise concurrent hooks lose their debug lines (seen in test/hardening/faults.test.ts under load).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { appendToOwnFile } from '../../src/io/fs-safe.js';

const dir = mkdtempSync(join(tmpdir(), 'cc-append-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const HEADER = '# a header of ours\n';

describe('appendToOwnFile', () => {
  it('creates the file with the header, then appends', () => {
    const path = join(dir, 'new.log');
    appendToOwnFile(path, HEADER, 'one\n');
    appendToOwnFile(path, HEADER, 'two\n');
    expect(readFileSync(path, 'utf8')).toBe(`${HEADER}one\ntwo\n`);
  });

  it('refuses a file that does not start with the header, at once', () => {
    const path = join(dir, 'foreign.log');
    writeFileSync(path, 'export PATH=...\n', { mode: 0o600 });
    expect(() => appendToOwnFile(path, HEADER, 'x\n')).toThrow(/not created by this package/);
    expect(readFileSync(path, 'utf8')).toBe('export PATH=...\n');
  });

  it('waits for the header of a file another process has just created, then appends', async () => {
    const path = join(dir, 'racing.log');
    writeFileSync(path, '', { mode: 0o600 }); // created (O_EXCL) by the other process, header not yet written
    // The other process says it is running, then writes the header 10 ms later, while this one waits for it.
    const writer = spawn(process.execPath, [
      '-e',
      `process.stdout.write('ready\\n'); setTimeout(() => require('fs').appendFileSync(${JSON.stringify(path)}, ${JSON.stringify(HEADER)}), 10)`,
    ]);
    const exited = new Promise((resolve) => writer.on('exit', resolve));
    await new Promise((resolve) => writer.stdout.once('data', resolve));
    appendToOwnFile(path, HEADER, 'after\n');
    await exited;
    expect(readFileSync(path, 'utf8')).toBe(`${HEADER}after\n`);
  });

  it('an empty file nobody fills is refused after the wait', () => {
    const path = join(dir, 'empty.log');
    writeFileSync(path, '', { mode: 0o600 });
    expect(() => appendToOwnFile(path, HEADER, 'x\n')).toThrow(/not created by this package/);
  });
});
