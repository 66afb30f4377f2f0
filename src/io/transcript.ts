/**
 * Reads a Claude Code transcript from the end, in chunks, stopping at the
 * first record that settles occupancy. Cost depends on the distance to that
 * record, capped by maxScanBytes, never on the file's size. What only some
 * transcripts reach (a line longer than a read, or past 64 KB) is compiled with the
 * hook bundle ('eager', tsup.config.ts), so a code cache a short transcript wrote holds it.
 */
import { closeSync, existsSync, readdirSync, readSync } from 'node:fs';
import { join } from './join-path.js';
import {
  classifyRecord,
  occupancyFromEvidence,
  RECORD_MARKS,
  RECORD_TYPES,
  type Occupancy,
  type OccupancyEvidence,
  type RecordScope,
} from '../core/occupancy.js';
import { describeError } from './debug.js';
import { MAX_SKETCH_DEPTH, RecordSketch } from '../core/record-sketch.js';
import { SNIFF_OTHER, sniffRecordType } from '../core/record-sniff.js';
import { type OpenFile, openRegularFile } from './read-safe.js';

export type ScanOptions = RecordScope & {
  maxScanBytes: number;
  /** Bytes per read; small enough that a hit near the end costs one read. */
  chunkBytes?: number;
  /** Lines longer than this are streamed through RecordSketch instead of JSON.parse. */
  maxParseBytes?: number;
  /** A tool_use id: report whether the settling usage record holds it (the calling turn is in the file). */
  callId?: string | undefined;
  /** The hook's wall-clock budget: once true, the scan stops as if it had hit maxScanBytes. */
  timeUp?: (() => boolean) | undefined;
};

export type ScanResult<T = OccupancyEvidence> = {
  evidence: T | undefined;
  fileSize: number;
  bytesScanned: number;
  capHit: boolean;
  /** The time budget, not the byte cap, stopped the scan: what was not found may still be there. */
  timedOut?: boolean | undefined;
  /** With `callId`: whether the settling usage line holds it; undefined when not asked or not knowable. */
  callSeen?: boolean | undefined;
};

const NEWLINE = 0x0a;

/**
 * What a backward scan looks for: lines holding one of `marks` (anything else is skipped unparsed),
 * parsed and classified; the first line `classify` accepts settles the scan. `types` are the top-level
 * record types `classify` can accept (absent: any): a line longer than the reads so far whose type,
 * sniffed from its first bytes, is another is skipped without being searched. `sketch` classifies a
 * line too long to parse whole, from a stream of its bytes (absent: such lines are skipped).
 */
export type Seeker<T> = {
  marks: readonly Buffer[];
  types?: readonly Buffer[] | undefined;
  classify: (record: unknown) => T | undefined;
  sketch?: ((fd: number, start: number, end: number, timeUp: () => boolean) => T | undefined) | undefined;
};

/** The occupancy seeker: an assistant turn's usage or a compaction boundary settles occupancy. */
// Marked pure, as the other module-level tables here: a bundle that never reads them builds none at load.
const OCCUPANCY_MARKS = /* @__PURE__ */ RECORD_MARKS.map((mark) => Buffer.from(mark));
const OCCUPANCY_TYPES = /* @__PURE__ */ RECORD_TYPES.map((type) => Buffer.from(type));
const DEFAULT_CHUNK = 64 * 1024;
/**
 * The largest read of a backwards scan: a tool result of several MB is stepped over in a score of reads into one
 * buffer this size. Not larger: a hook's buffer is new, each of its pages is faulted in by the first read that fills
 * it, and one that outgrows the CPU's cache is read back from memory by the newline search. Measured over the 4.9 MiB
 * behind a 4 MiB tool result, fresh processes on a 2-CPU EPYC: 1 MiB reads 6.6 ms (Node 26 and 20) and 8.5 ms (Bun),
 * 256 KiB reads 2.2, 3.3 and 3.9 ms (bench/RESULTS.md).
 */
const MAX_CHUNK = 256 * 1024;
const DEFAULT_MAX_PARSE = 1024 * 1024;
/** A record's `type` comes within its first few hundred bytes unless a big value precedes it (then the line is judged in full). */
const SNIFF_BYTES = 4 * 1024;
/** JSON.parse of a deeply nested line costs ~0.4 s and 120 MB per MiB; lines this long are depth-checked first. */
const DEPTH_CHECK_FROM = 64 * 1024;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

