/**
 * A session's checkpoints as facts (number, trigger, time), for the monitor's "compactions this session" and
 * "last checkpoint" and the alert's "COMPACTION EVENT k of n". Bounded: a repository can commit any number.
 */
import { checkpointId, triggerOf } from '../core/checkpoint.js';
import type { CheckpointFact } from '../core/checkpoint-choice.js';
import type { RecordedFact } from './provenance.js';
import { readCheckpointFile, type CheckpointEntry } from './store.js';

/** More checkpoints than a session writes; older ones are not read (the count then says "at least"). */
export const MAX_HISTORY_READ = 64;

export type SessionHistory = { facts: CheckpointFact[] /** Entries left unread (count cap or time). */; unread: number };

/**
 * The newest MAX_HISTORY_READ checkpoints' facts, oldest first; stops early when the hook's time is up. An entry whose
 * record holds its trigger and time (`fact`, provenance.ts) is not read: the monitor asks on every prompt, and our
 * private record is what we wrote, where the file in the project may have been changed since.
 */
export function readSessionHistory(
  entries: ReadonlyArray<CheckpointEntry & { fact?: RecordedFact }>,
  timeUp?: () => boolean,
): SessionHistory {
  const facts: CheckpointFact[] = [];
  const newest = entries.slice(-MAX_HISTORY_READ).reverse();
  for (const entry of newest) {
    if (timeUp?.()) break;
    const recorded = entry.fact ?? readFact(entry.path);
    facts.unshift({
      sequence: entry.sequence,
      id: checkpointId(entry.sequence), // from the validated file name: the file's own id is a repository's text
      trigger: recorded?.trigger === undefined ? undefined : triggerOf(recorded.trigger),
      timestamp: recorded?.timestamp || undefined,
    });
  }
  return { facts, unread: entries.length - facts.length };
}

/** A checkpoint recorded before records held its facts: read from the file. */
function readFact(path: string): RecordedFact | undefined {
  const checkpoint = readCheckpointFile(path);
  return checkpoint && { trigger: checkpoint.trigger.type, timestamp: checkpoint.timestamp };
}
