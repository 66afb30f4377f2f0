/**
 * Checkpoint files in the project's checkpoint folder that this user's sessions did not write on this machine
 * (provenance.ts): a repository's committed ones, ours from before the records existed, ours rewritten since.
 * They are never read for their content and never resumed; the person is told once per set found that they are
 * there (SessionStart), by a count and our folder's path. The scan is bounded: a repository can commit any number.
 */
import { lstatSync } from 'node:fs';
import { relative } from 'node:path';
import { sequenceOf } from '../core/checkpoint.js';
import { renderFoundNotOurs } from '../core/guard-text.js';
import { writeFileAtomic } from '../io/fs-safe.js';
import { readRegularText } from '../io/read-safe.js';
import { markRunShape } from '../io/run-shape.js';
import type { HookConfig } from '../runtime/hook-config.js';
import {
  canonicalDir,
  digestOf,
  ensurePrivateCheckpointsDir,
  privateProjectDir,
  recordedDigests,
  type WrittenRecord,
} from './provenance.js';
import {
  checkpointRoot,
  type FolderListings,
  folderListings,
  listSessionFolders,
  MAX_FOLDER_ENTRIES,
  readCheckpointBytes,
} from './store.js';

/** At most this many folder entries are looked at (session folders and the files in them together): the hook has a budget. */
const MAX_ENTRIES_SCANNED = MAX_FOLDER_ENTRIES;

/**
 * At most this many of our own recorded files are read to check their bytes are still ours; past it a recorded
 * path counts as ours (the resume path checks the bytes of any it shows): a person with thousands of checkpoints
 * must not pay for reading them all at every session start.
 */
const MAX_BYTES_CHECKED = 64;

export type FoundNotOurs = { paths: string[]; more: boolean };

/**
 * Our recorded checkpoint files last found holding their recorded bytes (path → `<size> <ctimeMs> <inode> <sha-256>`):
 * one whose size, change time and inode are unchanged is not read and hashed again at the next session start (a
 * project's checkpoints cost SessionStart ~0.3 M instructions each otherwise, bench/RESULTS.md). The change time
 * moves with any write and cannot be set back by its owner. Only this notice trusts it: the resumption reads and
 * checks the bytes of any checkpoint it shows.
 */
export type VerifiedOurs = { before: ReadonlyMap<string, string>; after: Map<string, string> };

/**
 * The checkpoint files under the project's checkpoint folder that are not ours, in folder order, bounded
 * (`more`: the scan stopped before the end). A file whose path we recorded is read to compare its bytes; any
 * other is judged by its path alone and never opened. Nothing when the folder is missing or reached through a link.
 * `listings`: folders already listed in this run (SessionStart's resumption lists the session folders it looks in).
 */
export function findNotOurs(
  projectDir: string,
  records: readonly WrittenRecord[],
  timeUp?: () => boolean,
  verified: VerifiedOurs = { before: new Map(), after: new Map() },
  listings: FolderListings = folderListings(),
): FoundNotOurs {
  const root = checkpointRoot(projectDir);
  const sessions = listSessionFolders(root);
  if (!sessions) return { paths: [], more: false };
  // Our records name a file by its folder's realpath (canonicalPath): the root's is asked once, not a session folder's each.
  const realRoot = canonicalDir(root);
  const recorded = recordedDigests(records, 'checkpoint');
  let checks = MAX_BYTES_CHECKED;
  const ours = (path: string, real: string) => {
    const digests = recorded(path, real);
    if (!digests) return false;
    if (checks-- <= 0) return true;
    const stat = lstatSync(path, { throwIfNoEntry: false });
    if (!stat?.isFile()) return false;
    const stamp = `${stat.size} ${stat.ctimeMs} ${stat.ino} `;
    const known = verified.before.get(path);
    if (known?.startsWith(stamp) && digests.has(known.slice(stamp.length))) {
      verified.after.set(path, known);
      return true;
    }
    // Its bytes only: whether they are the ones recorded, not what they say.
    const text = readCheckpointBytes(path);
    if (text === undefined) return false;
    const digest = digestOf(text);
    if (!digests.has(digest)) return false;
    verified.after.set(path, `${stamp}${digest}`);
    return true;
  };
  const paths: string[] = [];
  let budget = MAX_ENTRIES_SCANNED;
  let more = sessions.more;
  for (const session of sessions.entries) {
    if (--budget < 0 || timeUp?.()) {
      more = true;
      break;
    }
    if (!session.isDirectory()) continue;
    markRunShape('scan');
    // A listed name holds no '/' and is never '.' or '..': paths are put together without path.join's normalising.
    const files = listings(`${realRoot}/${session.name}`);
    if (!files) continue;
    for (const file of files.entries) {
      if (--budget < 0 || timeUp?.()) {
        more = true;
        break;
      }
      if (sequenceOf(file.name) === undefined) continue;
      const path = `${root}/${session.name}/${file.name}`;
      // The same string when no link leads to the root (most projects): one path less built and compared per file.
      const real = realRoot === root ? path : `${realRoot}/${session.name}/${file.name}`;
      if (!file.isFile() || !ours(path, real)) paths.push(path);
    }
    if (more || files.more) {
      more = true;
      break;
    }
  }
  return { paths, more };
}

