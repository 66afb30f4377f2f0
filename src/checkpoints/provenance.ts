/**
 * Which checkpoints this user's sessions wrote on this machine: every checkpoint and kept summary we
 * write is recorded (path, session, sequence, SHA-256 of its bytes) in the private state directory,
 * `checkpoints/<project key>.jsonl`. Only a recorded file whose bytes still match is presented as the
 * session's own state; anything else in the project tree (a repository can commit any checkpoint) is not.
 */
import type * as Crypto from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, realpathSync, writeSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { join } from '../io/join-path.js';
import { asRecord } from '../core/json-shape.js';
import { sha256Js, sha256Wasm } from '../core/sha256.js';
import { writeFileAtomic } from '../io/fs-safe.js';
import { readRegularFile, readRegularText } from '../io/read-safe.js';
import { markRunShape } from '../io/run-shape.js';
import { ensurePrivateDir, privateDirForRead } from '../io/state.js';

export type WrittenKind = 'checkpoint' | 'summary';

export type WrittenRecord = {
  kind: WrittenKind;
  path: string;
  session: string;
  sequence: number;
  digest: string;
  /**
   * A checkpoint's trigger and time as written: the monitor, on every prompt, and the alert count and date a session's
   * checkpoints from these, not by reading each file. Absent in records written before they were kept (2026-11-29).
   */
  fact?: RecordedFact;
};

/** A checkpoint's trigger type and timestamp, as its writer put them in the file. */
export type RecordedFact = { trigger: string; timestamp: string };

/** A recorded trigger or timestamp longer than this is not ours (ours: a word, an ISO date). */
const MAX_FACT_LENGTH = 64;

/** The records file is trimmed to its newest half past this: a record is some 250 bytes, so thousands of checkpoints. */
const MAX_RECORDS_BYTES = 512 * 1024;
const NEWLINE = 0x0a;

/** Without WebAssembly, up to this many bytes (UTF-16 units for a text) sha256Js costs less than loading node:crypto (~3 M instructions a KiB against ~12 M). */
const SHORT_INPUT = 2048;

/**
 * SHA-256 as hex, by WebAssembly (core/sha256.ts). Where the runtime has none, node:crypto is loaded only for
 * long inputs (a checkpoint's bytes): loading it costs a hook ~15 % of a Node start, and the monitor, on every
 * prompt, hashes only the project's folder name.
 */
export function digestOf(bytes: string | Uint8Array): string {
  const digest = sha256Wasm(bytes);
  if (digest !== undefined) return digest;
  if (bytes.length <= SHORT_INPUT) return sha256Js(bytes);
  return (require('node:crypto') as typeof Crypto).createHash('sha256').update(bytes).digest('hex');
}

/**
 * A folder as the records key it: its realpath where it exists, so a project reached through a symlinked
 * path (or from its real path) is one project; `path.resolve` of it where it does not. The system's
 * realpath(3) (one call, where Node's own walks every component in JavaScript), asked once per folder and
 * process: a hook asks for the project's key several times.
 */
export function canonicalDir(dir: string): string {
  const known = canonicalDirs.get(dir);
  if (known !== undefined) return known;
  let canonical: string;
  try {
    canonical = realpathSync.native(dir);
  } catch {
    canonical = resolve(dir);
  }
  canonicalDirs.set(dir, canonical);
  return canonical;
}

const canonicalDirs = new Map<string, string>();

/**
 * A file as the records name it: its folder's realpath and its own name. The name itself is never
 * followed: a committed symlink named like a checkpoint stays the link, so it cannot take the place of
 * a file we recorded (and readers open with O_NOFOLLOW, so its target is never read either).
 */
export function canonicalPath(path: string): string {
  const full = resolve(path);
  return join(canonicalDir(dirname(full)), basename(full));
}

/** One file per project, named by a digest of its real folder: a path never becomes a file name. */
function recordsFile(projectDir: string): string {
  return `${recordsKey(projectDir).key}.jsonl`;
}

/** A project's records key: its canonical folder, and the first 32 hex digits of the folder's SHA-256. */
export type RecordsKey = { dir: string; key: string };

