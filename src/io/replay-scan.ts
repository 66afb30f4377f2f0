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
 * after its first bytes: most of a transcript's bytes are never searched.
 */
// The record types the backward reader's seekers settle on (turn, compaction boundary, model attachment), in MARKS_BY_TYPE's order.
const TYPES = [...RECORD_TYPES, MODEL_ATTACHMENT_TYPE].map((name) => Buffer.from(name));
const MARKS_BY_TYPE: readonly (readonly Buffer[])[] = [[], [Buffer.from(RECORD_MARKS[1])], [Buffer.from(MODEL_ATTACHMENT_MARK)]];
const ANY_MARK = [...RECORD_MARKS, MODEL_ATTACHMENT_MARK].map((mark) => Buffer.from(mark));
const NEWLINE = 0x0a;
/** Reads of 1 MiB: big enough that a read's fixed cost vanishes, small enough to stay in the CPU's cache while scanned. */
const DEFAULT_CHUNK_BYTES = 1024 * 1024;
const KEPT_BUFFER_BYTES = 16 * 1024 * 1024;

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
  let carry = 0; // bytes of an unfinished line at the start of `buffer`
  let skipping = false; // inside an oversized line: drop bytes up to its end
  try {
    for (;;) {
      if (buffer.length - carry < chunkBytes) {
        const bigger = Buffer.allocUnsafeSlow(carry + chunkBytes);
        buffer.copy(bigger, 0, 0, carry);
        buffer = bigger;
      }
      const read = readSync(fd, buffer, carry, chunkBytes, null);
      stats.bytes += read;
      const end = carry + read;
      if (read === 0) {
        if (carry > 0 && !skipping) parseLines(buffer.subarray(0, carry), onRecord, stats); // a last line without newline
        return stats;
      }
      let start = 0;
      if (skipping) {
        const newline = buffer.indexOf(NEWLINE, carry);
        if (newline === -1 || newline >= end) {
          carry = 0;
          continue;
        }
        skipping = false;
        start = newline + 1;
      }
      const lastNewline = buffer.lastIndexOf(NEWLINE, end - 1);
      if (lastNewline >= start) parseLines(buffer.subarray(start, lastNewline + 1), onRecord, stats);
      const restFrom = Math.max(start, lastNewline + 1);
      carry = end - restFrom;
      if (carry > maxLine) {
        stats.oversizedLines += 1;
        skipping = true;
        carry = 0;
      } else if (restFrom > 0) {
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

/** `block` holds whole lines; parse each one that may matter, once. */
function parseLines(block: Buffer, onRecord: (record: unknown) => void, stats: FileScan): void {
  for (let lineStart = 0; lineStart < block.length; ) {
    let lineEnd = block.indexOf(NEWLINE, lineStart);
    if (lineEnd === -1) lineEnd = block.length;
    const start = lineStart;
    lineStart = lineEnd + 1;
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
}

function holdsAny(line: Buffer, marks: readonly Buffer[]): boolean {
  for (const mark of marks) if (line.indexOf(mark) !== -1) return true;
  return false;
}
