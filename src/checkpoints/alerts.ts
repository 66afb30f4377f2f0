/**
 * Turning unacknowledged checkpoints into injected text, exactly once: the
 * acknowledgement marker is claimed exclusively before the text is returned,
 * so racing hooks (SessionStart and UserPromptSubmit) never show one twice.
 * Only checkpoints this user's sessions wrote on this machine are candidates
 * (provenance.ts): they are found from the private records, never by scanning
 * the project tree, which a repository fills as it likes.
 */
import { lstatSync } from 'node:fs';
import { chooseCompactionAlert, compactionPosition, isCompaction, supersededBy, type PendingFact } from '../core/checkpoint-choice.js';
import { ackMarkerNames, sequenceOf } from '../core/checkpoint.js';
import { readSessionHistory } from './history.js';
import { droppedLead, keptSummaryLines, renderDroppedNotice } from '../core/compaction-text.js';
import { renderResumptionContext } from '../core/resumption-text.js';
import { renderCompactionAlert } from '../core/alert-text.js';
import {
  acknowledgeCheckpoint,
  type CheckpointEntry,
  checkpointInListing,
  type FolderListings,
  isAcknowledged,
  readCheckpointText,
} from './store.js';
import { claimDroppedNotice, keptSummaryPath, readKeptSummary } from './kept-summary.js';
import { isOwnFile, readWrittenRecords, type RecordedFact, type WrittenRecord } from './provenance.js';
import { orchestrationPath } from '../io/orchestration.js';
import { sanitizeId } from '../io/state.js';
import type { HookConfig } from '../runtime/hook-config.js';

/** A checkpoint we recorded writing, as it stands on disk now. */
export type OwnEntry = CheckpointEntry & { session: string; fact?: RecordedFact };

/**
 * This project's checkpoints that we wrote and that still exist, oldest first (by number within a session,
 * sessions in the order of their latest record); only `session`'s when given. A file rewritten since (its bytes no longer match)
 * is dropped when read (readOwn). `listings`: where the caller lists the folders (SessionStart), a folder's listing
 * answers whether each file and its marker are there; otherwise each is asked for by its path.
 */
export function ownCheckpoints(records: readonly WrittenRecord[], session?: string, listings?: FolderListings): OwnEntry[] {
  const byPath = new Map<string, WrittenRecord>();
  for (const record of records) {
    if (record.kind !== 'checkpoint' || (session !== undefined && record.session !== session)) continue;
    byPath.delete(record.path); // a path written again (a folder cleaned and reused) counts at its latest place
    byPath.set(record.path, record);
  }
  const entries: OwnEntry[] = [];
  for (const record of byPath.values()) {
    // A recorded path is absolute and normalised (canonicalPath): split without path.basename's and dirname's
    // character loops, which cost a SessionStart some 25 K instructions a record (bench/RESULTS.md).
    const slash = record.path.lastIndexOf('/');
    const fileName = record.path.slice(slash + 1);
    if (slash <= 0 || sequenceOf(fileName) === undefined) continue;
    const folder = record.path.slice(0, slash);
    const listed = listings?.(folder);
    // Only a whole listing can say a name is not there.
    const { isFile, acknowledged } =
      listed && !listed.more
        ? checkpointInListing(listed, fileName)
        : {
            isFile: lstatSync(record.path, { throwIfNoEntry: false })?.isFile() === true,
            acknowledged: ackMarkerNames(fileName).some((name) => lstatSync(`${folder}/${name}`, { throwIfNoEntry: false }) !== undefined),
          };
    if (!isFile) continue;
    entries.push({ fileName, sequence: record.sequence, path: record.path, acknowledged, session: record.session, fact: record.fact });
  }
  // Racing PreCompacts may record out of order (cx-006 before cx-005): within a session the number decides;
  // sessions keep the order of their latest record.
  const latest = new Map<string, number>();
  for (const [index, entry] of entries.entries()) latest.set(entry.session, index);
  // Compiled with the hook bundle (tsup.config.ts): a session's first compaction, whose run writes the code cache, sorts one.
  const order = function order(entry: OwnEntry) {
    'eager';
    return latest.get(entry.session) ?? 0;
  };
  return entries.sort(function earlierFirst(a, b) {
    'eager';
    return order(a) - order(b) || a.sequence - b.sequence;
  });
}

