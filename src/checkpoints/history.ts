/**
 * A session's checkpoints as facts (number, trigger, time), for the monitor's "compactions this session" and
 * "last checkpoint" and the alert's "COMPACTION EVENT k of n". Bounded: a repository can commit any number.
 */
import { checkpointId } from '../core/checkpoint.js';
import type { CheckpointFact } from '../core/checkpoint-choice.js';
import { readCheckpointFile, type CheckpointEntry } from './store.js';

/** More checkpoints than a session writes; older ones are not read (the count then says "at least"). */
export const MAX_HISTORY_READ = 64;

export type SessionHistory = { facts: CheckpointFact[] /** Entries left unread (count cap or time). */; unread: number };

/** The newest MAX_HISTORY_READ checkpoints' facts, oldest first; stops early when the hook's time is up. */
export function readSessionHistory(entries: readonly CheckpointEntry[], timeUp?: () => boolean): SessionHistory {
  const facts: CheckpointFact[] = [];
  const newest = entries.slice(-MAX_HISTORY_READ).reverse();
  for (const entry of newest) {
    if (timeUp?.()) break;
    const checkpoint = readCheckpointFile(entry.path);
    facts.unshift({
      sequence: entry.sequence,
      id: checkpointId(entry.sequence), // from the validated file name: the file's own id is a repository's text
      trigger: checkpoint?.trigger.type,
      timestamp: checkpoint?.timestamp || undefined,
    });
  }
  return { facts, unread: entries.length - facts.length };
}
