/**
 * Turning unacknowledged checkpoints into injected text, exactly once: the
 * acknowledgement marker is claimed exclusively before the text is returned,
 * so racing hooks (SessionStart and UserPromptSubmit) never show one twice.
 */
import { statSync } from 'node:fs';
import {
  chooseCompactionAlert,
  chooseNewest,
  compactionPosition,
  isCompaction,
  supersededBy,
  type PendingFact,
} from '../core/checkpoint-choice.js';
import { readSessionHistory } from './history.js';
import { droppedLead, keptSummaryLines, renderDroppedNotice } from '../core/compaction-text.js';
import { renderResumptionContext } from '../core/resumption-template.js';
import { renderCompactionAlert } from '../core/templates.js';
import {
  acknowledgeCheckpoint,
  checkpointRoot,
  isAcknowledged,
  listCheckpoints,
  listCheckpointSessions,
  readCheckpointFile,
  sessionCheckpointDir,
  type CheckpointEntry,
} from './store.js';
import { claimDroppedNotice, keptSummaryPath, readKeptSummary } from './kept-summary.js';
import { orchestrationPath } from '../io/orchestration.js';
import { sanitizeId } from '../io/state.js';
import { join } from 'node:path';
import type { HookConfig } from '../runtime/hook-config.js';

/**
 * The session's newest unacknowledged checkpoint as a <compaction-alert>,
 * acknowledging it and any older ones, led by what the kept summary dropped.
 * When the alert already went out before the summary was kept (SessionStart
 * `compact` runs before PostCompact), what it dropped follows once on its own.
 */
export function takeCompactionAlert(config: HookConfig, sessionId: string): string | undefined {
  const entries = listCheckpoints(sessionCheckpointDir(config.projectDir, sessionId));
  const newest = chooseCompactionAlert(unacknowledged(entries, config));
  if (!newest) return takeDroppedNotice(entries[entries.length - 1]);
  const claim = acknowledgeCheckpoint(newest.entry);
  if (claim === 'taken') {
    config.debug(`${newest.entry.fileName} already acknowledged by a concurrent hook`);
    return undefined;
  }
  if (claim === 'failed') config.debug(`${newest.entry.fileName}: the acknowledgement cannot be written; showing the alert anyway`);
  acknowledgeAll(supersededBy(entries, newest.entry, true));
  if (!newest.checkpoint) config.debug(`${newest.entry.path} is corrupt; showing the generic alert`);
  const kept = newest.checkpoint && readKeptSummary(newest.entry);
  if (kept?.missing.length) claimDroppedNotice(newest.entry);
  const history = readSessionHistory(entries, config.timeUp).facts;
  const position = compactionPosition(history, newest.entry.sequence);
  // The checkpoint just before this compaction, when the recovery skill saved it: this compaction is the step it asked for.
  const before = history.filter((f) => f.sequence < newest.entry.sequence).at(-1);
  return renderCompactionAlert({
    lead: kept ? droppedLead(kept.missing) : undefined,
    recoverySave: before && !isCompaction(before) ? before.id : undefined,
    checkpoint: newest.checkpoint,
    checkpointPath: newest.entry.path,
    orchestrationPath: newest.checkpoint?.orchestration.path || orchestrationPath(config.projectDir, config.policy.orchestrationFile),
    eventNumber: position.number,
    eventCount: position.count,
  });
}

/** What the newest checkpoint's kept summary dropped, once, after its alert was shown. */
function takeDroppedNotice(entry: CheckpointEntry | undefined): string | undefined {
  const kept = entry && readKeptSummary(entry);
  if (!entry || !kept?.missing.length || claimDroppedNotice(entry) !== 'claimed') return undefined;
  return renderDroppedNotice({
    missing: kept.missing,
    checkpointId: kept.checkpointId,
    checkpointPath: entry.path,
    summaryPath: keptSummaryPath(entry),
  });
}

/**
 * After /clear: the project's newest checkpoint of any session (this one's
 * previous session included), acknowledged or not, with its kept summary.
 * Clearing is how a person continues the work in a fresh context.
 */
