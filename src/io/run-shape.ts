/**
 * What a run did that its kind (a verdict's first word, a command's name) does not tell, where doing it runs
 * functions a run without it never compiles. A code cache is written once per kind (code-cache-write.ts), most often
 * by a user's first runs: a monitor before any compaction, a SessionStart in a project without checkpoints. Such a
 * cache lacked what a run does with checkpoints of ours, and every later run that had some compiled those functions
 * from source again (Node 26: 1.2 M instructions a prompt in a session that compacted, 1.8 M a start over 64
 * sessions' folders; bench/RESULTS.md). The kind a cache is kept for carries these marks, so the first run with one
 * writes it once more, and a run without it is covered by that cache. Code every user's runs soon take is compiled
 * with the bundle instead (tsup.config.ts EAGER_DIRECTIVE: the reader's path behind a big tool result); a mark is for
 * code many users' runs never take. For this process only.
 */

/**
 * `records`: the run read records of checkpoints this user's sessions wrote (the session's, or the project's);
 * `scan`: SessionStart looked through a session folder of the project's checkpoints (ours or a repository's);
 * `note`: SessionStart found nothing changed since the last start's look (checkpoints/start-note.ts).
 */
export type RunShape = 'records' | 'scan' | 'note';

const marks = new Set<RunShape>();

export function markRunShape(mark: RunShape): void {
  marks.add(mark);
}

/** `kind` with this run's marks, in one order: `no-checkpoint-to-resume/records/scan` (a kind may hold `+`: `monitor+compaction-alert`). */
export function shapedKind(kind: string): string {
  return marks.size === 0 ? kind : [kind, ...[...marks].sort()].join('/');
}

/** Forget this process's marks: for a process that runs more than one hook's work (the unit tests, one after another). */
export function forgetRunShape(): void {
  marks.clear();
}