type Own = { records: readonly WrittenRecord[] };

/** `session`: only that session's records (its checkpoints and kept summaries are recorded under it). */
function loadOwn(config: HookConfig, session?: string): Own {
  return { records: readWrittenRecords(config.stateDir, config.projectDir, session) };
}

/**
 * The checkpoint at `entry` when its bytes are the ones we recorded. One we wrote that no longer parses (a
 * torn disk) reads as corrupt, which shows only the generic alert (our words and its path); one that parses
 * but is not what we wrote is 'foreign': its text is never shown as the session's state.
 */
function readOwn(own: Own, entry: CheckpointEntry): ReturnType<typeof readCheckpointText> | 'foreign' {
  const read = readCheckpointText(entry.path);
  if (!read || read.checkpoint === undefined) return read;
  return isOwnFile(own.records, 'checkpoint', entry.path, read.text) ? read : 'foreign';
}

const ownSummary = (own: Own) => (path: string, text: string) => isOwnFile(own.records, 'summary', path, text);

/**
 * The session's newest unacknowledged checkpoint as a <compaction-alert>,
 * acknowledging it and any older ones, led by what the kept summary dropped.
 * When the alert already went out before the summary was kept (SessionStart
 * `compact` runs before PostCompact), what it dropped follows once on its own.
 * `sessionRecords`: this session's records (readWrittenRecords with its sanitised id), when the caller has them;
 * `sessionEntries`: ownCheckpoints of those records, when the caller has listed them.
 */
