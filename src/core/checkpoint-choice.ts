/**
 * Which checkpoint a hook shows and which it acknowledges with it: rules over
 * plain facts (sequence, acknowledged, trigger, mtime) that alerts.ts reads.
 */

/** A checkpoint not yet acknowledged; `trigger` is undefined when its file was corrupt. */
export type PendingFact = { sequence: number; trigger: string | undefined };

/**
 * The compaction to alert about: the newest pending one. The recovery skill's
 * save (trigger `skill`) is no compaction: it waits for /clear or a later
 * session's resumption. A corrupt checkpoint still alerts (generically).
 */
export function chooseCompactionAlert<T extends PendingFact>(pending: readonly T[]): T | undefined {
  const compactions = pending.filter((item) => item.trigger !== 'skill');
  return compactions[compactions.length - 1];
}

/** The candidate written last; on equal times the one listed later (session ids sort by name). */
export function chooseNewest<T extends { mtime: number }>(candidates: readonly T[]): T | undefined {
  let chosen: T | undefined;
  for (const candidate of candidates) if (!chosen || candidate.mtime >= chosen.mtime) chosen = candidate;
  return chosen;
}

/**
 * What is acknowledged along with `shown`: every entry without a marker,
 * unread ones too, so none surfaces later; with `olderOnly`, only those before it
 * (a session's own later checkpoints are not yet superseded).
 */
export function supersededBy<T extends { sequence: number; acknowledged: boolean }>(
  entries: readonly T[],
  shown: T,
  olderOnly = false,
): T[] {
  return entries.filter((entry) => !entry.acknowledged && entry !== shown && (!olderOnly || entry.sequence < shown.sequence));
}

/** What a session's checkpoint says about it: its number, whether it marks a compaction, when it was written. */
export type CheckpointFact = { sequence: number; id: string; trigger: string | undefined; timestamp: string | undefined };

/**
 * A checkpoint marks a compaction unless the recovery skill saved it (trigger `skill`): "COMPACTION EVENT k of n"
 * and "compactions this session" count only those. A corrupt file counts: PreCompact wrote nearly all of them.
 */
export function isCompaction(fact: Pick<CheckpointFact, 'trigger'>): boolean {
  return fact.trigger !== 'skill';
}

/** The shown checkpoint's place among the session's compactions (k of n); n counts every compaction read, later ones too. */
export function compactionPosition(
  facts: readonly Pick<CheckpointFact, 'sequence' | 'trigger'>[],
  shownSequence: number,
): { number: number; count: number } {
  const compactions = facts.filter(isCompaction);
  return { number: compactions.filter((f) => f.sequence <= shownSequence).length, count: compactions.length };
}
