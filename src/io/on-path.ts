/** Finding a program on the PATH as the shell does, without starting a shell. */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute } from 'node:path';
import { join } from './join-path.js';

/**
 * The first executable file `name` in the absolute folders of `path`, as the shell's `command -v` finds it (a
 * relative folder is skipped: it would depend on the working directory). Undefined when there is none.
 */
export function findOnPath(name: string, path: string | undefined): string | undefined {
  for (const dir of (path ?? '').split(delimiter)) {
    if (!isAbsolute(dir)) continue;
    try {
      accessSync(join(dir, name), constants.X_OK);
      if (statSync(join(dir, name)).isFile()) return join(dir, name);
    } catch {
      // not here
    }
  }
  return undefined;
}
