/**
 * The file system side of `checkpoints clean`: what a session folder holds (lstat only, never following a
 * link), and removing a plan's files, each checked again just before it goes.
 */
import { lstatSync, readdirSync, rmdirSync, unlinkSync } from 'node:fs';
import { join } from '../io/join-path.js';
import { checkpointFileName } from '../core/checkpoint.js';
import { ourFile, type FolderFile } from '../core/checkpoint-clean.js';
import { readCheckpointFile, unsafeCheckpointDir } from './store.js';

/** The session folders under the checkpoint root, and the entries there that are symlinks (never followed). */
export function readCheckpointRoot(root: string): { sessions: string[]; links: string[] } {
  try {
    const entries = readdirSync(root, { withFileTypes: true });
    return {
      sessions: entries
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        .sort(),
      links: entries
        .filter((entry) => entry.isSymbolicLink())
        .map((entry) => entry.name)
        .sort(),
    };
  } catch {
    return { sessions: [], links: [] };
  }
}

/** Every file of ours by name in a session folder, as lstat sees it, and how many entries the folder has in all. */
export function readSessionFolder(dir: string): { files: FolderFile[]; entries: number } {
  const uid = process.getuid?.();
  const names = readdirSync(dir);
  const files = names.flatMap((name): FolderFile[] => {
    if (!ourFile(name)) return [];
    const stat = lstatSync(join(dir, name), { throwIfNoEntry: false });
    return stat ? [{ name, regular: stat.isFile(), mine: uid === undefined || stat.uid === uid, mtimeMs: stat.mtimeMs }] : [];
  });
  return { files, entries: names.length };
}

/** When a checkpoint was written: its own timestamp, else its file's time. */
export function checkpointWrittenAt(dir: string, sequence: number): number | undefined {
  const path = join(dir, checkpointFileName(sequence));
  const stamp = Date.parse(readCheckpointFile(path)?.timestamp ?? '');
  return Number.isFinite(stamp) ? stamp : lstatSync(path, { throwIfNoEntry: false })?.mtimeMs;
}

/**
 * Remove the named files of one session folder; returns those removed. The folders on the way are checked
 * again first (a link planted since the plan was made stops it), and each file must still be a plain file.
 */
export function removeFromSession(dir: string, names: readonly string[]): string[] {
  const problem = unsafeCheckpointDir(dir);
  if (problem) throw new Error(problem);
  if (!lstatSync(dir).isDirectory()) throw new Error(`${dir} is not a directory`);
  const removed: string[] = [];
  for (const name of names) {
    const path = join(dir, name);
    if (!lstatSync(path, { throwIfNoEntry: false })?.isFile()) continue;
    try {
      unlinkSync(path);
      removed.push(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return removed;
}

/** Remove a session folder when nothing is left in it (a hook that just wrote there keeps it). */
export function removeSessionFolderIfEmpty(dir: string): boolean {
  try {
    if (unsafeCheckpointDir(dir) !== undefined || readdirSync(dir).length > 0) return false;
    rmdirSync(dir);
    return true;
  } catch {
    return false;
  }
}
