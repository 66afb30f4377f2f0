/**
 * SessionStart: after a compaction (source "compact") the compaction alert,
 * in the same turn; on startup, clear or resume a pending alert of this
 * session, else the resumption context: after /clear from the project's
 * newest checkpoint, otherwise from an earlier session's unacknowledged one.
 * Checkpoint files in the tree that are not ours are only counted: the person
 * is told once, and the verdict's reason says how many. A start that finds
 * nothing changed since the last one found nothing takes its word (start-note.ts).
 */
import { stringField } from '../core/hook-input.js';
import type { HookOutcome } from '../runtime/hook-io.js';
import { takeClearResumption, takeCompactionAlert, takeResumptionContext } from '../checkpoints/alerts.js';
import { takeFallbackNotice } from '../checkpoints/fallback.js';
import { takeFoundNotice } from '../checkpoints/found.js';
import { readWrittenRecords, type WrittenRecord } from '../checkpoints/provenance.js';
import { beginStartLook, keepStartNote, startNoteHolds, startNotePlace } from '../checkpoints/start-note.js';
import { folderListings } from '../checkpoints/store.js';
import type { HookHost } from '../runtime/host.js';
import { openHook } from '../runtime/open-hook.js';
import { sanitizeId } from '../io/state.js';
import { additionalContext, guarded } from '../runtime/additional-context.js';

export function runSessionStart(stdin: string | undefined, host: HookHost): HookOutcome {
  const opened = openHook(stdin, host);
  if (!opened.open) return opened.outcome;
  const { input, config } = opened;
  const source = stringField(input.raw, 'source', 32);
  const fallback = guarded(() => takeFallbackNotice(config), config.debug);
  const session = sanitizeId(input.session_id);
  // A start after a compaction shows the alert its PreCompact left; a start after /clear resumes even a checkpoint
  // taken already: neither is answered from the last start's note.
  const noted = source !== 'compact' && source !== 'clear';
  const place = noted ? guarded(() => startNotePlace(config), config.debug) : undefined;
  const unchanged = place && guarded(() => startNoteHolds(config, place, session), config.debug);
  if (unchanged !== undefined) {
    const outcome = additionalContext('SessionStart', [], 'resumption-context', 'no-checkpoint-to-resume', fallback);
    const reason = `${outcome.reason} unchanged-since-last-start`;
    return { ...outcome, reason: unchanged ? `${reason} found-not-ours=${unchanged}` : reason };
  }
  const look = place && guarded(() => beginStartLook(config, place), config.debug);
  // A part that failed answers nothing, which no note may keep as the answer.
  let faltered = false;
  const guard = <T>(part: () => T) =>
    guarded(part, (message) => {
      faltered = true;
      config.debug(message);
    });
  // The project's records, read once: after a compaction only this session's are needed (the alert: the lines that
  // name it are all that is parsed), otherwise every record is, for the alert, the resumption and the count of files
  // that are not ours (acknowledging a checkpoint writes a marker beside it, never a record).
  let projectRecords: WrittenRecord[] | undefined;
  const records = () => (projectRecords ??= readWrittenRecords(config.stateDir, config.projectDir));
  const alert = guard(() =>
    takeCompactionAlert(config, input.session_id, source === 'compact' ? undefined : records().filter((r) => r.session === session)),
  );
  if (alert || source === 'compact')
    return additionalContext('SessionStart', alert ? [alert] : [], 'compaction-alert', 'no-pending-checkpoint', fallback);
  // The session folders, each listed once for both the resumption and the count of files not ours.
  const listings = folderListings(look?.listed);
  const resumption = guard(() =>
    source === 'clear'
      ? takeClearResumption(config, records(), listings)
      : takeResumptionContext(config, input.session_id, records(), listings),
  );
  const found = guard(() => takeFoundNotice(config, records(), listings));
  // Where nothing was listed there is nothing a note would spare the next start (and its code is not compiled).
  if (place && look && look.listed.size > 0 && !resumption && !faltered) {
    const unkept = guarded(() => keepStartNote(config, place, look, records(), session, found), config.debug);
    if (unkept) config.debug(`no note of this start kept: ${unkept}`);
  }
  const notices = [fallback, found?.notice].filter(Boolean).join('\n') || undefined;
  const outcome = additionalContext(
    'SessionStart',
    resumption ? [resumption] : [],
    'resumption-context',
    'no-checkpoint-to-resume',
    notices,
  );
  return found ? { ...outcome, reason: `${outcome.reason} found-not-ours=${found.count}${found.more ? '+' : ''}` } : outcome;
}
