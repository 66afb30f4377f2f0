import { mkdtempSync, rmSync, writeFileSync, appendFileSync, openSync, closeSync, ftruncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findLastCompaction, readOccupancy, scanTranscript } from '../../src/io/transcript.js';
import { aTranscript } from '../../src/samples/transcript-builder.js';
import { EACH_CLIENT, REAL_CLIENTS, recordedVersions } from '../helpers/real-clients.js';

const dir = mkdtempSync(join(tmpdir(), 'cc-transcript-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let counter = 0;
const file = (content: string) => {
  const path = join(dir, `t${++counter}.jsonl`);
  writeFileSync(path, content);
  return path;
};
const MiB = 1024 * 1024;
const scan = (path: string, extra: Partial<Parameters<typeof scanTranscript>[1]> = {}) =>
  scanTranscript(path, { maxScanBytes: 64 * MiB, ...extra });
const occupancyOf = (content: string, extra: Partial<Parameters<typeof scanTranscript>[1]> = {}) =>
  readOccupancy(file(content), { maxScanBytes: 64 * MiB, ...extra }).occupancy;

it('every recorded client version is read by the tests below', () => {
  expect(REAL_CLIENTS.map((client) => client.version).sort()).toEqual(recordedVersions());
});

describe.each(EACH_CLIENT)('real Claude Code %s transcripts', (_version, client) => {
  const { dir, autoCompact, manualCompact } = client;
  const auto = join(dir, 'auto-compact.jsonl');
  const manual = join(dir, 'skill-then-manual-compact.jsonl');

  it(`auto-compact.jsonl: the turn after the boundary is newest, so its usage counts (${autoCompact.tokens.toLocaleString('en-US')})`, () => {
    expect(readOccupancy(auto, { maxScanBytes: 64 * MiB }).occupancy).toEqual({ kind: 'measured', ...autoCompact });
  });

  it(`skill-then-manual-compact.jsonl: the boundary is newest, so occupancy is its postTokens (${manualCompact.tokens.toLocaleString('en-US')})`, () => {
    expect(readOccupancy(manual, { maxScanBytes: 64 * MiB }).occupancy).toEqual({ kind: 'measured', ...manualCompact });
  });

  it('reads only the tail it needs, not the whole file', () => {
    const result = scan(auto);
    expect(result.fileSize).toBeGreaterThan(290_000);
    expect(result.bytesScanned).toBeLessThan(result.fileSize / 2);
  });

  it('with tiny chunks (every line split across reads) the answer is the same', () => {
    for (const chunkBytes of [1, 7, 64, 1000]) {
      expect(readOccupancy(auto, { maxScanBytes: 64 * MiB, chunkBytes }).occupancy).toEqual({ kind: 'measured', ...autoCompact });
      expect(readOccupancy(manual, { maxScanBytes: 64 * MiB, chunkBytes }).occupancy).toEqual({ kind: 'measured', ...manualCompact });
    }
  });
});

describe('built transcripts', () => {
  it('takes the newest main-thread usage, skipping newer decoys', () => {
    const t = aTranscript()
      .assistant({ cacheRead: 10_000 })
      .assistant({ cacheRead: 90_000, cacheCreation: 1_000 })
      .sidechain({ cacheRead: 150_000 })
      .progress({ cacheRead: 170_000 })
      .apiError()
      .noise()
      .attachment(20_000);
    expect(occupancyOf(t.toString())).toEqual({ kind: 'measured', tokens: 91_005, source: 'usage' });
  });

  it('a boundary newer than the last usage makes it stale: postTokens', () => {
    const t = aTranscript().assistant({ cacheRead: 180_000 }).compactBoundary({ postTokens: 3_000 }).user('go on');
    expect(occupancyOf(t.toString())).toEqual({ kind: 'measured', tokens: 3_000, source: 'compaction' });
  });

  it('a boundary without postTokens: unknown since compaction', () => {
    const t = aTranscript().assistant({ cacheRead: 180_000 }).compactBoundary({ trigger: 'manual' }).user('go on');
    expect(occupancyOf(t.toString())).toEqual({ kind: 'unknown-since-compaction' });
  });

  it('a turn after the boundary is fresh again', () => {
    const t = aTranscript()
      .assistant({ cacheRead: 180_000 })
      .compactBoundary({ trigger: 'manual' })
      .user('go on')
      .assistant({ cacheRead: 4_000 });
    expect(occupancyOf(t.toString())).toEqual({ kind: 'measured', tokens: 4_005, source: 'usage' });
  });

  it('file order is truth, not timestamps', () => {
    const older = JSON.stringify({
      type: 'assistant',
      timestamp: '2030-01-01T00:00:00Z',
      message: { model: 'm', usage: { input_tokens: 999 } },
    });
    const newer = JSON.stringify({
      type: 'assistant',
      timestamp: '2020-01-01T00:00:00Z',
      message: { model: 'm', usage: { input_tokens: 5 } },
    });
    expect(occupancyOf(`${older}\n${newer}\n`)).toMatchObject({ tokens: 5 });
  });

  it('a torn last line (being written) is skipped, not fatal', () => {
    const t = aTranscript().assistant({ cacheRead: 50_000 });
    expect(occupancyOf(t.withTornTail())).toMatchObject({ kind: 'measured', tokens: 50_005 });
  });

  it('a file without a trailing newline still reads its last complete record', () => {
    const t = aTranscript().assistant({ cacheRead: 50_000 }).toString().trimEnd();
    expect(occupancyOf(t)).toMatchObject({ tokens: 50_005 });
  });

  it('garbage lines, blank lines and CRLF endings are skipped', () => {
    const good = aTranscript().assistant({ cacheRead: 7_000 }).toString();
    expect(occupancyOf(`${good}\n\nnot json "assistant"\r\n{"type":"assistant"\r\n\u0000\u0001\n`)).toMatchObject({ tokens: 7_005 });
  });

  it('empty file and no usage at all: unavailable', () => {
    expect(occupancyOf('')).toEqual({ kind: 'unavailable', reason: 'no-usage' });
    expect(occupancyOf(aTranscript().user('hi').noise().toString())).toEqual({ kind: 'unavailable', reason: 'no-usage' });
  });

  it('missing file: unavailable with the error, never a throw', () => {
    const result = readOccupancy(join(dir, 'nope.jsonl'), { maxScanBytes: MiB });
    expect(result.occupancy).toEqual({ kind: 'unavailable', reason: 'no-transcript' });
    expect(result.error).toMatch(/ENOENT/);
  });

  it('a directory instead of a file: unavailable, because it cannot be read', () => {
    expect(readOccupancy(dir, { maxScanBytes: MiB }).occupancy).toEqual({ kind: 'unavailable', reason: 'unreadable' });
  });

  it('stops at the byte cap and says so', () => {
    const t = aTranscript().assistant({ cacheRead: 5_000 });
    for (let i = 0; i < 40; i++) t.attachment(20_000);
    const result = scan(file(t.toString()), { maxScanBytes: 256 * 1024 });
    expect(result.capHit).toBe(true);
    expect(result.bytesScanned).toBeLessThanOrEqual(256 * 1024);
    expect(readOccupancy(file(t.toString()), { maxScanBytes: 256 * 1024 }).occupancy).toEqual({ kind: 'unavailable', reason: 'scan-cap' });
  });

  it('inside a subagent: newest usage of that agent only', () => {
    const t = aTranscript().assistant({ agentId: 'a1', cacheRead: 30_000 }).assistant({ agentId: 'a2', cacheRead: 90_000 });
    expect(occupancyOf(t.toString(), { agentId: 'a1' })).toMatchObject({ tokens: 30_005 });
    expect(occupancyOf(t.toString(), { agentId: 'a3' })).toEqual({ kind: 'unavailable', reason: 'no-usage' });
  });
});

describe('multi-megabyte lines', () => {
  it('a 5 MiB tool result after the last turn is skipped without parsing', () => {
    const t = aTranscript()
      .assistant({ cacheRead: 42_000 })
      .toolResult(5 * MiB);
    expect(occupancyOf(t.toString())).toMatchObject({ tokens: 42_005 });
  });

  it('a 3 MiB assistant turn (a big Write) is still measured, streamed rather than parsed whole', () => {
    const big = 'x'.repeat(3 * MiB);
    const t = aTranscript()
      .assistant({ cacheRead: 1_000 })
      .assistant({ cacheRead: 77_000, toolUse: { name: 'Write', input: { file_path: 'a.ts', content: big } } });
    expect(occupancyOf(t.toString())).toMatchObject({ kind: 'measured', tokens: 77_005 });
    expect(occupancyOf(t.toString(), { chunkBytes: 4093 })).toMatchObject({ kind: 'measured', tokens: 77_005 });
  });

  it('an oversized sidechain turn is still a decoy', () => {
    const t = aTranscript()
      .assistant({ cacheRead: 1_000 })
      .assistant({ sidechain: true, cacheRead: 150_000, text: 'y'.repeat(2 * MiB) });
    expect(occupancyOf(t.toString())).toMatchObject({ tokens: 1_005 });
  });

  it('an oversized progress record nesting usage is still a decoy', () => {
    const progress = JSON.stringify({
      type: 'progress',
      data: {
        type: 'agent_progress',
        message: { type: 'assistant', message: { model: 'm', content: 'z'.repeat(2 * MiB), usage: { input_tokens: 170_000 } } },
      },
    });
    const t = aTranscript().assistant({ cacheRead: 1_000 }).raw(progress);
    expect(occupancyOf(t.toString())).toMatchObject({ tokens: 1_005 });
  });

  it('a mark split across two reads of an already oversized line is still found', () => {
    // "type" placed 100 KiB into a 3 MiB line: the read boundary splitting the mark has no newline on either side.
    const line = `{"isSidechain":false,"pad":"${'v'.repeat(100 * 1024)}","type":"assistant","message":{"model":"m","content":"${'w'.repeat(3 * MiB)}","usage":{"input_tokens":66000}}}`;
    const base = `${aTranscript().assistant({ cacheRead: 1_000 }).toString()}${line}\n`;
    const markAt = base.lastIndexOf('"assistant"');
    // Pad after the line so that a 64 KiB read boundary, counted from the end, falls inside the mark.
    const distance = base.length - (markAt + 4);
    const padOverhead = `{"type":"pad","p":""}\n`.length;
    const padLength = (65_536 - ((distance + padOverhead) % 65_536)) % 65_536;
    const content = `${base}{"type":"pad","p":"${'.'.repeat(padLength)}"}\n`;
    expect((content.length - (markAt + 4)) % 65_536).toBe(0);
    expect(occupancyOf(content)).toMatchObject({ kind: 'measured', tokens: 66_000 });
  });

  it('an oversized torn last line is skipped', () => {
    const t = aTranscript().assistant({ cacheRead: 9_000 });
    const torn = `{"type":"assistant","isSidechain":false,"message":{"model":"m","content":"${'q'.repeat(2 * MiB)}`;
    expect(occupancyOf(t.withTornTail(torn))).toMatchObject({ tokens: 9_005 });
  });

  it('an oversized compact boundary (huge metadata) still counts', () => {
    const boundary = JSON.stringify({
      type: 'system',
      subtype: 'compact_boundary',
      content: 'c'.repeat(2 * MiB),
      compactMetadata: { trigger: 'auto', preTokens: 1, postTokens: 1_234 },
    });
    const t = aTranscript().assistant({ cacheRead: 100_000 }).raw(boundary);
    expect(occupancyOf(t.toString())).toEqual({ kind: 'measured', tokens: 1_234, source: 'compaction' });
  });
});

describe('cost does not grow with the transcript', () => {
  it('bytes scanned are the same for a small and a 40 MiB transcript with the same tail', () => {
    const tail = aTranscript().assistant({ cacheRead: 60_000 }).toolResult(30_000).noise().toString();
    const small = file(tail);
    const bigPath = join(dir, 'big.jsonl');
    writeFileSync(bigPath, '');
    const filler = aTranscript();
    for (let i = 0; i < 20; i++) filler.assistant({ cacheRead: 1_000 + i }).toolResult(2 * MiB);
    for (let i = 0; i < 1; i++) appendFileSync(bigPath, filler.toString());
    appendFileSync(bigPath, tail);
    const a = scan(small);
    const b = scan(bigPath);
    expect(b.fileSize).toBeGreaterThan(40 * MiB);
    expect(b.evidence).toEqual(a.evidence);
    expect(b.bytesScanned).toBeLessThanOrEqual(a.bytesScanned + 64 * 1024);
  });
});

describe('findLastCompaction', () => {
  it('finds the last boundary after a position, and nothing before it', () => {
    const before = aTranscript().assistant({ cacheRead: 1 }).compactBoundary({ postTokens: 10 }).toString();
    const after = aTranscript().assistant({ cacheRead: 2 }).compactBoundary({ postTokens: 20 }).assistant({ cacheRead: 3 }).toString();
    const path = file(before + after);
    const found = findLastCompaction(path, Buffer.byteLength(before), 64 * MiB);
    expect(found.offset).toBeGreaterThan(Buffer.byteLength(before));
    expect(findLastCompaction(path, Buffer.byteLength(before + after), 64 * MiB).offset).toBeUndefined();
    expect(findLastCompaction(file(after.replace('compact_boundary', 'informational')), 0, 64 * MiB).offset).toBeUndefined();
  });

  it('finds a marker split across read chunks', () => {
    const pad = 'p'.repeat(64 * 1024 - 40);
    const path = file(`{"x":"${pad}"}\n${aTranscript().compactBoundary().toString()}`);
    expect(findLastCompaction(path, 0, 64 * MiB).offset).toBeDefined();
  });

  it('a file truncated to nothing reports no compaction', () => {
    const path = file(aTranscript().compactBoundary().toString());
    const fd = openSync(path, 'r+');
    ftruncateSync(fd, 0);
    closeSync(fd);
    expect(findLastCompaction(path, 0, MiB)).toEqual({ offset: undefined, fileSize: 0 });
  });
});

describe('the time budget', () => {
  const late = () => true; // a hook that starts after its budget, on a loaded machine
  it('the newest chunk is read even when the budget is already spent: a late hook still measures', () => {
    const text = aTranscript().user('go').assistant({ cacheRead: 123_000 }).toString();
    expect(occupancyOf(text, { timeUp: late })).toMatchObject({ kind: 'measured', tokens: 123_000 + 5 });
  });

  it('beyond the newest chunk the spent budget stops the scan, and says it was the clock, not the cap', () => {
    const t = aTranscript().user('go').assistant({ cacheRead: 50_000 });
    for (let i = 0; i < 40; i++) t.toolResult(10_000);
    const result = scan(file(t.toString()), { timeUp: late, chunkBytes: 16 * 1024 });
    expect(result).toMatchObject({ evidence: undefined, capHit: true, timedOut: true });
    expect(scan(file(t.toString()), { chunkBytes: 16 * 1024 })).toMatchObject({ timedOut: false });
  });
});
