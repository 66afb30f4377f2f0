/**
 * What the last session start in a project found when it had nothing to resume and nothing new to tell, kept so that
 * a start finding nothing changed since need not read every record and list every session folder again (64 sessions'
 * checkpoints cost a start ~8 M instructions where Node's own start is ~76 M: bench/RESULTS.md).
 *
 * It trusts folders' change times: one moves with every name added to its folder, removed or renamed in it, and with
 * every chmod, and its owner cannot set it back. A checkpoint rewritten in place in a folder otherwise unchanged is not
 * seen: such a file is no longer ours (its bytes are not the ones recorded), so it is never resumed whether seen or not;
 * only the notice of files not ours learns of it late, at the first start after anything the note looked at changed.
 */
import { lstatSync, type Stats } from 'node:fs';
import { writeFileAtomic } from '../io/fs-safe.js';
import { readRegularText } from '../io/read-safe.js';
import { markRunShape } from '../io/run-shape.js';
import { privateDirForRead } from '../io/state.js';
import type { HookConfig } from '../runtime/hook-config.js';
import { ensurePrivateCheckpointsDir, privateCheckpointsDir, recordsKey, type WrittenRecord } from './provenance.js';
import { checkpointLevels, type ListedFolder } from './store.js';

/**
 * A folder whose change time is this close to a start's own look is not trusted: filesystems stamp change times from
 * a clock that ticks coarsely (a jiffy; FAT two seconds), so a name added in the same tick just after the folder was
 * listed would leave the time it had.
 */
const RACY_MS = 2000;

/** A note is never larger than this: 4,096 folders' paths and the sessions of a records file at its cap fit. */
const MAX_NOTE_BYTES = 1024 * 1024;

/** What a start looked at, taken before it read the records or listed anything (beginStartLook). */
export type StartLook = {
  at: number;
  records: Stamp;
  levels: Map<string, Stats | undefined>;
  /** Every folder the start listed (folderListings fills it). */
  listed: Map<string, ListedFolder | undefined>;
};

type StartNote = {
  /** The records file's stamp. */
  records: unknown;
  /** Each folder looked at (the checkpoint root's levels, and every folder listed) → its stamp (checked as it is read). */
  folders: Record<string, unknown>;
  /** Every session with records, each between newlines: a start of one of them is never answered from the note. */
  sessions: string;
  /** Checkpoint files found that are not ours (their notice already told). */
  found: number;
};

/**
 * A file or folder as it stood: change time, inode and size; 0 for nothing there. Numbers, not a string of them: JSON
 * keeps a double exactly, and a start spares turning 200 of them into text.
 */
type Stamp = [number, number, number] | 0;

const stampOf = (stat: Stats | undefined): Stamp => (stat ? [stat.ctimeMs, stat.ino, stat.size] : 0);

/** Whether `path` stands as `stamp` (anything but a stamp never does). */
function standsAs(path: string, stamp: unknown): boolean {
  const stat = lstatSync(path, { throwIfNoEntry: false });
  if (stamp === 0) return stat === undefined;
  return (
    stat !== undefined &&
    Array.isArray(stamp) &&
    stamp.length === 3 &&
    stat.ctimeMs === stamp[0] &&
    stat.ino === stamp[1] &&
    stat.size === stamp[2]
  );
}

/**
 * Where the project's note and records are: beside each other in the private checkpoints folder (named by the
 * project's records key), and whether that folder may be read. Put together once a start, without path.join's
 * normalising (~50 K instructions a call in a hook's interpreted code): the folder is path.join's already.
 */
export type NotePlace = { dir: string; readable: boolean; projectDir: string };

export function startNotePlace(config: Pick<HookConfig, 'stateDir' | 'projectDir'>): NotePlace {
  const dir = privateCheckpointsDir(config.stateDir);
  return { dir, readable: privateDirForRead(dir) !== undefined, projectDir: config.projectDir };
}

/** `.start` the note, `.jsonl` the records (provenance.ts). The key costs hashing the project's folder, once a process. */
const placed = (place: NotePlace, suffix: '.start' | '.jsonl') => `${place.dir}/${recordsKey(place.projectDir).key}${suffix}`;

/**
 * The count of files not ours the last start found (told already), when the note holds for a start of `session`: the
 * records, the checkpoint root's levels and every folder it listed are as they were, and `session` has no records.
 * Undefined otherwise: the start looks for itself.
 */
