/**
 * The private state directory (dedup markers and epochs here; status line reports, learned windows and
 * kept models in src/window/, the event log in event-log.ts): the policy's `stateDir` (DEV_TEAM_CONTEXT_STATE_DIR), else
 * `$XDG_STATE_HOME/context-ceiling`, else `~/.local/state/context-ceiling`: durable across reboots,
 * one per home, and nowhere another local user can create it first (as they could in /tmp).
 * Writes go through ensurePrivateDir (created 0700, refused when a symlink or someone else's),
 * reads through privateDirForRead (the same checks, nothing created).
 */
import { lstatSync, readdirSync, unlinkSync } from 'node:fs';
import { join } from './join-path.js';
import { createExclusive, writeFileAtomic } from './fs-safe.js';
import { LAST_ERROR_FILE, writeLastErrorIn, type LastError } from './last-error.js';
import { createStateDir, privateDirForRead } from './state-dir.js';
import { readRegularText } from './read-safe.js';
import { isSafeId } from '../core/hook-input.js';
import type { DedupEpoch } from '../core/dedup.js';
import type { CompactionNumbers, MonitorMark } from '../core/compaction-notice.js';

export { privateDirForRead, resolveStateDir, type StateDirContext } from './state-dir.js';

/**
 * Make sure `dir` is a private directory we own: created 0700 when missing; an existing one is used only when
 * it is already ours and private (never chmodded: a directory we did not create is not ours to change).
 * Throws with a one-line reason otherwise.
 */
export function ensurePrivateDir(dir: string): string {
  ensureMadePrivateDir(dir);
  return dir;
}

/** ensurePrivateDir, and whether this call made `dir` (then it holds only what a concurrent hook put there since). */
function ensureMadePrivateDir(dir: string): boolean {
  let stat = lstatOrUndefined(dir);
  let made = false;
  if (!stat) {
    made = createStateDir(dir);
    stat = lstatSync(dir);
  }
  if (stat.isSymbolicLink()) throw new Error(`state directory ${dir} is a symlink; refusing to use it`);
  if (!stat.isDirectory()) throw new Error(`state directory ${dir} is not a directory`);
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid)
    throw new Error(`state directory ${dir} belongs to uid ${stat.uid}, not ${uid}; refusing to use it`);
  if ((stat.mode & 0o077) !== 0)
    throw new Error(
      `state directory ${dir} is open to other users (mode ${(stat.mode & 0o777).toString(8).padStart(4, '0')}); refusing to use it`,
    );
  return made;
}

/** Our own small records are a few hundred bytes; anything larger was not written by us. */
const MAX_PRIVATE_JSON_BYTES = 64 * 1024;

/**
 * JSON from a file in a directory only we could have written (privateDirForRead: ours, not a
 * symlink, not writable by others); the file regular, ours, under the cap, opened without
 * following a link or blocking. Anything else (another local user's planted record) is ignored.
 */
export function readPrivateJson(dir: string, name: string, maxBytes = MAX_PRIVATE_JSON_BYTES): unknown {
  try {
    const trusted = privateDirForRead(dir);
    const text = trusted && readRegularText(join(trusted, name), maxBytes, { noFollow: true, ownedBy: process.getuid?.() });
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined; // unreadable, not ours or garbled: nothing learned
  }
}

export { LAST_ERROR_FILE, type LastError } from './last-error.js';

export function writeLastError(stateDir: string, record: LastError): void {
  writeLastErrorIn(ensurePrivateDir(stateDir), record);
}

/** The last failure a hook recorded, when the state directory is ours and holds one of our records. */
export function readLastError(stateDir: string): LastError | undefined {
  const value = readPrivateJson(stateDir, LAST_ERROR_FILE) as Partial<LastError> | undefined;
  if (!value || typeof value !== 'object') return undefined;
  const { at, event, error, version } = value;
  return typeof at === 'string' && typeof event === 'string' && typeof error === 'string'
    ? { at, event, error, version: typeof version === 'string' ? version : 'unknown' }
    : undefined;
}

/** Session and agent ids become file names only through this. Claude Code's own (UUIDs) are kept as they are. */
export function sanitizeId(id: string): string {
  if (isSafeId(id)) return id;
  const clean = id.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 128);
  return clean.length > 0 ? clean : '_';
}

/**
 * Where a session's guard state lives. `key` is the session id, plus the
 * agent id for a call judged inside a subagent (its own context, its own dedup).
 */
export function sessionStateDir(stateDir: string, key: string): string {
  return openSessionStateDir(stateDir, key).dir;
}

