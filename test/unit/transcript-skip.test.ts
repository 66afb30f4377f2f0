/**
 * The backward reader jumps over lines without a mark in one native search
 * (a flood of blank or filler lines costs nothing): whatever the lines and
 * the read size, it must settle on the same record as a naive line-by-line reader.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { classifyRecord, occupancyFromEvidence } from '../../src/core/occupancy.js';
import { readOccupancy } from '../../src/io/transcript.js';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { naiveNewestFirst } from '../helpers/naive-reader.js';

const dir = mkdtempSync(join(tmpdir(), 'cc-skip-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The reference: every line from the end, parsed whole. */
function naive(content: string) {
  return occupancyFromEvidence(naiveNewestFirst(content, classifyRecord), false);
}

const piece = fc.oneof(
  fc.integer({ min: 1_000, max: 900_000 }).map((tokens) => aTranscript().assistant({ cacheRead: tokens }).toString()),
  fc.integer({ min: 100, max: 9_000 }).map((post) => aTranscript().compactBoundary({ postTokens: post }).toString()),
  fc.constant(aTranscript().compactBoundary().toString()),
  fc.constant(aTranscript().sidechain().toString()),
  fc.constant(aTranscript().progress().toString()),
  fc.constant(aTranscript().user('hello').toString()),
  fc.integer({ min: 1, max: 300 }).map((n) => '\n'.repeat(n)),
  fc.constantFrom('{"type":"assistant"', '"assistant"\n', 'compact_boundary\n', 'garbage\n', '{"type":"assistant","message":{}}\n'),
);

describe('skipping unmarked lines', () => {
  it('settles on the same record as a naive reader, for any lines and any read size', () => {
    let n = 0;
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 25 }), fc.integer({ min: 1, max: 600 }), (pieces, chunkBytes) => {
        const content = pieces.join('');
        const path = join(dir, `t${++n}.jsonl`);
        writeFileSync(path, content);
        expect(readOccupancy(path, { maxScanBytes: 64 * 1024 * 1024, chunkBytes }).occupancy).toEqual(naive(content));
      }),
      { numRuns: 300 },
    );
  });
});

describe('reads that grow from 64 KiB to 256 KiB (no chunk size stated, as the hooks read)', () => {
  /** A tool result of up to 1.5 MB, with the marks inside its text wherever a read may cut it. */
  const bigLine = fc
    .tuple(
      fc.integer({ min: 10_000, max: 1_500_000 }),
      fc.array(fc.constantFrom('"assistant"', 'compact_boundary', '\\n'), { maxLength: 6 }),
    )
    .map(([length, marks]) => {
      const filler = 'x'.repeat(length);
      let text = filler;
      for (const [i, mark] of marks.entries()) {
        const at = Math.floor((length * (i + 1)) / (marks.length + 1));
        text = `${text.slice(0, at)}${mark}${text.slice(at)}`;
      }
      return `${JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', content: text }] } })}\n`;
    });

  it('settle on the same record as a naive reader across tool results of several MB', () => {
    let n = 0;
    fc.assert(
      fc.property(fc.array(fc.oneof(piece, bigLine), { maxLength: 8 }), (pieces) => {
        const content = pieces.join('');
        const path = join(dir, `g${++n}.jsonl`);
        writeFileSync(path, content);
        expect(readOccupancy(path, { maxScanBytes: 64 * 1024 * 1024 }).occupancy).toEqual(naive(content));
      }),
      { numRuns: 40 },
    );
  });
});
