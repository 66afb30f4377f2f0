/**
 * The monitor says once per compaction that Claude Code just compacted (issue 20: never ask for the step just
 * taken): where to look in the transcript for a compaction it has not reported, from what it remembers.
 */

/** What the monitor remembers per session: how far into the transcript it has looked for compactions. */
export type MonitorMark = { scannedTo: number };

/**
 * Bytes to read back from the end of the transcript for an unreported compaction boundary: those appended since
 * the last look (and the newline before them, so a boundary that starts right there is whole); on a first look,
 * or when the transcript was replaced, only as far as the newest record when that record is a boundary (a
 * compaction older than the newest turn was before our time). Capped by `maxScanBytes`.
 */
export function compactionScanBytes(
  prior: MonitorMark | undefined,
  fileSize: number,
  newestIsBoundary: boolean,
  maxScanBytes: number,
): number {
  if (prior && fileSize >= prior.scannedTo) {
    const appended = fileSize - prior.scannedTo;
    return appended === 0 ? 0 : Math.min(maxScanBytes, appended + (prior.scannedTo > 0 ? 1 : 0));
  }
  return newestIsBoundary ? maxScanBytes : 0;
}
