/**
 * What the guard needs only when it speaks: naming the installed recovery skill, the wording, the one-time
 * notices and the event log (a warning's band is claimed before, by the guard itself: io/warning-claim.ts). The
 * guard's bundle loads it from dist/guard-voice.cjs on that path only, so an allowed call — nearly every call —
 * never compiles it.
 */
import { join } from 'node:path';
import { noticeKey, renderNotice, renderVerdict, type Notice } from '../core/guard-text.js';
import { describeError, type Debug } from '../io/debug.js';
import { appendEvent, type GuardEvent } from '../events/log.js';
import { createExclusive } from '../io/fs-safe.js';
import { resolveRecoverySkill } from '../io/recovery-skill.js';
import { readNewestCompaction } from '../io/newest-compaction.js';
import { sessionStateDir } from '../io/state.js';
import type { readCompactionSince } from '../io/transcript.js';

/**
 * What the voice reads from the transcript, handed in by the guard: its own bundle has that code (the backward
 * reader) compiled and cached already, so the voice's bundle holds none of it (~12 KB less to load on every
 * speaking verdict; measured in bench/RESULTS.md).
 */
export type VoiceReads = { readCompactionSince: typeof readCompactionSince };

export type GuardVoice = {
  nameRecoverySkill: typeof resolveRecoverySkill;
  render: typeof renderVerdict;
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
    claimNotice,
    recordEvent,
    readNewestCompaction: (place, timeUp, debug) => readNewestCompaction(place, timeUp, debug, reads.readCompactionSince),
  };
}

/** The notices this session has not heard yet (all of them when its state cannot remember), as one text. */
function claimNotice(notices: readonly Notice[], place: { stateDir: string; key: string }, debug: Debug): string | undefined {
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
