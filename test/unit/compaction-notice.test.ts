/** The monitor's once-per-compaction notice: where it looks (core) and what the backward read finds there (io). */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  compactionScanBytes,
  judgeStuckAfterCompaction,
  markChanged,
  newestKnownCompaction,
  nextMonitorMark,
} from '../../src/core/compaction-notice.js';
import { readCompactionSince } from '../../src/io/transcript.js';
import { aTranscript } from '../../src/samples/transcript-builder.js';

const CAP = 64 * 1024 * 1024;

describe('compactionScanBytes', () => {
  it.each([
    ['first look, newest record a boundary: back to it (cap)', undefined, 5_000, true, CAP],
    ['first look, newest record a turn: nothing (a compaction before it is not news)', undefined, 5_000, false, 0],
    ['nothing appended since the last look', { scannedTo: 5_000 }, 5_000, true, 0],
    ['appended since the last look, and the newline before', { scannedTo: 5_000 }, 7_000, false, 2_001],
    ['appended to an empty file', { scannedTo: 0 }, 7_000, false, 7_000],
    ['more appended than the cap', { scannedTo: 1 }, CAP * 2, false, CAP],
    ['the transcript was replaced (shorter than the last look): as a first look', { scannedTo: 9_000 }, 5_000, true, CAP],
    ['replaced, newest a turn', { scannedTo: 9_000 }, 5_000, false, 0],
  ] as const)('%s', (_name, prior, fileSize, newestIsBoundary, bytes) => {
    expect(compactionScanBytes(prior, fileSize, newestIsBoundary, CAP)).toBe(bytes);
  });
});

describe('readCompactionSince', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cc-notice-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const before = aTranscript().user('go').assistant({ cacheRead: 500_000 }).toString();
  const boundary = aTranscript().compactBoundary({ trigger: 'manual', preTokens: 500_010, postTokens: 420_000 }).toString();
  const after = aTranscript().assistant({ cacheRead: 421_000 }).toString();
  const path = join(dir, 'session.jsonl');
  writeFileSync(path, before + boundary + after);

  it('finds a boundary that starts exactly where the last look ended (the newline before it is read too)', () => {
    const found = readCompactionSince(path, (size) => compactionScanBytes({ scannedTo: before.length }, size, false, CAP));
    expect(found).toEqual({
      compaction: { kind: 'compaction', trigger: 'manual', preTokens: 500_010, postTokens: 420_000 },
      fileSize: before.length + boundary.length + after.length,
    });
  });

  it('finds none when the last look was past it, and reads nothing when asked for 0 bytes', () => {
    expect(readCompactionSince(path, () => after.length + 1).compaction).toBeUndefined();
    expect(readCompactionSince(path, () => 0).compaction).toBeUndefined();
  });

  it('ignores a sidechain boundary (a subagent compacting its own context)', () => {
    const side = join(dir, 'side.jsonl');
    writeFileSync(side, before + boundary.replace('"isSidechain":false', '"isSidechain":true') + after);
    expect(boundary).toContain('"isSidechain":false');
    expect(readCompactionSince(side, () => CAP).compaction).toBeUndefined();
  });
});

describe('the newest compaction the monitor remembers (monitor.json)', () => {
  const over = { trigger: 'auto', preTokens: 951_030, postTokens: 449_400 };
  const under = { trigger: 'manual', preTokens: 460_000, postTokens: 2_647 };
  it.each([
    ['a first look that finds one keeps it', undefined, over, 9_000, { scannedTo: 9_000, lastCompaction: over }],
    ['a first look that finds none remembers none', undefined, undefined, 9_000, { scannedTo: 9_000 }],
    [
      'a later look that finds none keeps the one it had',
      { scannedTo: 9_000, lastCompaction: over },
      undefined,
      12_000,
      { scannedTo: 12_000, lastCompaction: over },
    ],
    [
      'a newer compaction replaces it',
      { scannedTo: 9_000, lastCompaction: over },
      under,
      12_000,
      { scannedTo: 12_000, lastCompaction: under },
    ],
    ['a replaced (shorter) transcript forgets it', { scannedTo: 9_000, lastCompaction: over }, undefined, 5_000, { scannedTo: 5_000 }],
  ] as const)('%s', (_name, prior, compaction, fileSize, next) => {
    expect(nextMonitorMark(prior, { compaction, fileSize })).toEqual(next);
  });

  it("keeps the project's records key it is given, and is rewritten to add one an older mark lacks", () => {
    const records = { dir: '/work/app', key: '0123456789abcdef0123456789abcdef' };
    const next = nextMonitorMark({ scannedTo: 9_000, lastCompaction: over }, { fileSize: 9_000 }, records);
    expect(next).toEqual({ scannedTo: 9_000, lastCompaction: over, records });
    expect(markChanged({ scannedTo: 9_000, lastCompaction: over }, next)).toBe(true);
    expect(markChanged(next, nextMonitorMark(next, { fileSize: 9_000 }, records))).toBe(false);
  });

  it('is rewritten only when the look went further or the compaction changed', () => {
    expect(markChanged({ scannedTo: 9_000, lastCompaction: over }, { scannedTo: 9_000, lastCompaction: over })).toBe(false);
    expect(markChanged({ scannedTo: 9_000 }, { scannedTo: 9_000, lastCompaction: over })).toBe(true);
    expect(markChanged(undefined, { scannedTo: 0 })).toBe(true);
    expect(newestKnownCompaction({ scannedTo: 9_000, lastCompaction: over }, 8_999)).toBeUndefined();
    expect(newestKnownCompaction({ scannedTo: 9_000, lastCompaction: over }, 9_000)).toEqual(over);
  });
});

describe('judgeStuckAfterCompaction (issue 20: never ask for the step just taken)', () => {
  const left = (postTokens: number | undefined) => ({ trigger: 'auto', preTokens: 951_030, postTokens });
  it.each([
    ['left over the ceiling: stuck', left(449_400), 40, 1_000_000, { postTokens: 449_400 }],
    ['left exactly at the ceiling (the tiers count it as over): stuck', left(400_000), 40, 1_000_000, { postTokens: 400_000 }],
    ['left just under the ceiling: a compaction can help again', left(399_999), 40, 1_000_000, undefined],
    ['left at 2,895 (the real auto-compaction): not stuck', left(2_895), 40, 1_000_000, undefined],
    ['no postTokens (an older client): unknown, not stuck', left(undefined), 40, 1_000_000, undefined],
    ['no compaction known', undefined, 40, 1_000_000, undefined],
    ['a 200K window, 72,000 left at a 30% ceiling', left(72_000), 30, 200_000, { postTokens: 72_000 }],
    ['no window to judge against', left(449_400), 40, 0, undefined],
  ] as const)('%s', (_name, newest, ceilingPct, windowTokens, expected) => {
    expect(judgeStuckAfterCompaction(newest, ceilingPct, windowTokens)).toEqual(expected);
  });
});