export type Measurement = {
  occupancy: Occupancy;
  /** Bytes read from the end of the transcript to settle it (never more than maxScanBytes). */
  bytesScanned?: number | undefined;
  /** Model of the measured turn, when a usage record settled it. */
  model?: string | undefined;
  /** `preTokens` of a compaction that settled it: what the session held before (window evidence). */
  preTokens?: number | undefined;
  /** With `callId`: whether the measured turn is the one making that call (see ScanResult). */
  callSeen?: boolean | undefined;
  fileSize: number | undefined;
  error?: string | undefined;
};

/** Workflow runs a session keeps (subagents/workflows/<run>/) that are searched for a subagent's file. */
const MAX_WORKFLOW_RUNS = 64;

/**
 * `<subagents>/<file>`, else the same file in one of the session's workflow runs
 * (`<subagents>/workflows/<run>/<file>`); the plain path when neither exists (it reads as unavailable).
 */
export function locateSubagentTranscript(subagents: string, file: string): string {
  const direct = join(subagents, file);
  if (existsSync(direct)) return direct;
  let runs: string[];
  try {
    runs = readdirSync(join(subagents, 'workflows')).slice(0, MAX_WORKFLOW_RUNS);
  } catch {
    return direct;
  }
  return runs.map((run) => join(subagents, 'workflows', run, file)).find((path) => existsSync(path)) ?? direct;
}

/** Occupancy from a transcript; an unreadable file is `unavailable`, never an exception. */
export function readOccupancy(path: string, options: ScanOptions): Measurement {
  try {
    const scan = scanTranscript(path, options);
    const model = scan.evidence?.kind === 'usage' ? scan.evidence.model : undefined;
    const preTokens = scan.evidence?.kind === 'compaction' ? scan.evidence.preTokens : undefined;
    return {
      occupancy: occupancyFromEvidence(scan.evidence, scan.capHit),
      model,
      preTokens,
      callSeen: scan.callSeen,
      fileSize: scan.fileSize,
      bytesScanned: scan.bytesScanned,
    };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    const reason = code === 'ENOENT' || code === 'ENOTDIR' ? 'no-transcript' : 'unreadable';
    return { occupancy: { kind: 'unavailable', reason }, fileSize: undefined, error: describeError(error) };
  }
}

/** A compaction boundary's numbers, and the file's size when it was looked for. */
export type CompactionSince = { compaction: Extract<OccupancyEvidence, { kind: 'compaction' }> | undefined; fileSize: number };

const BOUNDARY_MARKS = [/* @__PURE__ */ Buffer.from('compact_boundary')];
const BOUNDARY_TYPES = [/* @__PURE__ */ Buffer.from('system')];

/**
 * The newest main-thread `compact_boundary` among the last `bytesFor(fileSize)` bytes of the transcript
 * (read backwards, stopping at the first one; 0 reads nothing). Throws only on I/O errors.
 */
export function readCompactionSince(
  path: string,
  bytesFor: (fileSize: number) => number,
  options: Pick<ScanOptions, 'timeUp'> = {},
): CompactionSince {
  const file = openRegularFile(path);
  try {
    const fileSize = file.size;
    const maxScanBytes = Math.max(0, Math.min(fileSize, bytesFor(fileSize)));
    if (maxScanBytes === 0) return { compaction: undefined, fileSize };
    const boundary = (record: unknown) => {
      const evidence = classifyRecord(record);
      return evidence?.kind === 'compaction' ? evidence : undefined;
    };
    const seeker: Seeker<Extract<OccupancyEvidence, { kind: 'compaction' }>> = {
      marks: BOUNDARY_MARKS,
      types: BOUNDARY_TYPES,
      classify: boundary,
      sketch: (at, start, end, timeUp) => boundary(sketchRange(at, start, end, timeUp)),
    };
    const scan = seekBackwards(file, seeker, { maxScanBytes, timeUp: options.timeUp });
    return { compaction: scan.evidence, fileSize: scan.fileSize };
  } finally {
    closeSync(file.fd);
  }
}

/** Scan `path` backwards for the newest settling record. Throws only on I/O errors; callers decide. */
export function scanTranscript(path: string, options: ScanOptions): ScanResult {
  const file = openRegularFile(path);
  try {
    return scanOpenTranscript(file, options);
  } finally {
    closeSync(file.fd);
  }
}

