/**
 * What a run did that its kind (a verdict's first word, a command's name) does not tell, where doing it runs
 * functions a run without it never compiles. A code cache is written once per kind (code-cache-write.ts): written by
 * a user's first SessionStart, in a project without checkpoints, it lacked the look through session folders, and
 * every later start of a project with checkpoints compiled those functions from source again (Node 26: 1.9 M
 * instructions a start over 64 sessions' folders, bench/RESULTS.md). The kind a cache is kept for carries these
 * marks, so the first run with one writes it once more. Code every user's runs soon take is compiled with the
 * bundle instead (tsup.config.ts EAGER_DIRECTIVE: the reader's path behind a big tool result); a mark is for code
 * many users' runs never take. For this process only.
 */

/** `scan`: SessionStart looked through a session folder of the project's checkpoints. */
export type RunShape = 'scan';

const marks = new Set<RunShape>();

export function markRunShape(mark: RunShape): void {
  marks.add(mark);
}

/** `kind` with this run's marks, in one order: `no-checkpoint-to-resume+scan`. */
export function shapedKind(kind: string): string {
  return marks.size === 0 ? kind : [kind, ...[...marks].sort()].join('+');
}
