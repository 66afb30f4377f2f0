/**
 * What the guard does only when it speaks, beside the wording (core/guard-text.ts) and the recovery skill's name
 * (io/recovery-skill.ts): the one-time notices and the event log. A warning's band is claimed before, by the guard
 * itself (io/warning-claim.ts). Linked into the guard's bundle: a second bundle loaded for a speaking verdict cost more
 * than its functions, lazy in the guard's code cache, cost an allowed call (bench/HISTORY.md, 2026-11-27).
 */
import { join } from '../io/join-path.js';
import { noticeKey, renderNotice, type Notice } from '../core/guard-text.js';
import { describeError, type Debug } from '../io/debug.js';
import { appendEvent, type GuardEvent } from '../events/log.js';
import { createExclusive } from '../io/fs-safe.js';
import { sessionStateDir } from '../io/state.js';

/** The notices this session has not heard yet (all of them when its state cannot remember), as one text. */
export function claimNotice(notices: readonly Notice[], place: { stateDir: string; key: string }, debug: Debug): string | undefined {
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
export function recordEvent(stateDir: string, event: GuardEvent, debug: Debug): void {
  try {
    appendEvent(stateDir, event);
  } catch (error) {
    debug(`event not logged (${describeError(error)})`);
  }
}
