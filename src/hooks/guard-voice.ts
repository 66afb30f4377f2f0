/**
 * What the guard needs only when a verdict speaks: naming the installed
 * recovery skill, the wording, and the warning's dedup state. The hook bundle
 * loads it from dist/hook-events.cjs on that path only, so an allowed call —
 * nearly every call — never compiles it (start-up is the guard's budget).
 */
import { bucketOf, shouldWarnAgain, type Verdict } from '../core/ceiling.js';
import { epochAfterScan, planEpoch, shouldWriteEpoch } from '../core/dedup.js';
import { renderVerdict } from '../core/messages.js';
import { describeError, type Debug } from '../io/debug.js';
import { resolveRecoverySkill } from '../io/recovery-skill.js';
import { claimWarning, pruneEpochs, readDedupEpoch, readWarnedBuckets, sessionStateDir, writeDedupEpoch } from '../io/state.js';
import { findLastCompaction } from '../io/transcript.js';

/**
 * How a warning's claim came out: `speak` (this call won its band), `deduplicated`
 * (its band already warned since the last compaction, or another hook won it),
 * `silenced` (the dedup state cannot be used, so the guard cannot know and stays
 * silent; design: "unwritable state → exit 0 silently").
 */
export type WarningClaim = 'speak' | 'deduplicated' | 'silenced';

export type DedupPlace = { stateDir: string; key: string; transcript: string; fileSize: number | undefined; maxScanBytes: number };

export type GuardVoice = {
  nameRecoverySkill: typeof resolveRecoverySkill;
  render: typeof renderVerdict;
  claimWarningOnce: typeof claimWarningOnce;
};

export const GUARD_VOICE: GuardVoice = { nameRecoverySkill: resolveRecoverySkill, render: renderVerdict, claimWarningOnce };

/** `speak` when this call's 5-point bucket (or a higher one) has not warned since the last compaction and it won the exclusive marker. */
function claimWarningOnce(verdict: Verdict, place: DedupPlace, debug: Debug): WarningClaim {
  try {
    const dir = sessionStateDir(place.stateDir, place.key);
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
    if (!shouldWarnAgain(bucket, readWarnedBuckets(dir, next.epoch))) {
      debug(`bucket ${bucket} already warned in epoch ${next.epoch}; silent`);
      return 'deduplicated';
    }
    return claimWarning(dir, next.epoch, bucket) ? 'speak' : 'deduplicated';
  } catch (error) {
    debug(`state unavailable (${describeError(error)}); staying silent`);
    return 'silenced';
  }
}
