/** Writes that are never half-done: temp file in the same directory, fsync, then an awaited rename. */
import { closeSync, constants, fstatSync, fsyncSync, openSync, readSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { join } from './join-path.js';

/**
 * Replace `path` atomically with `content`. The temp file is created
 * exclusively (never following a planted symlink) with `mode`.
 */
export function writeFileAtomic(path: string, content: string | Uint8Array, mode = 0o600): void {
  const temp = join(
    dirname(path),
    `.${basename(path)}.${process.pid}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}.tmp`,
  );
  const fd = openSync(temp, 'wx', mode);
  try {
    const bytes = typeof content === 'string' ? Buffer.from(content) : content;
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    tryUnlink(temp);
    throw error;
  }
  closeSync(fd);
  try {
    renameSync(temp, path);
  } catch (error) {
    tryUnlink(temp);
    throw error;
  }
}

/** Create `path` only if it does not exist; true when this call created it. Safe under concurrency. */
export function createExclusive(path: string, content = '', mode = 0o600): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    if (content) writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** How long an append waits for a concurrent creator's header (the first writer writes it right after O_EXCL). */
const HEADER_WAIT_MS = 50;
const PAUSE = new Int32Array(new SharedArrayBuffer(4));

/**
 * Append `text` to a file this package created: one that starts with `header`, is a regular file of ours
 * with one link, reached without following a symlink. A missing file is created exclusively (0600) with the
 * header first. Anything else (a user's ~/.bashrc, a link, someone else's file) is refused with a throw:
 * we never append to a file we did not create.
 */
export function appendToOwnFile(path: string, header: string, text: string): void {
  const flags = constants.O_WRONLY | constants.O_APPEND | constants.O_NOFOLLOW | constants.O_NONBLOCK;
  let fd: number;
  try {
    fd = openSync(path, flags | constants.O_CREAT | constants.O_EXCL, 0o600);
    try {
      writeFully(fd, `${header}${text}`);
    } finally {
      closeSync(fd);
    }
    return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  fd = openSync(path, (flags & ~constants.O_WRONLY) | constants.O_RDWR);
  try {
    const stat = fstatSync(fd);
    const uid = process.getuid?.();
    if (!stat.isFile() || stat.nlink !== 1 || (uid !== undefined && stat.uid !== uid))
      throw new Error(`${path} is not a file this package created; not appended to`);
    const head = Buffer.alloc(Buffer.byteLength(header));
    let read = readSync(fd, head, 0, head.length, 0);
    // Another process may have just created it (O_EXCL) and not yet written the header: wait for it, briefly.
    for (let waited = 0; read < head.length && waited < HEADER_WAIT_MS && header.startsWith(head.toString(undefined, 0, read)); waited++) {
      Atomics.wait(PAUSE, 0, 0, 1);
      read = readSync(fd, head, 0, head.length, 0);
    }
    if (read !== head.length || head.toString() !== header) throw new Error(`${path} was not created by this package; not appended to`);
    writeFully(fd, text);
  } finally {
    closeSync(fd);
  }
}

function writeFully(fd: number, text: string): void {
  const bytes = Buffer.from(text);
  let written = 0;
  while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
}

function tryUnlink(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