/**
 * The line being assembled runs from somewhere before the read position to `lineEnd`. Its bytes in
 * later chunks are neither kept (a multi-megabyte line must not cost memory) nor searched: it is
 * judged once its start is read (settleLine).
 */
type LineScan<T> = {
  fd: number;
  seeker: Seeker<T>;
  /** The longest mark's length less one: what pieces of a line read again overlap by, so that no mark is cut. */
  seamBytes: number;
  maxParse: number;
  timeUp: () => boolean;
  callMark: Buffer | undefined;
  callSeen: boolean | undefined;
  lineEnd: number;
};

function scanOpenTranscript(file: OpenFile, options: ScanOptions): ScanResult {
  const scope: RecordScope = { agentId: options.agentId };
  const seeker: Seeker<OccupancyEvidence> = {
    marks: OCCUPANCY_MARKS,
    types: OCCUPANCY_TYPES,
    classify: (record) => classifyRecord(record, scope),
    sketch: (at, start, end, timeUp) => classifyRecord(sketchRange(at, start, end, timeUp), scope),
  };
  return seekBackwards(file, seeker, options);
}

type SeekOptions = Pick<ScanOptions, 'maxScanBytes' | 'chunkBytes' | 'maxParseBytes' | 'callId' | 'timeUp'>;

/**
 * Read `file` backwards in chunks from the size it had when opened until `seeker` settles on a line, the cap or the
 * time budget is hit, or the file starts. Bytes appended since it was opened are the next hook's to read.
 */
export function seekBackwards<T>(file: OpenFile, seeker: Seeker<T>, options: SeekOptions): ScanResult<T> {
  const { fd, size: fileSize } = file;
  // The first read is small (the newest turn is usually in it); each further one doubles, up to MAX_CHUNK, so a
  // multi-MB tool result is stepped over in reads of MAX_CHUNK. A stated chunkBytes stays fixed (tests of the seams).
  let chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK;
  const maxChunk = options.chunkBytes ?? MAX_CHUNK;
  // The newest chunk is always read and settled: it costs milliseconds, and a hook that starts late on a
  // loaded machine must still measure rather than fail open. The budget bounds only the scan beyond it.
  const budgetUp = options.timeUp ?? never;
  let chunksRead = 0;
  const line: LineScan<T> = {
    fd,
    seeker,
    seamBytes: Math.max(...seeker.marks.map((m) => m.length)) - 1,
    maxParse: options.maxParseBytes ?? DEFAULT_MAX_PARSE,
    timeUp: () => chunksRead > 1 && budgetUp(),
    callMark: options.callId ? Buffer.from(JSON.stringify(options.callId)) : undefined,
    callSeen: undefined,
    lineEnd: fileSize,
  };
  let pos = fileSize;
  let scanned = 0;
  const finish = (evidence: T | undefined, capHit: boolean, timedOut = false): ScanResult<T> => ({
    evidence,
    fileSize,
    bytesScanned: scanned,
    capHit,
    timedOut,
    callSeen: line.callSeen,
  });

  // One read buffer for the whole scan: a fresh allocation per chunk costs page faults (~3x slower cold).
  // Untouched pages of it cost nothing: only what a read fills is faulted in.
  const buffer = Buffer.allocUnsafeSlow(Math.min(maxChunk, Math.max(fileSize, 1)));
  while (pos > 0) {
    if (scanned >= options.maxScanBytes) return finish(undefined, true);
    if (line.timeUp()) return finish(undefined, true, true);
    const size = Math.min(chunkBytes, pos, options.maxScanBytes - scanned);
    pos -= size;
    const chunk = buffer.subarray(0, size);
    readFully(fd, chunk, pos);
    scanned += size;
    chunksRead += 1;
    const step = settleChunk(line, chunk, pos);
    if (step.kind === 'found') return finish(step.evidence, false);
    if (step.kind === 'time-up') return finish(undefined, true, true);
    if (pos === 0) {
      const evidence = settleLine(line, 0, chunk.subarray(0, step.end));
      // The budget cut the judging of the file's first line short: nothing found is "ran out of time", not "none".
      return evidence === undefined && line.timeUp() ? finish(undefined, true, true) : finish(evidence, false);
    }
    // chunk[0, step.end) is the end of a line that began in an earlier read: judged when its start is read.
    chunkBytes = Math.min(chunkBytes * 2, maxChunk);
  }
  return finish(undefined, false);
}

