/** The project's git branch, read from .git/HEAD: no process is spawned and nothing is executed. */
import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { join } from './join-path.js';
import { readRegularText } from './read-safe.js';

/** HEAD and a `gitdir:` pointer are one short line. */
const MAX_POINTER_BYTES = 4096;

export function readGitBranch(projectDir: string): string | null {
  try {
    const dir = gitDir(projectDir);
    if (dir === undefined) return null;
    const head = (readRegularText(join(dir, 'HEAD'), MAX_POINTER_BYTES) ?? '').trim();
    const ref = /^ref: refs\/heads\/(.+)$/.exec(head);
    if (ref) return ref[1]!.slice(0, 200);
    return /^[0-9a-f]{40,64}$/.test(head) ? `detached at ${head.slice(0, 12)}` : null;
  } catch {
    return null;
  }
}

/** `.git` is a folder, or in a worktree/submodule a file saying `gitdir: <path>`; undefined: not a git checkout. */
function gitDir(projectDir: string): string | undefined {
  const dotGit = join(projectDir, '.git');
  const stat = statSync(dotGit, { throwIfNoEntry: false }); // most checkpointed folders have one; a thrown error costs a hook
  if (stat === undefined) return undefined;
  if (stat.isDirectory()) return dotGit;
  const pointer = /^gitdir: (.+)$/m.exec(readRegularText(dotGit, MAX_POINTER_BYTES) ?? '');
  if (!pointer) return undefined;
  const target = pointer[1]!.trim();
  return isAbsolute(target) ? target : resolve(projectDir, target);
}