/** The note of the set last told, beside the project's records: a set told once is not told again. */
const noteOf = (config: Pick<HookConfig, 'stateDir' | 'projectDir'>) => `${privateProjectDir(config.stateDir, config.projectDir)}.found`;

/**
 * What SessionStart says about checkpoints found that are not ours: `count` always (for the verdict's
 * reason), `notice` the first time this set is found (and every time when the private state cannot keep
 * the note: a refused state never silences it).
 */
export function takeFoundNotice(
  config: Pick<HookConfig, 'stateDir' | 'projectDir' | 'debug' | 'timeUp'>,
  records: readonly WrittenRecord[],
  listings?: FolderListings,
): { count: number; more: boolean; notice: string | undefined } | undefined {
  // Only where we recorded checkpoints is there anything to have verified (and a records key to name the note by).
  const verified: VerifiedOurs | undefined = records.some((r) => r.kind === 'checkpoint')
    ? { before: readVerified(config), after: new Map() }
    : undefined;
  const found = findNotOurs(config.projectDir, records, config.timeUp, verified, listings);
  if (verified) keepVerified(config, verified);
  if (found.paths.length === 0) return undefined;
  const seen = digestOf(`${found.more}\n${found.paths.join('\n')}`);
  const note = noteOf(config);
  const told = (() => {
    try {
      return readRegularText(note, 256, { noFollow: true, ownedBy: process.getuid?.() })?.trim() === seen;
    } catch {
      return false;
    }
  })();
  const summary = { count: found.paths.length, more: found.more };
  if (told) return { ...summary, notice: undefined };
  try {
    ensurePrivateCheckpointsDir(config.stateDir);
    writeFileAtomic(note, `${seen}\n`);
  } catch (error) {
    config.debug(
      `the note of checkpoints found cannot be kept (${error instanceof Error ? error.message : String(error)}); telling again next time`,
    );
  }
  return { ...summary, notice: renderFoundNotOurs({ ...summary, folder: relative(config.projectDir, checkpointRoot(config.projectDir)) }) };
}

/** Where VerifiedOurs is kept between session starts: beside the project's records, in the private state. */
const verifiedOf = (config: Pick<HookConfig, 'stateDir' | 'projectDir'>) =>
  `${privateProjectDir(config.stateDir, config.projectDir)}.verified`;

/** The files the last scan found ours; none when there is no such note of ours or it is garbled. */
function readVerified(config: Pick<HookConfig, 'stateDir' | 'projectDir'>): Map<string, string> {
  const known = new Map<string, string>();
  try {
    const text = readRegularText(verifiedOf(config), 256 * 1024, { noFollow: true, ownedBy: process.getuid?.() });
    const value: unknown = text === undefined ? undefined : JSON.parse(text);
    // A for-in over JSON.parse's object, not Object.entries: no array of pairs built for each file (young garbage).
    if (typeof value === 'object' && value !== null)
      for (const path in value) {
        const stamp: unknown = (value as Record<string, unknown>)[path];
        if (typeof stamp === 'string') known.set(path, stamp);
      }
  } catch {
    // none yet, not ours, or garbled: every recorded file is read and hashed, and the note written anew
  }
  return known;
}

/** Written (atomically) only when the scan found a different set, and only where the private state is ours. */
function keepVerified(config: Pick<HookConfig, 'stateDir' | 'projectDir' | 'debug'>, verified: VerifiedOurs): void {
  const { before, after } = verified;
  if (after.size === before.size && [...after].every(([path, stamp]) => before.get(path) === stamp)) return;
  try {
    ensurePrivateCheckpointsDir(config.stateDir);
    writeFileAtomic(verifiedOf(config), `${JSON.stringify(Object.fromEntries(after))}\n`);
  } catch (error) {
    config.debug(`the note of checkpoints found ours cannot be kept (${error instanceof Error ? error.message : String(error)})`);
  }
}
