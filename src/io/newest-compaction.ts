/** The session's newest compaction, for the advice that must not ask for it again (core/compaction-notice.ts). */
import { compactionScanBytes, newestKnownCompaction, type CompactionNumbers } from '../core/compaction-notice.js';
import { describeError, type Debug } from './debug.js';
import { readMonitorMark, sessionStateDir } from './state.js';
import { readCompactionSince } from './transcript.js';

/**
 * The session's newest compaction: one written since the monitor last looked (its mark, monitor.json), else the one
 * the monitor remembers. Read only: the mark is the monitor's, and it still has to report what it has not seen.
 * Undefined when nothing is known (the monitor off and no mark) or the state cannot be read.
 */
export function readNewestCompaction(
  place: { stateDir: string; key: string; transcript: string; maxScanBytes: number },
  timeUp: (() => boolean) | undefined,
  debug: Debug,
): CompactionNumbers | undefined {
  try {
    const prior = readMonitorMark(sessionStateDir(place.stateDir, place.key));
    const found = readCompactionSince(place.transcript, (size) => compactionScanBytes(prior, size, false, place.maxScanBytes), { timeUp });
    const c = found.compaction;
    return c ? { trigger: c.trigger, preTokens: c.preTokens, postTokens: c.postTokens } : newestKnownCompaction(prior, found.fileSize);
  } catch (error) {
    debug(`newest compaction unknown (${describeError(error)})`);
    return undefined;
  }
}
