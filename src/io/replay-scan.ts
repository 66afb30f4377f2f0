/**
 * Streams a transcript forward for replay: big reads, marks found with native
 * searches over whole chunks, and only the lines holding a mark are parsed.
 * Throughput, not start-up, is the budget here.
 */
import { closeSync, readSync } from 'node:fs';
import { MODEL_ATTACHMENT_MARK, MODEL_ATTACHMENT_TYPE } from '../core/model-attachment.js';
import { RECORD_MARKS, RECORD_TYPES } from '../core/occupancy.js';
import { SNIFF_OTHER, SNIFF_UNKNOWN, sniffRecordType } from '../core/record-sniff.js';
import { openRegularFile } from './read-safe.js';

export type FileScan = { bytes: number; corruptLines: number; oversizedLines: number };

/**
 * Which lines are read, by their top-level type (sniffed from the bytes, core/record-sniff.ts): an
 * assistant record always (it may be a turn); a system record or an attachment only when it holds the
 * mark of a compaction or of the model attachment; a line whose type cannot be sniffed when it holds
 * any mark, as before sniffing. Every other record (tool results, progress, bookkeeping) is skipped
 * after its first bytes: most of a transcript's bytes are never searched, and a long one is never held whole (its
 * end is searched for as it streams past, so memory stays a few reads' worth whatever a tool returned).
 */
// The record types the backward reader's seekers settle on (turn, compaction boundary, model attachment), in MARKS_BY_TYPE's order.
const TYPES = [...RECORD_TYPES, MODEL_ATTACHMENT_TYPE].map((name) => Buffer.from(name));
const MARKS_BY_TYPE: readonly (readonly Buffer[])[] = [[], [Buffer.from(RECORD_MARKS[1])], [Buffer.from(MODEL_ATTACHMENT_MARK)]];
const ANY_MARK = [...RECORD_MARKS, MODEL_ATTACHMENT_MARK].map((mark) => Buffer.from(mark));
const NEWLINE = 0x0a;
/** Reads of 1 MiB: big enough that a read's fixed cost vanishes, small enough to stay in the CPU's cache while scanned. */
const DEFAULT_CHUNK_BYTES = 1024 * 1024;
const KEPT_BUFFER_BYTES = 16 * 1024 * 1024;
/** A line that goes on past a read is sniffed again at the next read while it is shorter than this. */
const SNIFF_PARTIAL_BYTES = 64 * 1024;