/**
 * The key this project's records (and its private fallback folder) go under, hashed once per folder and process,
 * or taken from an earlier run that hashed it (rememberRecordsKey): the monitor, on every prompt, would otherwise
 * set up the SHA-256 compressor for the folder's name alone (~0.4 M instructions, bench/RESULTS.md).
 */
export function recordsKey(projectDir: string): RecordsKey {
  const dir = canonicalDir(projectDir);
  let key = recordsKeys.get(dir);
  if (key === undefined) {
    key = digestOf(dir).slice(0, 32);
    recordsKeys.set(dir, key);
  }
  return { dir, key };
}

const recordsKeys = new Map<string, string>();

/**
 * A key an earlier run of ours hashed and kept in the private state (the monitor's mark), used for that very
 * canonical folder only, and only when it has the form recordsKey gives; one hashed in this process stands.
 * Compiled with the hook bundle (tsup.config.ts): the monitor's code cache is written by a session's first prompt,
 * before there is a mark to remember.
 */
export function rememberRecordsKey(remembered: RecordsKey): void {
  'eager';
  if (RECORDS_KEY.test(remembered.key) && !recordsKeys.has(remembered.dir)) recordsKeys.set(remembered.dir, remembered.key);
}

/** What recordsKey's key looks like. */
const RECORDS_KEY = /^[0-9a-f]{32}$/;

/** The private folder for checkpoints: the records, and checkpoints when the project's folder cannot be used. */
export function privateCheckpointsDir(stateDir: string): string {
  return join(stateDir, 'checkpoints');
}

/** privateCheckpointsDir, created (0700) or checked as ours and nobody else's, the state directory holding it too. */
export function ensurePrivateCheckpointsDir(stateDir: string): string {
  ensurePrivateDir(stateDir);
  return ensurePrivateDir(privateCheckpointsDir(stateDir));
}

/** Where this project's checkpoints go when its own checkpoint folder cannot be used. */
export function privateProjectDir(stateDir: string, projectDir: string): string {
  return join(privateCheckpointsDir(stateDir), recordsFile(projectDir).replace(/\.jsonl$/, ''));
}

/**
 * Append one record (O_APPEND, O_NOFOLLOW, created 0600), its path canonical (canonicalPath); throws when the
 * private state cannot be written.
 */
export function recordWritten(stateDir: string, projectDir: string, written: WrittenRecord): void {
  const record = { ...written, path: canonicalPath(written.path) };
  const dir = ensurePrivateCheckpointsDir(stateDir);
  const path = join(dir, recordsFile(projectDir));
  const fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
  let size: number;
  try {
    const stat = fstatSync(fd);
    const uid = process.getuid?.();
    if (!stat.isFile() || (uid !== undefined && stat.uid !== uid)) throw new Error(`${path} is not a record file of ours`);
    // At least this size (another writer may have appended since): the trim below waits for one record more at worst.
    size = stat.size + writeSync(fd, `${JSON.stringify(record)}\n`);
  } finally {
    closeSync(fd);
  }
  if (size > MAX_RECORDS_BYTES) {
    const text = readRegularText(path, 2 * MAX_RECORDS_BYTES, { noFollow: true }) ?? '';
    const tail = text.slice(text.length - MAX_RECORDS_BYTES / 2);
    writeFileAtomic(path, tail.slice(tail.indexOf('\n') + 1));
  }
}

/**
 * This project's records, oldest first (only `session`'s when given); none when the private state is missing, not
 * ours, or unreadable.
 */
export function readWrittenRecords(stateDir: string, projectDir: string, session?: string): WrittenRecord[] {
  try {
    const dir = privateDirForRead(privateCheckpointsDir(stateDir));
    if (!dir || !privateDirForRead(stateDir)) return [];
    const bytes = readRegularFile(join(dir, recordsFile(projectDir)), 2 * MAX_RECORDS_BYTES, {
      noFollow: true,
      ownedBy: process.getuid?.(),
    });
    if (!bytes) return [];
    if (session === undefined) return marked(parseRecords(bytes.toString().split('\n')));
    // One session's records (the monitor's every prompt): only the lines that hold its id as recordWritten wrote
    // it are decoded and parsed, found in the file's bytes (the file holds every session of the project, up to
    // ~4,000 lines: decoding all of it cost a prompt ~0.7 M instructions at the cap, bench/RESULTS.md).
    const mark = Buffer.from(`"session":${JSON.stringify(session)}`);
    const lines: string[] = [];
    for (let at = bytes.indexOf(mark); at !== -1; ) {
      const newline = bytes.indexOf(NEWLINE, at);
      const end = newline === -1 ? bytes.length : newline;
      lines.push(bytes.toString(undefined, bytes.lastIndexOf(NEWLINE, at) + 1, end));
      at = bytes.indexOf(mark, end);
    }
    return marked(parseRecords(lines).filter((record) => record.session === session));
  } catch {
    return [];
  }
}

