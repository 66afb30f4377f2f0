/**
 * The monitor says once per compaction that Claude Code just compacted (issue 20: never ask for the step just
 * taken): where to look in the transcript for a compaction it has not reported, from what it remembers.
 */

/** A compact_boundary's compactMetadata: what the session held before, what Claude Code counted after. */
export type CompactionNumbers = { trigger: string | undefined; preTokens: number | undefined; postTokens: number | undefined };

/**
 * What the monitor remembers per session: how far into the transcript it has looked for compactions, and the
 * newest compaction it saw there (its boundary is read once: after the next turn the occupancy read stops before it);
 * and the project's records key (checkpoints/provenance.ts `recordsKey`), so that a prompt does not hash the
 * project's folder again.
 */
export type MonitorMark = {
  scannedTo: number;
  lastCompaction?: CompactionNumbers | undefined;
  records?: { dir: string; key: string } | undefined;
};

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

/**
 * The mark after a look that ended at `fileSize`: a compaction found there is the newest; a replaced transcript
 * forgets the old one. `records`: the project's records key as this run knows it.
 */
export function nextMonitorMark(
  prior: MonitorMark | undefined,
  found: { compaction?: CompactionNumbers | undefined; fileSize: number },
  records?: { dir: string; key: string },
): MonitorMark {
  const lastCompaction = found.compaction ?? newestKnownCompaction(prior, found.fileSize);
  const mark: MonitorMark = lastCompaction ? { scannedTo: found.fileSize, lastCompaction } : { scannedTo: found.fileSize };
  if (records) mark.records = { dir: records.dir, key: records.key };
  return mark;
}

/** The compaction a mark remembers, while the transcript is still the one it was looked at in (not shorter). */
export function newestKnownCompaction(prior: MonitorMark | undefined, fileSize: number): CompactionNumbers | undefined {
  return prior && fileSize >= prior.scannedTo ? prior.lastCompaction : undefined;
}

/** Whether the mark must be rewritten: the look went further, or the newest compaction changed. */
export function markChanged(prior: MonitorMark | undefined, next: MonitorMark): boolean {
  return JSON.stringify(prior ?? null) !== JSON.stringify(next);
}

/** The newest compaction of the session left the context over the ceiling: another one is the step just taken. */
export type StuckAfterCompaction = { postTokens: number };

/**
 * Issue 20, "never ask for the step just taken": when the session's newest compaction (none newer since) left
 * `postTokens` at or over the ceiling (judged as the tiers judge: percent of the window ≥ ceilingPct), asking for
 * /compact, or for the recovery skill whose next step is /compact, again will not bring the context under. The way
 * down is then a checkpoint and /clear (SessionStart `clear` resumes from the newest checkpoint). Undefined when the
 * rule does not hold: no compaction known, no postTokens (older clients), or one that left the context under.
 */
export function judgeStuckAfterCompaction(
  newest: CompactionNumbers | undefined,
  ceilingPct: number,
  windowTokens: number,
): StuckAfterCompaction | undefined {
  const post = newest?.postTokens;
  if (post === undefined || !(windowTokens > 0)) return undefined;
  return (post / windowTokens) * 100 >= ceilingPct ? { postTokens: post } : undefined;
}
