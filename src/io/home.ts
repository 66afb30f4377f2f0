/**
 * The user's home as `os.homedir()` gives it ($HOME, else the password database), without loading node:os
 * while HOME is set: a hook that loads node:os pays ~5 % of a Node start for it (bench/RESULTS.md).
 */
import type * as Os from 'node:os';

/** Throws what `os.homedir()` throws when HOME is unset and the system knows no home. */
export function homeDirectory(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return env.HOME || (require('node:os') as typeof Os).homedir();
}