/** Records found: what a run then does with checkpoints of ours is code a run without them never compiles (run-shape.ts). */
function marked(records: WrittenRecord[]): WrittenRecord[] {
  if (records.length > 0) markRunShape('records');
  return records;
}

function parseRecords(lines: readonly string[]): WrittenRecord[] {
  return lines.map(parseRecord).filter((r): r is WrittenRecord => r !== undefined);
}

function parseRecord(line: string): WrittenRecord | undefined {
  if (!line) return undefined;
  try {
    const r = asRecord(JSON.parse(line));
    if (!r || (r.kind !== 'checkpoint' && r.kind !== 'summary')) return undefined;
    if (typeof r.path !== 'string' || typeof r.session !== 'string' || typeof r.digest !== 'string') return undefined;
    if (!Number.isSafeInteger(r.sequence)) return undefined;
    const record: WrittenRecord = { kind: r.kind, path: r.path, session: r.session, sequence: r.sequence as number, digest: r.digest };
    const fact = asRecord(r.fact);
    if (
      typeof fact?.trigger === 'string' &&
      typeof fact.timestamp === 'string' &&
      fact.trigger.length <= MAX_FACT_LENGTH &&
      fact.timestamp.length <= MAX_FACT_LENGTH
    )
      record.fact = { trigger: fact.trigger, timestamp: fact.timestamp };
    return record;
  } catch {
    return undefined; // a line torn by a crash
  }
}

/** True when `text` is what we recorded writing at `path` (compared as canonicalPath names it). */
export function isOwnFile(records: readonly WrittenRecord[], kind: WrittenKind, path: string, text: string): boolean {
  const digest = digestOf(text);
  const canonical = canonicalPath(path);
  // `path` itself too: a record written before records were canonical named the path as it was reached.
  return records.some((r) => r.kind === kind && (r.path === canonical || r.path === path) && r.digest === digest);
}

/**
 * For many files at once (a listing): the digests recorded for a path, as written or as canonicalPath names it
 * (`canonical`, when the caller knows it: a scan resolves its folder once), as isOwnFile compares them. None for a
 * path never recorded: such a file is not ours, whatever its bytes.
 */
export function recordedDigests(
  records: readonly WrittenRecord[],
  kind: WrittenKind,
): (path: string, canonical?: string) => ReadonlySet<string> | undefined {
  const byPath = new Map<string, Set<string>>();
  for (const record of records) {
    if (record.kind !== kind) continue;
    const digests = byPath.get(record.path);
    if (digests) digests.add(record.digest);
    else byPath.set(record.path, new Set([record.digest]));
  }
  return (path, canonical) => {
    if (byPath.size === 0) return undefined;
    const written = byPath.get(path);
    const real = canonical ?? canonicalPath(path);
    const resolved = real === path ? undefined : byPath.get(real);
    return written && resolved ? new Set([...written, ...resolved]) : (written ?? resolved);
  };
}

/**
 * isOwnFile for many files at once: a file whose path was never recorded is judged by its path alone, without
 * reading it (`text` is called only for a recorded path).
 */
export function ownFileTest(
  records: readonly WrittenRecord[],
  kind: WrittenKind,
): (path: string, text: () => string | undefined) => boolean {
  const recorded = recordedDigests(records, kind);
  return (path, text) => {
    const digests = recorded(path);
    if (!digests) return false;
    const bytes = text();
    return bytes !== undefined && digests.has(digestOf(bytes));
  };
}
