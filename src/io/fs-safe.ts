/** Writes that are never half-done: temp file in the same directory, fsync, then an awaited rename. */
import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

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

function tryUnlink(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
