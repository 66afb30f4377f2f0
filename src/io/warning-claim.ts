/**
 * A warning's claim on its 5-point band: the guard decides it before anything is worded, so a deduplicated warning
 * (silent) names no skill, words nothing and logs nothing.
 */
import { bucketOf, shouldWarnAgain, type Verdict } from '../core/ceiling.js';
import { epochAfterScan, planEpoch, shouldWriteEpoch } from '../core/dedup.js';
import { describeError, type Debug } from './debug.js';
import { claimWarning, openSessionStateDir, pruneEpochs, readDedupEpoch, readWarnedBuckets, writeDedupEpoch } from './state.js';
import { findLastCompaction } from './transcript.js';

/**
 * How a warning's claim came out: `speak` (this call won its band), `deduplicated` (its band already
 * warned since the last compaction, or another hook won it), `unremembered` (the dedup state cannot be
 * used: the guard speaks anyway, every time, rather than never; DESIGN.md, "Trust boundaries").
 */
export type WarningClaim = 'speak' | 'deduplicated' | 'unremembered';

export type DedupPlace = { stateDir: string; key: string; transcript: string; fileSize: number | undefined; maxScanBytes: number };

/** `speak` when this call's 5-point bucket (or a higher one) has not warned since the last compaction and it won the exclusive marker. */
export function claimWarningOnce(verdict: Verdict, place: DedupPlace, debug: Debug): WarningClaim {
  try {
    const { dir, made } = openSessionStateDir(place.stateDir, place.key);
    const fileSize = place.fileSize ?? 0;
    const prior = readDedupEpoch(dir);
    const step = planEpoch(prior, fileSize);
    const next =
      step.kind === 'decided' ? step.next : epochAfterScan(prior!, findLastCompaction(place.transcript, step.scanFrom, place.maxScanBytes));
    if (shouldWriteEpoch(prior, next)) writeDedupEpoch(dir, next);
    if (prior && next.epoch !== prior.epoch) {
      debug(`compaction or rewrite detected (epoch ${prior.epoch} → ${next.epoch}); dedup reset`);
      pruneEpochs(dir, next.epoch);
    }
    const bucket = bucketOf(verdict.data.percent ?? 0);
    // A folder made just now holds no marker (a racing hook's claim is settled by the exclusive marker below).
    if (!shouldWarnAgain(bucket, made ? [] : readWarnedBuckets(dir, next.epoch))) {
      debug(`bucket ${bucket} already warned in epoch ${next.epoch}; silent`);
      return 'deduplicated';
    }
    return claimWarning(dir, next.epoch, bucket) ? 'speak' : 'deduplicated';
  } catch (error) {
    debug(`dedup state unavailable (${describeError(error)}); warning without it`);
    return 'unremembered';
  }
}