type ChunkStep<T> = { kind: 'found'; evidence: T } | { kind: 'time-up' } | { kind: 'rest'; end: number };

/** Settle every line that ends in `chunk` (read at file offset `pos`), newest first; `rest` is where the unfinished first line ends. */
function settleChunk<T>(line: LineScan<T>, chunk: Buffer, pos: number): ChunkStep<T> {
  let end = chunk.length;
  let newline = chunk.lastIndexOf(NEWLINE, end - 1);
  // [0, first) is the end of a line begun in an earlier read (or the file's first line): never searched for marks.
  const first = newline === -1 ? -1 : chunk.indexOf(NEWLINE);
  while (newline !== -1) {
    const evidence = settleLine(line, pos + newline + 1, chunk.subarray(newline + 1, end));
    if (evidence) return { kind: 'found', evidence };
    const previous = newline === 0 ? -1 : chunk.lastIndexOf(NEWLINE, newline - 1);
    // Lines without a mark cannot settle: jump over them in one native search (a flood of blank or filler lines costs
    // nothing). With no newline before this line, [0, newline) is the end of a line begun in an earlier read (a big
    // tool result, mostly): judged when its start is read, never searched for marks here.
    end = previous === -1 ? newline : skipUnmarked(line.seeker.marks, chunk, first, newline);
    line.lineEnd = pos + end;
    if (line.timeUp()) return { kind: 'time-up' };
    newline = end === newline ? previous : end === 0 ? -1 : chunk.lastIndexOf(NEWLINE, end - 1);
  }
  return { kind: 'rest', end };
}

/**
 * Judge the complete line [start, lineEnd), whose first bytes (up to the read boundary) are `head`. A line
 * longer than `head` was not searched on the way: a type the seeker cannot settle on skips it unsearched
 * (a multi-MB tool result costs its reads, not a search of every byte); else it is read again to be searched.
 */
function settleLine<T>(line: LineScan<T>, start: number, head: Buffer): T | undefined {
  const length = line.lineEnd - start;
  if (length <= 0) return undefined;
  if (length > head.length && !maySettle(line, start, head)) return undefined;
  if (length > line.maxParse) {
    const { sketch } = line.seeker;
    return sketch && rangeHasMark(line, start) ? sketch(line.fd, start, line.lineEnd, line.timeUp) : undefined; // callSeen stays unknown
  }
  const bytes = length === head.length ? head : readRange(line.fd, start, line.lineEnd);
  if (!hasMark(line, bytes)) return undefined;
  if (length > DEPTH_CHECK_FROM && nestsDeeperThan(bytes, MAX_SKETCH_DEPTH)) return undefined;
  let evidence: T | undefined;
  try {
    // UTF-8 is toString's default: naming it compiles Node's encoding lookup on every hook run.
    evidence = line.seeker.classify(JSON.parse(bytes.toString()));
  } catch {
    return undefined; // torn last line or garbage: skipped, never fatal
  }
  if (evidence !== undefined && line.callMark && isUsage(evidence)) line.callSeen = bytes.includes(line.callMark);
  return evidence;
}

/**
 * False when the line's top-level type, sniffed from its first bytes, is none the seeker can settle on.
 * Claude Code writes each key once: a line with two top-level `type`s is judged by its first (JSON.parse keeps
 * the last), as replay judges it.
 */
function maySettle(line: LineScan<unknown>, start: number, head: Buffer): boolean {
  'eager';
  const { types } = line.seeker;
  if (types === undefined) return true;
  const want = Math.min(line.lineEnd - start, SNIFF_BYTES);
  const first = head.length >= want ? head : readRange(line.fd, start, start + want);
  return sniffRecordType(first, 0, first.length, types) !== SNIFF_OTHER;
}

/** Whether [start, lineEnd) holds a mark, read again in pieces that overlap by a mark's length less one; false once time is up. */
function rangeHasMark(line: LineScan<unknown>, start: number): boolean {
  const buffer = Buffer.allocUnsafe(DEFAULT_CHUNK);
  for (let at = start; ; at += buffer.length - line.seamBytes) {
    if (line.timeUp()) return false;
    const view = buffer.subarray(0, Math.min(buffer.length, line.lineEnd - at));
    readFully(line.fd, view, at);
    if (hasMark(line, view)) return true;
    if (at + view.length >= line.lineEnd) return false;
  }
}

