/**
 * What the guard needs only when it speaks: naming the installed recovery skill, the wording, the
 * warning's dedup state, the one-time window notice and the event log. The guard's bundle loads it from
 * dist/guard-voice.cjs on that path only, so an allowed call — nearly every call — never compiles it.
 */
import { join } from 'node:path';
import { bucketOf, shouldWarnAgain, type Verdict } from '../core/ceiling.js';
import { epochAfterScan, planEpoch, shouldWriteEpoch } from '../core/dedup.js';
import { noticeKey, renderNotice, renderVerdict, type Notice } from '../core/guard-text.js';
import { describeError, type Debug } from '../io/debug.js';
import { appendEvent, type GuardEvent } from '../events/log.js';
import { createExclusive } from '../io/fs-safe.js';
import { resolveRecoverySkill } from '../io/recovery-skill.js';
import { readNewestCompaction } from '../io/newest-compaction.js';
import { claimWarning, pruneEpochs, readDedupEpoch, readWarnedBuckets, sessionStateDir, writeDedupEpoch } from '../io/state.js';
import type { findLastCompaction, readCompactionSince } from '../io/transcript.js';

/**
 * How a warning's claim came out: `speak` (this call won its band), `deduplicated` (its band already
 * warned since the last compaction, or another hook won it), `unremembered` (the dedup state cannot be
 * used: the guard speaks anyway, every time, rather than never; DESIGN.md, "Trust boundaries").
 */
export type WarningClaim = 'speak' | 'deduplicated' | 'unremembered';

export type DedupPlace = { stateDir: string; key: string; transcript: string; fileSize: number | undefined; maxScanBytes: number };

/**
 * What the voice reads from the transcript, handed in by the guard: its own bundle has that code (the backward
 * reader) compiled and cached already, so the voice's bundle holds none of it (~12 KB less to load on every
 * speaking verdict; measured in bench/RESULTS.md).
 */
export type VoiceReads = { findLastCompaction: typeof findLastCompaction; readCompactionSince: typeof readCompactionSince };

export type GuardVoice = {
  nameRecoverySkill: typeof resolveRecoverySkill;
  render: typeof renderVerdict;
  claimWarningOnce: (verdict: Verdict, place: DedupPlace, debug: Debug) => WarningClaim;
  claimNotice: typeof claimNotice;
  recordEvent: typeof recordEvent;
  readNewestCompaction: (
    place: { stateDir: string; key: string; transcript: string; maxScanBytes: number },
    timeUp: (() => boolean) | undefined,
    debug: Debug,
  ) => ReturnType<typeof readNewestCompaction>;
};

/** The voice, reading the transcript with `reads`. */
export function guardVoice(reads: VoiceReads): GuardVoice {
  return {
    nameRecoverySkill: resolveRecoverySkill,
    render: renderVerdict,
    claimWarningOnce: (verdict, place, debug) => claimWarningOnce(verdict, place, debug, reads),
    claimNotice,
    recordEvent,
    readNewestCompaction: (place, timeUp, debug) => readNewestCompaction(place, timeUp, debug, reads.readCompactionSince),
  };
}

/** `speak` when this call's 5-point bucket (or a higher one) has not warned since the last compaction and it won the exclusive marker. */
function claimWarningOnce(verdict: Verdict, place: DedupPlace, debug: Debug, reads: VoiceReads): WarningClaim {
  try {
    const dir = sessionStateDir(place.stateDir, place.key);
    const fileSize = place.fileSize ?? 0;
    const prior = readDedupEpoch(dir);
    const step = planEpoch(prior, fileSize);
    const next =
      step.kind === 'decided'
        ? step.next
        : epochAfterScan(prior!, reads.findLastCompaction(place.transcript, step.scanFrom, place.maxScanBytes));
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
    debug(`dedup state unavailable (${describeError(error)}); warning without it`);
    return 'unremembered';
  }
}

/** The notices this session has not heard yet (all of them when its state cannot remember), as one text. */
function claimNotice(notices: readonly Notice[], place: Pick<DedupPlace, 'stateDir' | 'key'>, debug: Debug): string | undefined {
  const said: string[] = [];
  for (const notice of notices) {
    try {
      if (!createExclusive(join(sessionStateDir(place.stateDir, place.key), `told-${noticeKey(notice)}`))) continue;
    } catch (error) {
      debug(`notice state unavailable (${describeError(error)}); saying it anyway`);
    }
    said.push(renderNotice(notice));
  }
  return said.length > 0 ? said.join('\n') : undefined;
}

/** Append to the event log; a failure is a debug line, never a changed verdict. */
function recordEvent(stateDir: string, event: GuardEvent, debug: Debug): void {
  try {
    appendEvent(stateDir, event);
  } catch (error) {
    debug(`event not logged (${describeError(error)})`);
  }
}
