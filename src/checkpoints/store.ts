/**
 * Checkpoint files on disk:
 * <project>/.claude/context-ceiling/checkpoints/<session>/cx-NNN-checkpoint.json
 * plus a cx-NNN-checkpoint.acknowledged marker once an alert has shown it (seed 000's
 * cx-NNN-checkpoint.json.acknowledged counts too). checkpoints/ holds a `.gitignore` of `*`.
 */
import { closeSync, type Dirent, fsyncSync, linkSync, lstatSync, mkdirSync, openSync, readdirSync, unlinkSync, writeSync } from 'node:fs';
import { join } from '../io/join-path.js';
import {
  ackMarkerName,
  ackMarkerNames,
  checkpointFileName,
  isAckMarkerOf,
  parseCheckpoint,
  sequenceOf,
  type Checkpoint,
} from '../core/checkpoint.js';
import { createExclusive } from '../io/fs-safe.js';
import { type FolderListing, listFolder, readRegularText } from '../io/read-safe.js';
import { sanitizeId } from '../io/state.js';

/** A checkpoint larger than this is not one of ours: it reads as corrupt instead of filling memory. */
const MAX_CHECKPOINT_BYTES = 4 * 1024 * 1024;

export function checkpointRoot(projectDir: string): string {
  return join(projectDir, '.claude', 'context-ceiling', 'checkpoints');
}

export function sessionCheckpointDir(projectDir: string, sessionId: string): string {
  return join(checkpointRoot(projectDir), sanitizeId(sessionId));
}

export type CheckpointEntry = { fileName: string; sequence: number; path: string; acknowledged: boolean };

/** The session's checkpoints, oldest first; a missing directory, or one reached through a symlink, is an empty list. */
export function listCheckpoints(dir: string): CheckpointEntry[] {
  if (unsafeCheckpointDir(dir) !== undefined) return [];
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
    .map(({ fileName, sequence }) => ({
      fileName,
      sequence,
      path: join(dir, fileName),
      acknowledged: ackMarkerNames(fileName).some((name) => present.has(name)),
    }));
}

/** At most this many entries of one folder of the checkpoint tree are looked at: a repository can commit any number. */
export const MAX_FOLDER_ENTRIES = 4096;

/** A folder of the checkpoint tree as listed once: its entries in folder order, and by name once it is large (checkpointInListing). */
export type ListedFolder = FolderListing & { byName?: ReadonlyMap<string, Dirent> };

/**
 * A folder of fewer entries than this is searched name by name: a session folder holds a checkpoint or two and their
 * markers, and a map of each one's names cost SessionStart young garbage enough, at 64 sessions, for a collection
 * (bench/RESULTS.md). A larger one (a long session, or a repository's) is indexed once, when first asked.
 */
const INDEXED_FROM = 32;

/** What a whole listing of its folder says of the checkpoint file `fileName`: a plain file there, and a marker beside it. */
export function checkpointInListing(folder: ListedFolder, fileName: string): { isFile: boolean; acknowledged: boolean } {
  if (folder.entries.length >= INDEXED_FROM) {
    folder.byName ??= new Map(folder.entries.map((entry) => [entry.name, entry]));
    const byName = folder.byName;
    return {
      isFile: byName.get(fileName)?.isFile() === true,
      acknowledged: ackMarkerNames(fileName).some((name) => byName.has(name)),
    };
  }
  let isFile = false;
  let acknowledged = false;
  for (const entry of folder.entries) {
    if (entry.name === fileName) isFile = entry.isFile();
    else if (!acknowledged && isAckMarkerOf(entry.name, fileName)) acknowledged = true;
  }
  return { isFile, acknowledged };
}

/** A folder's listing by its path as asked (listFolder: none for a link or a missing folder). */
export type FolderListings = (dir: string) => ListedFolder | undefined;

/**
 * Folders of the checkpoint tree, each listed at most once by whoever asks first: SessionStart's resumption and
 * its scan for files not ours look at the same session folders, and one listing answers for every name in it
 * where asking for each name costs a hook an lstat. For one hook run: a listing is not refreshed. `listed`: where the
 * caller wants to know afterwards what was listed (start-note.ts).
 */
