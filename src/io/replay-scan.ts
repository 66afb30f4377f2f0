/**
 * Streams a transcript forward for replay: big reads, marks found with native
 * searches over whole chunks, and only the lines holding a mark are parsed.
 * Throughput, not start-up, is the budget here.
 */
import { closeSync, readSync } from 'node:fs';
import { MODEL_ATTACHMENT_MARK } from '../core/model-attachment.js';
import { RECORD_MARKS } from '../core/occupancy.js';
import { openRegularFile } from './read-safe.js';

export type FileScan = { bytes: number; corruptLines: number; oversizedLines: number };

/** Turns, compactions, and the model attachments that say which window a session had. */
const MARKS = [...RECORD_MARKS, MODEL_ATTACHMENT_MARK].map((mark) => Buffer.from(mark));
const NEWLINE = 0x0a;

/** Call `onRecord` with every parsed line that may matter, in file order. Throws when the file cannot be read (or `onRecord` throws). */
export function scanRecords(
  path: string,
  onRecord: (record: unknown) => void,
  options: { chunkBytes?: number; maxLineBytes?: number } = {},
): FileScan {
  const chunkBytes = options.chunkBytes ?? 4 * 1024 * 1024;
  const maxLine = options.maxLineBytes ?? 64 * 1024 * 1024;
  const fd = openRegularFile(path);
  const stats: FileScan = { bytes: 0, corruptLines: 0, oversizedLines: 0 };
  let buffer = Buffer.allocUnsafeSlow(chunkBytes * 2);
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
  }
}

/** `block` holds whole lines; parse each line that contains a mark, once. */
function parseLines(block: Buffer, onRecord: (record: unknown) => void, stats: FileScan): void {
  const hits: number[] = [];
  for (const mark of MARKS) for (let at = block.indexOf(mark); at !== -1; at = block.indexOf(mark, at + mark.length)) hits.push(at);
  if (hits.length === 0) return;
  hits.sort((a, b) => a - b);
  let doneUpTo = -1;
  for (const hit of hits) {
    if (hit <= doneUpTo) continue;
    const lineStart = block.lastIndexOf(NEWLINE, hit) + 1;
    let lineEnd = block.indexOf(NEWLINE, hit);
    if (lineEnd === -1) lineEnd = block.length;
    doneUpTo = lineEnd;
    let record: unknown;
    try {
      record = JSON.parse(block.toString('utf8', lineStart, lineEnd));
    } catch {
      stats.corruptLines += 1;
      continue;
    }
    // Outside the try: only a parse failure is a corrupt line; the caller's own errors are its to surface.
    onRecord(record);
  }
}