export function takeClearResumption(config: HookConfig): string | undefined {
  const candidates: Array<{ entry: CheckpointEntry; entries: CheckpointEntry[]; mtime: number }> = [];
  for (const session of listCheckpointSessions(config.projectDir)) {
    const entries = listCheckpoints(join(checkpointRoot(config.projectDir), session));
    const entry = entries[entries.length - 1];
    if (entry) candidates.push({ entry, entries, mtime: mtimeOf(entry.path) });
  }
  const chosen = chooseNewest(candidates);
  if (!chosen) return undefined;
  acknowledgeCheckpoint(chosen.entry); // so a later startup does not offer it again; taken or not, /clear shows it
  return resumptionText(config, chosen.entry, readCheckpointFile(chosen.entry.path), chosen.entries);
}

/**
 * At session start: the project's newest unacknowledged checkpoint from an
 * earlier session as a <resumption-context>. Every earlier session's pending
 * checkpoints are acknowledged with it: the newest supersedes them.
 */
export function takeResumptionContext(config: HookConfig, currentSessionId: string): string | undefined {
  const own = sanitizeId(currentSessionId);
  const candidates: Array<{ session: string; entries: CheckpointEntry[]; pending: Pending[]; mtime: number }> = [];
  for (const session of listCheckpointSessions(config.projectDir)) {
    if (session === own) continue;
    if (config.timeUp?.()) break; // a repository can commit any number of sessions: choose among those read in time
    const entries = listCheckpoints(join(checkpointRoot(config.projectDir), session));
    const pending = unacknowledged(entries, config);
    const newest = pending[pending.length - 1];
    if (newest) candidates.push({ session, entries, pending, mtime: mtimeOf(newest.entry.path) });
  }
  const chosen = chooseNewest(candidates);
  if (!chosen) return undefined;
  const newest = chosen.pending[chosen.pending.length - 1]!;
  if (acknowledgeCheckpoint(newest.entry) === 'taken') return undefined;
  for (const candidate of candidates) acknowledgeAll(supersededBy(candidate.entries, newest.entry));
  return resumptionText(config, newest.entry, newest.checkpoint, chosen.entries);
}

function resumptionText(
  config: HookConfig,
  entry: CheckpointEntry,
  checkpoint: ReturnType<typeof readCheckpointFile>,
  sessionEntries: CheckpointEntry[],
): string {
  const kept = checkpoint && readKeptSummary(entry);
  const sessionCompactions = readSessionHistory(sessionEntries, config.timeUp).facts.filter(isCompaction).length;
  return renderResumptionContext({
    checkpoint,
    checkpointPath: entry.path,
    orchestrationPath: checkpoint?.orchestration.path || orchestrationPath(config.projectDir, config.policy.orchestrationFile),
    sessionCompactions,
    appendix: kept ? keptSummaryLines(kept, keptSummaryPath(entry)) : undefined,
  });
}

function acknowledgeAll(entries: CheckpointEntry[]): void {
  for (const entry of entries) acknowledgeCheckpoint(entry);
}

type Pending = PendingFact & { entry: CheckpointEntry; checkpoint: ReturnType<typeof readCheckpointFile> };

/** More unacknowledged checkpoints than a session ever writes; older ones are superseded by these anyway. */
const MAX_PENDING_READ = 32;

/**
 * The newest checkpoints without a marker, read to honour `acknowledged: true`
 * in the JSON; oldest first. Bounded in count and by the hook's budget, since
 * each file may be megabytes and a repository can commit thousands.
 */
function unacknowledged(entries: CheckpointEntry[], config: Pick<HookConfig, 'timeUp'>): Pending[] {
  const pending: Pending[] = [];
  for (const entry of entries
    .filter((e) => !e.acknowledged)
    .slice(-MAX_PENDING_READ)
    .reverse()) {
    if (config.timeUp?.()) break;
    const checkpoint = readCheckpointFile(entry.path);
    if (!isAcknowledged(entry, checkpoint))
      pending.unshift({ entry, checkpoint, sequence: entry.sequence, trigger: checkpoint?.trigger.type });
  }
  return pending;
}

function mtimeOf(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}