export function folderListings(listed = new Map<string, ListedFolder | undefined>()): FolderListings {
  return (dir) => {
    if (listed.has(dir)) return listed.get(dir);
    const listing: ListedFolder | undefined = listFolder(dir, MAX_FOLDER_ENTRIES);
    listed.set(dir, listing);
    return listing;
  };
}

/**
 * The entries of the project's checkpoint folder (`root`: checkpointRoot) as a session start looks through them (at
 * most MAX_FOLDER_ENTRIES); none when it is missing or reached through a link (unsafeCheckpointDir).
 */
export function listSessionFolders(root: string): FolderListing | undefined {
  return unsafeCheckpointDir(root) === undefined ? listFolder(root, MAX_FOLDER_ENTRIES) : undefined;
}

/** Session folders under the project's checkpoint root. */
export function listCheckpointSessions(projectDir: string): string[] {
  if (unsafeCheckpointDir(checkpointRoot(projectDir)) !== undefined) return [];
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
  return readCheckpointText(path)?.checkpoint;
}

/** A checkpoint file's text (undefined when missing, oversized, not a plain file or unreadable), unparsed. */
export function readCheckpointBytes(path: string): string | undefined {
  try {
    return readRegularText(path, MAX_CHECKPOINT_BYTES, { noFollow: true });
  } catch {
    return undefined;
  }
}

/** A checkpoint file's text (undefined when missing, oversized or not a plain file) and what it parses to. */
export function readCheckpointText(path: string): { text: string; checkpoint: Checkpoint | undefined } | undefined {
  const text = readCheckpointBytes(path);
  if (text === undefined) return undefined;
  try {
    return { text, checkpoint: parseCheckpoint(JSON.parse(text)) };
  } catch {
    return { text, checkpoint: undefined };
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
export function writeNewCheckpoint(
  dir: string,
  build: (sequence: number) => Checkpoint,
): { path: string; checkpoint: Checkpoint; bytes: Buffer } {
  // One listing for both (the folder was just checked level by level): litter to sweep, and the highest number. A
  // folder made just now (a session's first checkpoint) holds neither: a racing writer's number is taken at the link.
  const names = ensureRealDir(dir) ? [] : namesIn(dir);
  sweepStaleTemps(dir, Date.now(), names);
  const temp = join(dir, `.cx-${process.pid}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}.tmp`);
  let sequence = highestSequence(names) + 1;
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
      return { path, checkpoint, bytes };
    } catch (error) {
      unlinkQuietly(temp);
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') continue; // another writer took this number
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw error;
      try {
        writeSynced(path, bytes, 'wx');
        return { path, checkpoint, bytes };
      } catch (fallback) {
        if ((fallback as NodeJS.ErrnoException).code === 'EEXIST') continue;
        unlinkQuietly(path);
        throw fallback;
      }
    }
  }
  throw new Error(`no free checkpoint number in ${dir}`);
}

/** A writer is done or dead well within this (Claude Code kills a hook at its 10 s timeout); its temp file then is litter. */
const STALE_TEMP_MS = 60_000;

/** Our temp files: a checkpoint's (`.cx-<pid>-….tmp`) and a kept summary's (`.cx-NNN-summary.json.<pid>.….tmp`). */
const TEMP_NAME = /^\.cx-[A-Za-z0-9.-]+\.tmp$/;

/**
 * Remove the temp files of writers killed before they could clean up (a hook past its timeout, a
 * full disk): swept on the next write into the folder. Only plain files of ours, and only old ones,
 * so a concurrent writer's file in progress stays.
 */
export function sweepStaleTemps(dir: string, nowMs = Date.now(), names = namesIn(dir)): void {
  for (const name of names) {
    if (!TEMP_NAME.test(name)) continue;
    const path = join(dir, name);
    const stat = lstatSync(path, { throwIfNoEntry: false });
    if (stat?.isFile() && nowMs - stat.mtimeMs > STALE_TEMP_MS) unlinkQuietly(path);
  }
}