export function startNoteHolds(config: Pick<HookConfig, 'stateDir'>, place: NotePlace, session: string): number | undefined {
  // As readWrittenRecords: records are read only from a private state directory, and the note stands for them. Asked
  // first: a user who never compacted has none, and the note's name would cost hashing the project's folder.
  if (!place.readable || !privateDirForRead(config.stateDir)) return undefined;
  const text = readRegularText(placed(place, '.start'), MAX_NOTE_BYTES, { noFollow: true, ownedBy: process.getuid?.() });
  const note = text === undefined ? undefined : parseNote(text);
  if (!note || note.sessions.includes(`\n${session}\n`)) return undefined;
  if (!standsAs(placed(place, '.jsonl'), note.records)) return undefined;
  // A for-in over JSON.parse's object: no array of pairs built for each folder.
  for (const path in note.folders) if (!standsAs(path, note.folders[path])) return undefined;
  markRunShape('note');
  return note.found;
}

/** Taken first by a start that looks for itself: the records' stamp and the checkpoint root's levels, before any is read. */
export function beginStartLook(config: Pick<HookConfig, 'projectDir'>, place: NotePlace): StartLook {
  const at = Date.now();
  const levels = new Map<string, Stats | undefined>();
  for (const path of checkpointLevels(config.projectDir)) levels.set(path, lstatSync(path, { throwIfNoEntry: false }));
  // No private checkpoints folder, no records (readWrittenRecords).
  const records = place.readable ? stampOf(lstatSync(placed(place, '.jsonl'), { throwIfNoEntry: false })) : 0;
  return { at, records, levels, listed: new Map() };
}

/**
 * After a start of `session` that looked for itself and found nothing to resume: keep what it saw, when the next start
 * may trust it. Not when `session` has records (its own checkpoints were left out of the look), the start ran out of
 * time or stopped its scan early, it has a notice to tell (told once, then kept), a folder was not wholly listed, or
 * one changed too close to the look to trust its time. The reason when nothing is kept; undefined when kept.
 */
export function keepStartNote(
  config: Pick<HookConfig, 'stateDir' | 'timeUp'>,
  place: NotePlace,
  look: StartLook,
  records: readonly WrittenRecord[],
  session: string,
  found: { count: number; more: boolean; notice: string | undefined } | undefined,
): string | undefined {
  if (config.timeUp?.() || found?.more) return 'the look stopped early';
  if (found?.notice !== undefined) return 'a notice told now';
  if (records.some((record) => record.session === session)) return 'the session has records';
  const folders: Record<string, Stamp> = {};
  const racy = (stat: Stats | undefined) => stat !== undefined && stat.ctimeMs > look.at - RACY_MS;
  // A level that is a link is never looked through (unsafeCheckpointDir): nothing there to note.
  for (const [path, stat] of look.levels) if (stat?.isSymbolicLink()) return `${path} is a link`;
  for (const [path, stat] of look.levels) {
    if (racy(stat)) return `${path} changed just now`;
    folders[path] = stampOf(stat);
  }
  for (const [path, listing] of look.listed) {
    // Not listed: kept only as missing (a link or an unreadable folder is looked at anew each time).
    if (listing === undefined && lstatSync(path, { throwIfNoEntry: false }) !== undefined) return `${path} was not listed`;
    if (listing?.more) return `${path} was listed in part`;
    if (racy(listing?.stat)) return `${path} changed just now`;
    folders[path] = stampOf(listing?.stat);
  }
  const sessions = `\n${[...new Set(records.map((record) => record.session))].join('\n')}\n`;
  const text = `${JSON.stringify({ records: look.records, folders, sessions, found: found?.count ?? 0 })}\n`;
  if (text.length > MAX_NOTE_BYTES) return 'too much to note'; // UTF-16 units: the bytes can be more (then it reads as no note)
  ensurePrivateCheckpointsDir(config.stateDir);
  writeFileAtomic(placed(place, '.start'), text);
  return undefined;
}

/** A note as keepStartNote wrote it; undefined for anything else (garbled, or not a note). Its stamps are checked as used. */
function parseNote(text: string): StartNote | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null) return undefined;
    const { records, folders, sessions, found } = value as Record<string, unknown>;
    if (typeof sessions !== 'string' || typeof folders !== 'object' || folders === null || Array.isArray(folders)) return undefined;
    if (typeof found !== 'number' || !Number.isSafeInteger(found) || found < 0) return undefined;
    return { records, folders: folders as Record<string, unknown>, sessions, found };
  } catch {
    return undefined;
  }
}
