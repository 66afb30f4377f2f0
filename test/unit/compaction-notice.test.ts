/** The monitor's once-per-compaction notice: where it looks (core) and what the backward read finds there (io). */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compactionScanBytes } from '../../src/core/compaction-notice.js';
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
