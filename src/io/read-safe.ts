/**
 * The one way a hook reads a file it did not just write: without blocking
 * (a FIFO or a terminal cannot hang it), regular files only (a link to
 * /dev/zero cannot fill memory), and never more than a cap.
 */
import {
  closeSync,
  constants,
  type Dirent,
  fstatSync,
  lstatSync,
  opendirSync,
  openSync,
  readdirSync,
  readSync,
  statSync,
  type Stats,
} from 'node:fs';

export type ReadOptions = {
  /** Refuse a symlink as the last component (O_NOFOLLOW): for files only we write, such as checkpoints. */
  noFollow?: boolean;
  /** Refuse a file another uid owns (code ENOTOURS): for records in the private state directory. */
  ownedBy?: number | undefined;
};

/** Thrown for a file that exists but must not be read; `code` says why. */
export class UnsafeFileError extends Error {
  constructor(
    readonly code: 'ENOTREG' | 'EFBIG' | 'ENOTOURS',
    path: string,
    detail: string,
  ) {
    super(`${path}: ${detail}`);
  }
}

/**
 * The file's bytes, or undefined when it does not exist. Throws for anything
 * else: not a regular file (code ENOTREG), larger than `maxBytes` (EFBIG),
 * a symlink under `noFollow` (ELOOP), or an I/O error.
 */
export function readRegularFile(path: string, maxBytes: number, options: ReadOptions = {}): Buffer | undefined {
  // The common case is "no such file": ask without an exception (building one costs ~0.1 ms per file).
  // Checking the type before opening means a device is never even opened; fstat below closes the race.
  const before = (options.noFollow ? lstatSync : statSync)(path, { throwIfNoEntry: false });
  if (before === undefined) return undefined;
  if (!before.isFile()) throw new UnsafeFileError('ENOTREG', path, before.isSymbolicLink() ? 'a symlink' : 'not a regular file');
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY | (options.noFollow ? constants.O_NOFOLLOW : 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new UnsafeFileError('ENOTREG', path, 'not a regular file');
    if (options.ownedBy !== undefined && stat.uid !== options.ownedBy)
      throw new UnsafeFileError('ENOTOURS', path, `owned by uid ${stat.uid}`);
    if (stat.size > maxBytes) throw new UnsafeFileError('EFBIG', path, `larger than ${maxBytes} bytes`);
    // One byte more than the cap: a file that grew since fstat is caught rather than truncated.
    const buffer = Buffer.allocUnsafe(Math.min(stat.size, maxBytes) + 1);
    let length = 0;
    for (;;) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
      if (length > maxBytes) throw new UnsafeFileError('EFBIG', path, `larger than ${maxBytes} bytes`);
      if (length === buffer.length) break;
    }
    return buffer.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}

/** readRegularFile as UTF-8 text (toString's default: naming it compiles Node's encoding lookup). */
export function readRegularText(path: string, maxBytes: number, options: ReadOptions = {}): string | undefined {
  return readRegularFile(path, maxBytes, options)?.toString();
}

/** A file opened for streaming reads, and its size when it was opened (the one fstat the open takes). */
export type OpenFile = { fd: number; size: number };

/**
 * Open a file for streaming reads (transcripts): non-blocking, and refused
 * unless it is a regular file. The caller closes the descriptor.
 */
export function openRegularFile(path: string): OpenFile {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new UnsafeFileError('ENOTREG', path, 'not a regular file');
    return { fd, size: stat.size };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/**
 * A folder's entries, in the folder's order, at most the number asked for (`more`: it holds others); `stat`: the
 * folder's own, taken just before it was listed (a change since moves its change time).
 */
export type FolderListing = { entries: Dirent[]; more: boolean; stat: Stats };

/**
 * A folder whose own size is at most this is listed in one call: a few thousand names on any common filesystem
 * (ext4 and XFS count bytes of entries, tmpfs 20 bytes and ZFS one per entry). A larger one is read a batch at a
 * time, no further than asked: a repository can commit a folder of a million files.
 */
const ONE_CALL_FOLDER_BYTES = 64 * 1024;

/**
 * Up to `max` entries of the folder at `path`; undefined when there is none there, it is a symlink or not a folder,
 * or it cannot be read. One `readdir` for a folder of usual size: Node's `Dir` costs a hook some 0.1 M instructions
 * a folder more (bench/RESULTS.md).
 */
export function listFolder(path: string, max: number): FolderListing | undefined {
  const stat = lstatSync(path, { throwIfNoEntry: false });
  if (!stat?.isDirectory()) return undefined;
  try {
    if (stat.size <= ONE_CALL_FOLDER_BYTES) {
      const entries = readdirSync(path, { withFileTypes: true });
      return entries.length > max ? { entries: entries.slice(0, max), more: true, stat } : { entries, more: false, stat };
    }
    const folder = opendirSync(path, { bufferSize: 256 });
    try {
      const entries: Dirent[] = [];
      for (let entry = folder.readSync(); entry; entry = folder.readSync()) {
        if (entries.length === max) return { entries, more: true, stat };
        entries.push(entry);
      }
      return { entries, more: false, stat };
    } finally {
      folder.closeSync();
    }
  } catch {
    return undefined;
  }
}