export function takeCompactionAlert(
  config: HookConfig,
  sessionId: string,
  sessionRecords?: readonly WrittenRecord[],
  sessionEntries?: OwnEntry[],
): string | undefined {
  const session = sanitizeId(sessionId);
  // Every prompt runs this: the records of this session only, not the project's whole history (the monitor's, read
  // once for its status too, or read here), and its checkpoints as the monitor found them when it has.
  const own = sessionRecords ? { records: sessionRecords } : loadOwn(config, session);
  const entries = sessionEntries ?? ownCheckpoints(own.records, session);
  const newest = chooseCompactionAlert(unacknowledged(own, entries, config));
  if (!newest) return takeDroppedNotice(own, entries[entries.length - 1]);
  const claim = acknowledgeCheckpoint(newest.entry);
  if (claim === 'taken') {
    config.debug(`${newest.entry.fileName} already acknowledged by a concurrent hook`);
    return undefined;
  }
  if (claim === 'failed') config.debug(`${newest.entry.fileName}: the acknowledgement cannot be written; showing the alert anyway`);
  acknowledgeAll(supersededBy(entries, newest.entry, true));
  if (!newest.checkpoint) config.debug(`${newest.entry.path} is corrupt; showing the generic alert`);
  const kept = newest.checkpoint && readKeptSummary(newest.entry, ownSummary(own));
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
function takeDroppedNotice(own: Own, entry: CheckpointEntry | undefined): string | undefined {
  const kept = entry && readKeptSummary(entry, ownSummary(own));
  if (!entry || !kept?.missing.length || claimDroppedNotice(entry) !== 'claimed') return undefined;
  return renderDroppedNotice({
    missing: kept.missing,
    checkpointId: kept.checkpointId,
    checkpointPath: entry.path,
    summaryPath: keptSummaryPath(entry),
  });
}

/** Own checkpoints read back, newest first, at most this many: each may be large, and the hook has a budget. */
const MAX_READ = 32;

/**
 * After /clear: the project's newest checkpoint of any session (this one's
 * previous session included), acknowledged or not, with its kept summary.
 * Clearing is how a person continues the work in a fresh context.
 * `projectRecords`: the project's records (readWrittenRecords), when the caller has them; `listings`: see ownCheckpoints.
 */
export function takeClearResumption(
  config: HookConfig,
  projectRecords?: readonly WrittenRecord[],
  listings?: FolderListings,
): string | undefined {
  const own = projectRecords ? { records: projectRecords } : loadOwn(config);
  const entries = ownCheckpoints(own.records, undefined, listings);
  for (const entry of entries.slice(-MAX_READ).reverse()) {
    if (config.timeUp?.()) break;
    const read = readOwn(own, entry);
    if (read === 'foreign') continue;
    acknowledgeCheckpoint(entry); // so a later startup does not offer it again; taken or not, /clear shows it
    return resumptionText(config, own, entry, read?.checkpoint, sessionCompactions(entries, entry.session, config));
  }
  return undefined;
}

/**
 * At session start: the project's newest unacknowledged checkpoint from an
 * earlier session as a <resumption-context>. Every earlier session's pending
 * checkpoints are acknowledged with it: the newest supersedes them.
 * `projectRecords`: the project's records (readWrittenRecords), when the caller has them; `listings`: see ownCheckpoints.
 */
export function takeResumptionContext(
  config: HookConfig,
  currentSessionId: string,
  projectRecords?: readonly WrittenRecord[],
  listings?: FolderListings,
): string | undefined {
  const own = projectRecords ? { records: projectRecords } : loadOwn(config);
  const current = sanitizeId(currentSessionId);
  const entries = ownCheckpoints(own.records, undefined, listings).filter((entry) => entry.session !== current);
  const pending = unacknowledged(own, entries, config);
  const newest = pending[pending.length - 1];
  if (!newest) return undefined;
  if (acknowledgeCheckpoint(newest.entry) === 'taken') return undefined;
  acknowledgeAll(supersededBy(entries, newest.entry));
  return resumptionText(config, own, newest.entry, newest.checkpoint, sessionCompactions(entries, newest.entry.session, config));
}

function resumptionText(
  config: HookConfig,
  own: Own,
  entry: CheckpointEntry,
  checkpoint: NonNullable<ReturnType<typeof readCheckpointText>>['checkpoint'],
  sessionCompactions: number,
): string {
  const kept = checkpoint && readKeptSummary(entry, ownSummary(own));
  return renderResumptionContext({
    checkpoint,
    checkpointPath: entry.path,
    orchestrationPath: checkpoint?.orchestration.path || orchestrationPath(config.projectDir, config.policy.orchestrationFile),
    sessionCompactions,
    appendix: kept ? keptSummaryLines(kept, keptSummaryPath(entry)) : undefined,
  });
}

/** How many of a session's own checkpoints were compactions (the recovery skill's saves are not). */
function sessionCompactions(entries: readonly OwnEntry[], session: string, config: Pick<HookConfig, 'timeUp'>): number {
  const mine = entries.filter((e) => e.session === session);
  return readSessionHistory(mine, config.timeUp).facts.filter(isCompaction).length;
}

function acknowledgeAll(entries: CheckpointEntry[]): void {
  for (const entry of entries) acknowledgeCheckpoint(entry);
}

type Pending = PendingFact & {
  entry: OwnEntry;
  checkpoint: NonNullable<ReturnType<typeof readCheckpointText>>['checkpoint'];
};

/**
 * The newest of our checkpoints without a marker, read to honour `acknowledged: true`
 * in the JSON; oldest first. Bounded in count and by the hook's budget; a file whose
 * bytes are no longer the ones we wrote is not ours and left out.
 */
function unacknowledged(own: Own, entries: OwnEntry[], config: Pick<HookConfig, 'timeUp'>): Pending[] {
  const pending: Pending[] = [];
  for (const entry of entries
    .filter((e) => !e.acknowledged)
    .slice(-MAX_READ)
    .reverse()) {
    if (config.timeUp?.()) break;
    const read = readOwn(own, entry);
    if (read === 'foreign') continue;
    const checkpoint = read?.checkpoint;
    if (!isAcknowledged(entry, checkpoint))
      pending.unshift({ entry, checkpoint, sequence: entry.sequence, trigger: checkpoint?.trigger.type });
  }
  return pending;
}
