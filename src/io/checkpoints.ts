/**
 * Checkpoint files on disk:
 * <project>/.claude/context-ceiling/checkpoints/<session>/cx-NNN-checkpoint.json
 * plus a cx-NNN-checkpoint.acknowledged marker once an alert has shown it.
 */
import { closeSync, fsyncSync, linkSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ackMarkerName, checkpointFileName, parseCheckpoint, sequenceOf, type Checkpoint } from '../core/checkpoint.js';
import { createExclusive } from './fs-safe.js';
import { sanitizeId } from './state.js';

/** A checkpoint larger than this is not one of ours: it reads as corrupt instead of filling memory. */
const MAX_CHECKPOINT_BYTES = 4 * 1024 * 1024;

export function checkpointRoot(projectDir: string): string {
  return join(projectDir, '.claude', 'context-ceiling', 'checkpoints');
}

export function sessionCheckpointDir(projectDir: string, sessionId: string): string {
  return join(checkpointRoot(projectDir), sanitizeId(sessionId));
}

export type CheckpointEntry = { fileName: string; sequence: number; path: string; acknowledged: boolean };

/** The session's checkpoints, oldest first; a missing directory is an empty list. */
export function listCheckpoints(dir: string): CheckpointEntry[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const present = new Set(names);
  return names
    .map((fileName) => ({ fileName, sequence: sequenceOf(fileName) }))
    .filter((entry): entry is { fileName: string; sequence: number } => entry.sequence !== undefined)
    .sort((a, b) => a.sequence - b.sequence)
    .map(({ fileName, sequence }) => ({ fileName, sequence, path: join(dir, fileName), acknowledged: present.has(ackMarkerName(fileName)) }));
}

/** Session folders under the project's checkpoint root. */
export function listCheckpointSessions(projectDir: string): string[] {
  try {
    return readdirSync(checkpointRoot(projectDir), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
  } catch {
    return [];
  }
}

/** Read one checkpoint; undefined when it is missing, oversized or not a checkpoint (a corrupt file). */
export function readCheckpointFile(path: string): Checkpoint | undefined {
  try {
    if (statSync(path).size > MAX_CHECKPOINT_BYTES) return undefined;
    return parseCheckpoint(JSON.parse(readFileSync(path, 'utf8')));
  } catch {
    return undefined;
  }
}

/** A checkpoint counts as acknowledged by its marker, or by `acknowledged: true` in its JSON. */
export function isAcknowledged(entry: CheckpointEntry, checkpoint: Checkpoint | undefined): boolean {
  return entry.acknowledged || checkpoint?.acknowledged === true;
}

/**
 * Acknowledge by creating the marker exclusively: of several hooks racing to
 * show the same alert, exactly one gets 'claimed'. 'failed' means the marker
 * cannot be written (read-only or full disk): show the alert anyway, since
 * showing it again later is better than never.
 */
export function acknowledgeCheckpoint(entry: CheckpointEntry): 'claimed' | 'taken' | 'failed' {
  try {
    return createExclusive(join(entry.path, '..', ackMarkerName(entry.fileName))) ? 'claimed' : 'taken';
  } catch {
    return 'failed';
  }
}

/**
 * Write a new checkpoint under the next free number and return it. The file is
 * complete before it appears (temp file, fsync, then a hard link, which fails
 * rather than overwrite), so concurrent writers get distinct numbers and a
 * reader never sees half a checkpoint. Filesystems without hard links fall
 * back to an exclusive create of the final name.
 */
export function writeNewCheckpoint(dir: string, build: (sequence: number) => Checkpoint): { path: string; checkpoint: Checkpoint } {
  ensureRealDir(dir);
  const temp = join(dir, `.cx-${process.pid}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}.tmp`);
  let sequence = nextSequence(dir);
  for (let attempt = 0; attempt < 10_000; attempt++, sequence++) {
    const checkpoint = build(sequence);
    const bytes = Buffer.from(`${JSON.stringify(checkpoint, null, 2)}\n`);
    const path = join(dir, checkpointFileName(sequence));
    try {
      writeSynced(temp, bytes, 'wx');
    } catch (error) {
      unlinkQuietly(temp); // a full disk must not leave half a temp file behind
      throw error;
    }
    try {
      linkSync(temp, path);
      unlinkQuietly(temp);
      return { path, checkpoint };
    } catch (error) {
      unlinkQuietly(temp);
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') continue; // another writer took this number
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw error;
      try {
        writeSynced(path, bytes, 'wx');
        return { path, checkpoint };
      } catch (fallback) {
        if ((fallback as NodeJS.ErrnoException).code === 'EEXIST') continue;
        unlinkQuietly(path);
        throw fallback;
      }
    }
  }
  throw new Error(`no free checkpoint number in ${dir}`);
}

function nextSequence(dir: string): number {
  const entries = listCheckpoints(dir);
  return (entries[entries.length - 1]?.sequence ?? 0) + 1;
}

function writeSynced(path: string, bytes: Buffer, flags: 'wx'): void {
  const fd = openSync(path, flags, 0o644);
  try {
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Create `dir` level by level and refuse any of our own folders (from
 * .claude/context-ceiling down) that is a symlink: a planted link must never
 * redirect where checkpoints are written. `.claude` itself may be a link.
 */
export function ensureRealDir(dir: string): void {
  const marker = join('.claude', 'context-ceiling');
  const at = dir.indexOf(marker);
  if (at === -1) {
    mkdirSync(dir, { recursive: true });
    return;
  }
  const base = dir.slice(0, at + '.claude'.length);
  mkdirSync(base, { recursive: true });
  let path = base;
  for (const segment of dir.slice(base.length + 1).split('/').filter(Boolean)) {
    path = join(path, segment);
    try {
      mkdirSync(path, { mode: 0o755 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const stat = lstatSync(path);
    if (stat.isSymbolicLink() || !stat.isDirectory()) throw new Error(`${path} is not a plain directory; refusing to write checkpoints through it`);
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
