/**
 * The summary PostCompact keeps beside a checkpoint: cx-NNN-summary.json, and
 * cx-NNN-summary.acknowledged once what it dropped has been shown.
 */
import { dirname } from 'node:path';
import { join } from '../io/join-path.js';
import { parseKeptSummary, type KeptSummary } from '../core/compaction-text.js';
import type { CheckpointEntry } from './store.js';
import { ensureRealDir, sweepStaleTemps } from './store.js';
import { createExclusive, writeFileAtomic } from '../io/fs-safe.js';
import { readRegularText } from '../io/read-safe.js';

/** Well above KEPT_SUMMARY_MAX_CHARS as JSON; anything larger is not ours and reads as absent. */
const MAX_KEPT_SUMMARY_BYTES = 512 * 1024;

export function keptSummaryPath(entry: Pick<CheckpointEntry, 'path' | 'fileName'>): string {
  return join(dirname(entry.path), entry.fileName.replace(/-checkpoint\.json$/, '-summary.json'));
}

/**
 * Replace the kept summary atomically (a later PostCompact for the same checkpoint wins); the checkpoint is
 * untouched. Returns its path and the text written (whose digest the caller records as ours).
 */
export function writeKeptSummary(entry: CheckpointEntry, kept: KeptSummary): { path: string; text: string } {
  const path = keptSummaryPath(entry);
  ensureRealDir(dirname(path));
  sweepStaleTemps(dirname(path));
  const text = `${JSON.stringify(kept, null, 2)}\n`;
  writeFileAtomic(path, text, 0o600); // the conversation itself: one person's
  return { path, text };
}

/**
 * The kept summary, or undefined when there is none, it is not a plain file, or `isOwn` says we did not
 * write it (provenance.ts: a summary planted beside a checkpoint is not the conversation's).
 */
export function readKeptSummary(
  entry: Pick<CheckpointEntry, 'path' | 'fileName'>,
  isOwn: (path: string, text: string) => boolean = () => true,
): KeptSummary | undefined {
  try {
    const path = keptSummaryPath(entry);
    const text = readRegularText(path, MAX_KEPT_SUMMARY_BYTES, { noFollow: true });
    return text === undefined || !isOwn(path, text) ? undefined : parseKeptSummary(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/** Claim the right to show what the summary dropped, exactly once (an exclusive create, like checkpoint acknowledgement). */
export function claimDroppedNotice(entry: Pick<CheckpointEntry, 'path' | 'fileName'>): 'claimed' | 'taken' | 'failed' {
  try {
    return createExclusive(keptSummaryPath(entry).replace(/\.json$/, '.acknowledged')) ? 'claimed' : 'taken';
  } catch {
    return 'failed';
  }
}
