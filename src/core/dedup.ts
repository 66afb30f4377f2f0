/**
 * Warning dedup's epochs: a warning speaks once per 5-point bucket per epoch,
 * and a compaction (or a replaced transcript) starts a new epoch.
 */

/** What dedup remembers per session: the current epoch and how far the transcript was searched for compactions. */
export type DedupEpoch = { epoch: string; scannedTo: number };

/** How far dedup's compaction check may fall behind before epoch.json is rewritten anyway. */
export const EPOCH_REWRITE_BYTES = 1024 * 1024;

/** What to do next: the epoch is decided, or the transcript must be searched for a compaction from `scanFrom`. */
export type EpochStep = { kind: 'decided'; next: DedupEpoch } | { kind: 'scan'; scanFrom: number };

/** The next epoch from the file size alone, when that suffices: first sight, a replaced file, or no growth. */
export function planEpoch(prior: DedupEpoch | undefined, fileSize: number): EpochStep {
  if (!prior) return { kind: 'decided', next: { epoch: 'e0', scannedTo: fileSize } };
  if (fileSize < prior.scannedTo) return { kind: 'decided', next: { epoch: `r${fileSize}`, scannedTo: fileSize } }; // transcript replaced
  if (fileSize === prior.scannedTo) return { kind: 'decided', next: prior };
  return { kind: 'scan', scanFrom: prior.scannedTo };
}

/** After the search: a compaction found at `offset` starts epoch `c<offset>`; none keeps the epoch. */
export function epochAfterScan(prior: DedupEpoch, found: { offset?: number | undefined; fileSize: number }): DedupEpoch {
  return { epoch: found.offset === undefined ? prior.epoch : `c${found.offset}`, scannedTo: found.fileSize };
}

/** Write when the epoch is new or changed, or when the search point moved far enough to save rescanning. */
export function shouldWriteEpoch(prior: DedupEpoch | undefined, next: DedupEpoch): boolean {
  return !prior || next.epoch !== prior.epoch || next.scannedTo - prior.scannedTo > EPOCH_REWRITE_BYTES;
}