function isUsage(evidence: unknown): boolean {
  return (evidence as Partial<OccupancyEvidence>).kind === 'usage';
}

/**
 * Where the unsettled part of `chunk` should end: the end of the last line
 * before `end` that holds a mark, else `first` (the chunk's first newline: every
 * whole line in between is unmarked), else `end` itself. Each mark is looked for
 * only after the last hit so far: one absent from the chunk (`compact_boundary`,
 * mostly) does not cost a search of all that precedes a turn. Nothing before
 * `first` is searched: a hit there would end the part at `first` all the same
 * (the tail of a multi-MB tool result in the newest read cost two searches of
 * 64 KB, ~0.27 M instructions of a hook on a long transcript).
 */
function skipUnmarked(marks: readonly Buffer[], chunk: Buffer, first: number, end: number): number {
  let hit = first;
  for (const mark of marks) {
    const found = chunk.subarray(hit + 1, end).lastIndexOf(mark);
    if (found !== -1) hit += 1 + found;
  }
  const next = chunk.indexOf(NEWLINE, hit);
  return next === -1 || next >= end ? end : next;
}

const never = () => false;

/** True when the JSON text nests deeper than `limit`; strings are skipped with native searches. */
function nestsDeeperThan(bytes: Buffer, limit: number): boolean {
  'eager';
  let depth = 0;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (c === QUOTE) {
      i = closingQuote(bytes, i + 1);
      if (i === -1) return false;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
}

function closingQuote(bytes: Buffer, from: number): number {
  'eager';
  for (let at = bytes.indexOf(QUOTE, from); at !== -1; at = bytes.indexOf(QUOTE, at + 1)) {
    let slashes = 0;
    while (bytes[at - 1 - slashes] === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return at;
  }
  return -1;
}

function readRange(fd: number, start: number, end: number): Buffer {
  'eager';
  const bytes = Buffer.allocUnsafe(end - start);
  readFully(fd, bytes, start);
  return bytes;
}

/** Stream [start, end) through RecordSketch with flat memory. */
function sketchRange(fd: number, start: number, end: number, timeUp: () => boolean): Record<string, unknown> | undefined {
  const sketch = new RecordSketch();
  const buffer = Buffer.allocUnsafe(DEFAULT_CHUNK);
  for (let at = start; at < end; ) {
    if (timeUp()) return undefined;
    const size = Math.min(buffer.length, end - at);
    const view = buffer.subarray(0, size);
    readFully(fd, view, at);
    sketch.feed(view);
    at += size;
  }
  return sketch.result();
}

/**
 * Forward scan of [from, file end) for the last `compact_boundary` line start:
 * tells the dedup state whether a compaction happened since it last looked.
 * Reads at most maxBytes, from the end of the range.
 */
export function findLastCompaction(path: string, from: number, maxBytes: number): { offset: number | undefined; fileSize: number } {
  const { fd, size: fileSize } = openRegularFile(path);
  try {
    const start = Math.max(from, fileSize - maxBytes, 0);
    const mark = Buffer.from('"subtype":"compact_boundary"');
    const buffer = Buffer.allocUnsafe(DEFAULT_CHUNK + mark.length);
    let offset: number | undefined;
    let carry = 0;
    for (let at = start; at < fileSize; ) {
      const size = Math.min(DEFAULT_CHUNK, fileSize - at);
      readFully(fd, buffer.subarray(carry, carry + size), at);
      const view = buffer.subarray(0, carry + size);
      for (let hit = view.indexOf(mark); hit !== -1; hit = view.indexOf(mark, hit + 1)) offset = at - carry + hit;
      carry = Math.min(mark.length - 1, view.length);
      view.copy(buffer, 0, view.length - carry);
      at += size;
    }
    return { offset, fileSize };
  } finally {
    closeSync(fd);
  }
}

function readFully(fd: number, target: Buffer, position: number): void {
  let done = 0;
  while (done < target.length) {
    const read = readSync(fd, target, done, target.length - done, position + done);
    if (read === 0) throw new Error('transcript shrank while being read');
    done += read;
  }
}

function hasMark(line: LineScan<unknown>, bytes: Buffer): boolean {
  return line.seeker.marks.some((mark) => bytes.includes(mark));
}