/** Call `onRecord` with every parsed line that may matter, in file order. Throws when the file cannot be read (or `onRecord` throws). */
export function scanRecords(
  path: string,
  onRecord: (record: unknown) => void,
  options: { chunkBytes?: number; maxLineBytes?: number } = {},
): FileScan {
  const chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
  const maxLine = options.maxLineBytes ?? 64 * 1024 * 1024;
  const { fd } = openRegularFile(path);
  const stats: FileScan = { bytes: 0, corruptLines: 0, oversizedLines: 0 };
  let buffer = takeBuffer(chunkBytes * 2);
  let carry = 0; // bytes of an unfinished line at the start of `buffer`, searched already: no newline among them
  // Inside a line that is not kept (too long to read, or of a type never read), its bytes so far; -1 when not. Only
  // its end is wanted. Over maxLine it counts as oversized, once, whichever way it came to be skipped.
  let skipped = -1;
  try {
    for (;;) {
      if (buffer.length - carry < chunkBytes) {
        // Doubled, not grown by a read: a long line is copied a few times, not once for each read it spans.
        const bigger = Buffer.allocUnsafeSlow(Math.max(carry + chunkBytes, Math.min(buffer.length * 2, maxLine + chunkBytes)));
        buffer.copy(bigger, 0, 0, carry);
        buffer = bigger;
      }
      const carried = carry;
      const read = readSync(fd, buffer, carry, chunkBytes, null);
      stats.bytes += read;
      const end = carry + read;
      if (read === 0) {
        if (carry > 0 && skipped === -1) parseLines(buffer.subarray(0, carry), 0, carry, true, onRecord, stats); // a last line without newline
        return stats;
      }
      let start = 0;
      if (skipped !== -1) {
        const newline = buffer.subarray(0, end).indexOf(NEWLINE, carry);
        if (newline === -1) {
          if (skipped <= maxLine && skipped + read > maxLine) stats.oversizedLines += 1;
          skipped += read;
          carry = 0;
          continue;
        }
        skipped = -1;
        start = newline + 1;
      }
      // Each byte is searched for a newline once: from where the carried line's bytes end, forward.
      const restFrom = parseLines(buffer.subarray(0, end), start, Math.max(start, carry), false, onRecord, stats);
      carry = end - restFrom;
      // A line that goes on past this read, of a type never read (a long tool result, progress), is not kept. Sniffed
      // while its first bytes are few: a type written after a long message is not looked for again at every read.
      const skip =
        carry > maxLine ||
        (carry > 0 && (restFrom > 0 || carried < SNIFF_PARTIAL_BYTES) && sniffRecordType(buffer, restFrom, end, TYPES) === SNIFF_OTHER);
      if (skip) {
        if (carry > maxLine) stats.oversizedLines += 1;
        skipped = carry;
        carry = 0;
      } else if (restFrom > 0 && carry > 0) {
        buffer.copy(buffer, 0, restFrom, end);
      }
    }
  } finally {
    closeSync(fd);
    keepBuffer(buffer);
  }
}

/**
 * One read buffer per thread, reused from file to file: a fresh one per file costs its page faults
 * again (a tenth of the scan). One grown past KEPT_BUFFER_BYTES by a long line is left to the GC.
 */
let spare: Buffer | undefined;

function takeBuffer(bytes: number): Buffer {
  const buffer = spare !== undefined && spare.length >= bytes ? spare : Buffer.allocUnsafeSlow(bytes);
  spare = undefined;
  return buffer;
}

function keepBuffer(buffer: Buffer): void {
  if (buffer.length <= KEPT_BUFFER_BYTES && (spare === undefined || spare.length < buffer.length)) spare = buffer;
}

/**
 * Parse each line of `block` from `lineStart` that may matter, once; `searchFrom`: where to look for the first
 * newline (the bytes before it hold none). `toEnd`: the block's end also ends a line (the file's last, without a
 * newline); otherwise a line without one is left unread. Returns where the unread rest begins.
 */
function parseLines(
  block: Buffer,
  lineStart: number,
  searchFrom: number,
  toEnd: boolean,
  onRecord: (record: unknown) => void,
  stats: FileScan,
): number {
  while (lineStart < block.length) {
    let lineEnd = block.indexOf(NEWLINE, searchFrom);
    if (lineEnd === -1) {
      if (!toEnd) return lineStart;
      lineEnd = block.length;
    }
    const start = lineStart;
    lineStart = lineEnd + 1;
    searchFrom = lineStart;
    const type = sniffRecordType(block, start, lineEnd, TYPES);
    if (type === SNIFF_OTHER) continue;
    const marks = type === SNIFF_UNKNOWN ? ANY_MARK : MARKS_BY_TYPE[type]!;
    if (marks.length > 0 && !holdsAny(block.subarray(start, lineEnd), marks)) continue;
    let record: unknown;
    try {
      record = JSON.parse(block.toString('utf8', start, lineEnd));
    } catch {
      stats.corruptLines += 1;
      continue;
    }
    // Outside the try: only a parse failure is a corrupt line; the caller's own errors are its to surface.
    onRecord(record);
  }
  return block.length;
}

function holdsAny(line: Buffer, marks: readonly Buffer[]): boolean {
  for (const mark of marks) if (line.indexOf(mark) !== -1) return true;
  return false;
}