/** sessionStateDir, and whether this call made it (a session's first warning: no marker there to list). */
export function openSessionStateDir(stateDir: string, key: string): { dir: string; made: boolean } {
  const sessions = ensurePrivateDir(join(ensurePrivateDir(stateDir), 'sessions'));
  const dir = join(sessions, sanitizeId(key));
  return { dir, made: ensureMadePrivateDir(dir) };
}

/** epoch.json is one short line. */
const MAX_EPOCH_BYTES = 4096;

export function readDedupEpoch(dir: string): DedupEpoch | undefined {
  try {
    const text = readRegularText(join(dir, 'epoch.json'), MAX_EPOCH_BYTES, { noFollow: true });
    const value = (text === undefined ? {} : JSON.parse(text)) as Partial<DedupEpoch>;
    if (typeof value.epoch === 'string' && Number.isSafeInteger(value.scannedTo)) return value as DedupEpoch;
  } catch {
    // missing or garbled: start a fresh epoch
  }
  return undefined;
}

export function writeDedupEpoch(dir: string, epoch: DedupEpoch): void {
  writeFileAtomic(join(dir, 'epoch.json'), `${JSON.stringify(epoch)}\n`);
}

/** monitor.json: how far the monitor has looked for compactions to report (core/compaction-notice.ts). */
export function readMonitorMark(dir: string): MonitorMark | undefined {
  try {
    const text = readRegularText(join(dir, 'monitor.json'), MAX_EPOCH_BYTES, { noFollow: true });
    const value = (text === undefined ? {} : JSON.parse(text)) as Partial<MonitorMark>;
    if (Number.isSafeInteger(value.scannedTo) && (value.scannedTo as number) >= 0) {
      const lastCompaction = readCompactionNumbers(value.lastCompaction);
      const mark: MonitorMark = lastCompaction
        ? { scannedTo: value.scannedTo as number, lastCompaction }
        : { scannedTo: value.scannedTo as number };
      // Its form is checked where it is used (checkpoints/provenance.ts rememberRecordsKey).
      const records = value.records;
      if (typeof records?.dir === 'string' && typeof records.key === 'string') mark.records = { dir: records.dir, key: records.key };
      return mark;
    }
  } catch {
    // missing or garbled: a first look
  }
  return undefined;
}

/**
 * A remembered compaction's numbers, each kept only when it is a sane count (the file is ours, but may be garbled).
 * Compiled with the hook bundle (tsup.config.ts): the monitor's code cache is written by a session's first prompt,
 * before there is a compaction to remember.
 */
function readCompactionNumbers(value: unknown): CompactionNumbers | undefined {
  'eager';
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const count = function count(n: unknown) {
    'eager';
    return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
  };
  return {
    trigger: typeof v.trigger === 'string' ? v.trigger.slice(0, 40) : undefined,
    preTokens: count(v.preTokens),
    postTokens: count(v.postTokens),
  };
}

export function writeMonitorMark(dir: string, mark: MonitorMark): void {
  writeFileAtomic(join(dir, 'monitor.json'), `${JSON.stringify(mark)}\n`);
}

const MARKER = /^warned-(.+)-b(\d+)$/;

/**
 * Buckets already warned in `epoch`: our markers are empty regular files; anything else there was not made by us.
 * Names, then an lstat of the few markers: `withFileTypes` compiles Node's Dirent functions on every warning
 * (~0.3 M instructions, measured), for the same answer (a Dirent's type is the entry's own, as lstat's).
 */
export function readWarnedBuckets(dir: string, epoch: string): number[] {
  const buckets: number[] = [];
  for (const name of readdirSync(dir)) {
    const match = MARKER.exec(name);
    if (match && match[1] === epoch && lstatOrUndefined(join(dir, name))?.isFile()) buckets.push(Number(match[2]));
  }
  return buckets;
}

/**
 * Claim the warning for (epoch, bucket); exactly one of many concurrent callers gets true. A name taken by
 * something that is not our marker (a planted link) throws: the state cannot be trusted to remember.
 */
export function claimWarning(dir: string, epoch: string, bucket: number): boolean {
  const path = join(dir, `warned-${epoch}-b${bucket}`);
  if (createExclusive(path)) return true;
  if (!lstatSync(path).isFile()) throw new Error(`${path} is not a marker of ours`);
  return false;
}

/** Drop markers of earlier epochs (best effort; a leftover only costs a directory entry). */
export function pruneEpochs(dir: string, keep: string): void {
  for (const name of readdirSync(dir)) {
    const match = MARKER.exec(name);
    if (match && match[1] !== keep) {
      try {
        unlinkSync(join(dir, name));
      } catch {
        // raced with another pruner
      }
    }
  }
}

/** Missing is undefined without an exception (a thrown fs error costs a hook its construction); other errors throw. */
function lstatOrUndefined(path: string) {
  return lstatSync(path, { throwIfNoEntry: false });
}