/** A folder's names; none when it cannot be listed. */
function namesIn(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** The highest checkpoint number among `names`; 0 when there is none (numbers start at 1). */
function highestSequence(names: readonly string[]): number {
  let highest = 0;
  for (const name of names) highest = Math.max(highest, sequenceOf(name) ?? 0);
  return highest;
}

function writeSynced(path: string, bytes: Buffer, flags: 'wx'): void {
  // The conversation's state is one person's: 0600, as the folders it lives in are 0700.
  const fd = openSync(path, flags, 0o600);
  try {
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The folders from the project's `.claude` down to `dir`, each of which must be a plain directory. */
function ownFolders(dir: string): string[] {
  const at = dir.lastIndexOf(`/${MARKER}`);
  if (at === -1) return [];
  // Each level is `dir` up to a separator (`dir` is normalised: path.join made it), without path.join's character loop
  // for each level (~50 K instructions a call in a hook's interpreted code).
  const folders: string[] = [];
  for (let end = dir.indexOf('/', at + 1); end !== -1; end = dir.indexOf('/', end + 1))
    if (dir[end - 1] !== '/') folders.push(dir.slice(0, end));
  if (!dir.endsWith('/')) folders.push(dir);
  return folders;
}

const MARKER = /* @__PURE__ */ join('.claude', 'context-ceiling');

/** The project's folders from its `.claude` down to its checkpoint root, each a level a link could replace. */
export function checkpointLevels(projectDir: string): string[] {
  return ownFolders(checkpointRoot(projectDir));
}

/**
 * Why checkpoints must not be read from or written to `dir`: one of our
 * folders on the way (`.claude` included) is a symlink or not a directory,
 * so a cloned repository could point it outside the project. Undefined when
 * every existing folder is plain (missing ones are fine: nothing to read).
 */
export function unsafeCheckpointDir(dir: string): string | undefined {
  for (const path of ownFolders(dir)) {
    const stat = lstatSync(path, { throwIfNoEntry: false });
    if (!stat) return undefined;
    if (stat.isSymbolicLink() || !stat.isDirectory())
      return `${path} is ${stat.isSymbolicLink() ? 'a symlink' : 'not a directory'}; refusing to use checkpoints through it`;
  }
  return undefined;
}

/**
 * Create `dir` level by level and refuse any of our own folders (from the
 * project's `.claude` down) that is a symlink: a planted link must never
 * redirect where checkpoints are written. True when this call made `dir`
 * itself (it is then empty of anything but what a racing writer adds).
 */
export function ensureRealDir(dir: string): boolean {
  const folders = ownFolders(dir);
  if (folders.length === 0) {
    mkdirSync(dir, { recursive: true });
    return false;
  }
  let made = false;
  for (const path of folders) {
    // Asked first, so that the usual case (it exists) throws nothing: a thrown fs error costs a hook its construction.
    let stat = lstatSync(path, { throwIfNoEntry: false });
    if (!stat) {
      try {
        // `.claude` and `.claude/context-ceiling` may hold what a team commits; checkpoints/ and below are private.
        mkdirSync(path, { mode: isPrivateFolder(path) ? 0o700 : 0o755 });
        made = path === folders[folders.length - 1];
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      stat = lstatSync(path);
    }
    if (stat.isSymbolicLink() || !stat.isDirectory())
      throw new Error(`${path} is not a plain directory; refusing to write checkpoints through it`);
    if (path.endsWith(`${MARKER}/checkpoints`)) ignoreInGit(path);
  }
  return made;
}

function isPrivateFolder(path: string): boolean {
  const at = path.lastIndexOf(`/${MARKER}/`);
  return at !== -1 && path.slice(at + MARKER.length + 2).split('/')[0] === 'checkpoints';
}

/**
 * Checkpoints are one developer's session state, never the repository's: the folder that holds them carries
 * a `.gitignore` of `*` (itself included), so `git status` stays clean; it is created whenever a checkpoint
 * is written and it is missing, exclusively: a .gitignore already there is the team's. Not the whole
 * `.claude/context-ceiling/`, where `install --project` puts the runtime a team may commit.
 */
function ignoreInGit(dir: string): void {
  const path = join(dir, '.gitignore');
  if (lstatSync(path, { throwIfNoEntry: false })) return; // there already (ours, or the team's)
  try {
    createExclusive(path, '*\n', 0o644);
  } catch {
    // a checkpoint matters more than the ignore file
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
