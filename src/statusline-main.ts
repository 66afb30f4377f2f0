/**
 * The status line's bundle (plugin/dist/statusline-main.cjs), loaded by its launcher (statusline.cjs): the line,
 * then this bundle's code cache kept when it lacks this kind of run's functions (io/code-cache-write.ts).
 */
import type { BundleCache } from './io/code-cache.js';
import { keepCodeCache } from './io/code-cache-write.js';
import { endRun, exportBundle } from './hooks/main.js';
import type { StatusLineBundle } from './hooks/statusline-launch.js';
import { statusLineMain } from './hooks/statusline.js';

/** `stateDir`: the private state directory the launcher found (undefined: none), where a policy file's validation is kept. */
function runStatusLineBundle(args: readonly string[], bundleDir: string, cache: BundleCache | undefined, stateDir?: string): void {
  // The kind of run: a line from Claude Code's usage, or one that read the transcript (each compiles its own functions).
  keepCodeCache(cache, statusLineMain(args, bundleDir, stateDir));
  endRun();
}

exportBundle<StatusLineBundle>({ runStatusLineBundle });
