/**
 * The status line's first step (plugin/dist/statusline.cjs): load the status line's bundle (statusline-main.cjs)
 * from V8's code cache where the hooks keep theirs (hooks/launch.ts), and run it. A status line never fails: a
 * bundle that cannot load shows the status line's fallback line and leaves the last error (launch-failed.cjs).
 */
import { writeSync } from 'node:fs';
import type { BundleCache } from '../io/code-cache.js';
import { bunTooOld } from '../core/bun-floor.js';
import { launcherStateDir, launchFailedModule, readCachedBundle } from './launch.js';

/** What statusline-main.cjs exports. */
export type StatusLineBundle = {
  runStatusLineBundle: (args: readonly string[], bundleDir: string, cache: BundleCache | undefined, stateDir?: string) => void;
};

/** The status line's bundle, beside the launcher. */
export const STATUSLINE_BUNDLE = 'statusline-main.cjs';

/** Never throws; exits 0. */
export function launchStatusLine(args: readonly string[], bundleDir: string): void {
  let loaded: ReturnType<typeof readCachedBundle>;
  let stateDir: string | undefined;
  try {
    const bun = process.versions.bun;
    if (bun !== undefined && bunTooOld(bun)) {
      // An auto command found a Bun older than the suite's (core/bun-floor.ts): Node runs the line, as a hook's launcher does.
      launchFailedModule(bundleDir).statusLineUnderNode(args, bundleDir, bun);
      return;
    }
    stateDir = launcherStateDir(process.env);
    loaded = readCachedBundle(bundleDir, STATUSLINE_BUNDLE, stateDir);
  } catch (error) {
    try {
      launchFailedModule(bundleDir).statusLineFailed(error);
    } catch {
      try {
        writeSync(2, `context-ceiling: the status line could not load (${String(error).split('\n')[0]})\n`);
      } catch {
        // nowhere to say it
      }
    }
    process.exitCode = 0;
    return;
  }
  try {
    (loaded.exports as StatusLineBundle).runStatusLineBundle(args, bundleDir, loaded.cache, stateDir);
  } catch {
    process.exitCode = 0; // the status line catches its own failures; this is only a last guard
  }
}
