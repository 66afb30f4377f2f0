/**
 * The transcripts the hook benches read (bench/guard.ts, bench/bounded.ts), generated once into the bench's data folder
 * and kept there: realistic turns up to a size with the newest usage behind a 4 MiB line, and the same ending in a
 * compaction. One generator, so every bench times the same files.
 */
import { closeSync, existsSync, ftruncateSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { aTranscript } from '../src/samples/transcript-builder.js';

export const MiB = 1024 * 1024;
/** Bump when the generated shape changes, so stale files are rebuilt. */
export const SHAPE = 'v4';
/** The tool_use id of the newest turn's Skill call: a PreToolUse input naming it is the call being judged. */
export const CALL_ID = 'toolu_bench_call';

/**
 * One realistic turn: prompt, attachments, a tool call, its result and the
 * bookkeeping records. Every 8th turn's result is 1–4 MiB (a big file read).
 */
export function turn(index: number, bigAllowed: boolean): string {
  const big = bigAllowed && index % 8 === 7;
  const result = big ? (1 + (index % 4)) * MiB : 2_000 + ((index * 7919) % 40_000);
  return aTranscript()
    .user(`step ${index}`)
    .attachment(13_000)
    .assistant({
      cacheRead: 100_000 + (index % 50) * 5_000,
      cacheCreation: 5_000,
      toolUse: { name: 'Read', input: { file_path: `src/f${index}.ts` } },
    })
    .toolResult(result)
    .progress({ cacheRead: 750_000 })
    .noise()
    .toString();
}

/** The end every large file shares: the newest usage (300,005 tokens) sits behind a 4 MiB tool result, the worst common case. */
export function largeTail(): string {
  // The newest turn makes the call being judged (its tool_use id is the hook input's), so the guard never waits.
  return aTranscript()
    .user('last step')
    .assistant({ cacheRead: 299_000, cacheCreation: 1_000, toolUse: { name: 'Skill', input: { skill: 'deep-dive' }, id: CALL_ID } })
    .toolResult(4 * MiB)
    .attachment(13_000)
    .noise()
    .toString();
}

export function smallTranscript(): string {
  return aTranscript()
    .user('hi')
    .assistant({ cacheRead: 300_000 - 5, toolUse: { name: 'Skill', input: { skill: 'deep-dive' }, id: CALL_ID } })
    .toString();
}

/** What follows a compaction that left no postTokens: the usage before it is stale, occupancy unknown. */
export function compactedEnd(): string {
  return aTranscript().compactBoundary({ trigger: 'auto', preTokens: 120_000 }).toString();
}

/** Realistic turns up to `size`, the newest usage behind a 4 MiB line (the shape earlier results used). */
export function ensureTurns(dir: string, name: string, size: number): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}-${SHAPE}.jsonl`);
  if (existsSync(path)) return path;
  const fd = openSync(`${path}.part`, 'w');
  let written = 0;
  const end = size >= 10 * MiB ? largeTail() : smallTranscript();
  for (let i = 0; size >= 10 * MiB; i++) {
    const chunk = turn(i, size - written > 6 * MiB);
    if (written + chunk.length + end.length > size) break;
    written += writeSync(fd, chunk);
  }
  writeSync(fd, end);
  closeSync(fd);
  renameSync(`${path}.part`, path);
  return path;
}

/**
 * The same size ending in a compaction without postTokens. The large one is sparse: a hole (read as
 * zero bytes) up to the tail, which is all any hook reads; it costs no disk space.
 */
export function ensureCompacted(dir: string, name: string, size: number): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}-compacted-${SHAPE}.jsonl`);
  if (existsSync(path)) return path;
  writeSparse(`${path}.part`, size, Buffer.from(`${size >= 10 * MiB ? largeTail() : smallTranscript()}${compactedEnd()}`));
  renameSync(`${path}.part`, path);
  return path;
}

/** A file of `size` bytes (at least the tail's): a hole up to `tail`, which costs no disk space, then `tail`. */
export function writeSparse(path: string, size: number, tail: Buffer): void {
  const fd = openSync(path, 'w');
  const hole = Math.max(0, size - tail.length);
  if (hole > 0) {
    ftruncateSync(fd, hole);
    writeSync(fd, '\n', hole - 1); // the hole ends a line, so the tail starts one
  }
  writeSync(fd, tail, 0, tail.length, hole);
  closeSync(fd);
}
