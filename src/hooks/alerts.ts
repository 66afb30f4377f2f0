/**
 * Turning unacknowledged checkpoints into injected text, exactly once: the
 * acknowledgement marker is claimed exclusively before the text is returned,
 * so racing hooks (SessionStart and UserPromptSubmit) never show one twice.
 */
import { statSync } from 'node:fs';
import { renderCompactionAlert, renderResumptionContext } from '../core/templates.js';
import { acknowledgeCheckpoint, checkpointRoot, isAcknowledged, listCheckpoints, listCheckpointSessions, readCheckpointFile, sessionCheckpointDir, type CheckpointEntry } from '../io/checkpoints.js';
import { orchestrationPath } from '../io/orchestration.js';
import { sanitizeId } from '../io/state.js';
import { join } from 'node:path';
import type { Settings } from './context.js';

/** The session's newest unacknowledged checkpoint as a <compaction-alert>, acknowledging it and any older ones. */
export function takeCompactionAlert(settings: Settings, sessionId: string): string | undefined {
  const entries = listCheckpoints(sessionCheckpointDir(settings.projectDir, sessionId));
  const pending = unacknowledged(entries);
  // The recovery skill's save is no compaction: it waits for /clear or a later session's resumption.
  const compactions = pending.filter((item) => item.checkpoint?.trigger.type !== 'skill');
  const newest = compactions[compactions.length - 1];
  if (!newest) return undefined;
  const claim = acknowledgeCheckpoint(newest.entry);
  if (claim === 'taken') {
    settings.debug(`${newest.entry.fileName} already acknowledged by a concurrent hook`);
    return undefined;
  }
  if (claim === 'failed') settings.debug(`${newest.entry.fileName}: the acknowledgement cannot be written; showing the alert anyway`);
  for (const older of pending) if (older.entry.sequence < newest.entry.sequence) acknowledgeCheckpoint(older.entry);
  if (!newest.checkpoint) settings.debug(`${newest.entry.path} is corrupt; showing the generic alert`);
  return renderCompactionAlert({
    checkpoint: newest.checkpoint,
    checkpointPath: newest.entry.path,
    orchestrationPath: newest.checkpoint?.orchestration.path || orchestrationPath(settings.projectDir, settings.policy.orchestrationFile),
    eventNumber: entries.indexOf(newest.entry) + 1,
    eventCount: entries.length,
  });
}

/**
 * At session start: the project's newest unacknowledged checkpoint from an
 * earlier session as a <resumption-context>. Every earlier session's pending
 * checkpoints are acknowledged with it: the newest supersedes them.
 */
export function takeResumptionContext(settings: Settings, currentSessionId: string): string | undefined {
  const own = sanitizeId(currentSessionId);
  const candidates: Array<{ session: string; entries: CheckpointEntry[]; pending: Pending[]; mtime: number }> = [];
  for (const session of listCheckpointSessions(settings.projectDir)) {
    if (session === own) continue;
    const entries = listCheckpoints(join(checkpointRoot(settings.projectDir), session));
    const pending = unacknowledged(entries);
    const newest = pending[pending.length - 1];
    if (newest) candidates.push({ session, entries, pending, mtime: mtimeOf(newest.entry.path) });
  }
  candidates.sort((a, b) => a.mtime - b.mtime);
  const chosen = candidates[candidates.length - 1];
  if (!chosen) return undefined;
  const newest = chosen.pending[chosen.pending.length - 1]!;
  if (acknowledgeCheckpoint(newest.entry) === 'taken') return undefined;
  for (const candidate of candidates) for (const item of candidate.pending) if (item !== newest) acknowledgeCheckpoint(item.entry);
  return renderResumptionContext({
    checkpoint: newest.checkpoint,
    checkpointPath: newest.entry.path,
    orchestrationPath: newest.checkpoint?.orchestration.path || orchestrationPath(settings.projectDir, settings.policy.orchestrationFile),
    sessionCompactions: chosen.entries.length,
  });
}

type Pending = { entry: CheckpointEntry; checkpoint: ReturnType<typeof readCheckpointFile> };

/** Checkpoints without a marker, read to honour `acknowledged: true` in the JSON; oldest first. */
function unacknowledged(entries: CheckpointEntry[]): Pending[] {
  return entries
    .filter((entry) => !entry.acknowledged)
    .map((entry) => ({ entry, checkpoint: readCheckpointFile(entry.path) }))
    .filter(({ entry, checkpoint }) => !isAcknowledged(entry, checkpoint));
}

function mtimeOf(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}
