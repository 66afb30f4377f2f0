/**
 * The hook process's first step (plugin/dist/hook.cjs, `node hook.cjs <event>`): check the name, then load
 * only that entry's bundle, compiled from V8's code cache in the private state directory when there is one
 * (io/code-cache.ts, any Node; Bun loads it plainly), and run it. Kept tiny: everything it imports is
 * compiled on every hook run, and is the one part no cache covers.
 */
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { ENV } from '../core/env-names.js';
import { entryBundleFile, isEntryName } from '../core/hook-table.js';
import { loadBundle, type LoadedBundle } from '../io/code-cache.js';
import { existingPrivateDir, resolveStateDir } from '../io/state-dir.js';
import { writeAll } from '../runtime/hook-io.js';
import { unknownEntryMessage } from '../runtime/run.js';

/** What every entry bundle (hooks/entries/*.ts → hook-<name>.cjs) exports. */
export type EntryBundle = { runBundle: (bundleDir: string) => void };

/** `bundleDir`: the folder of the running hook.cjs, where the entry bundles sit. Never throws; exits 0 on any failure. */
export function launchHook(name: string | undefined, bundleDir: string): void {
  try {
    if (!isEntryName(name)) {
      // A wiring mistake, not hook input: say so (Claude Code shows exit 1 as a non-blocking hook error).
      writeAll(2, unknownEntryMessage(name));
      process.exitCode = 1;
      return;
    }
    const stateDir = privateStateDir(process.env);
    if (stateDir) enableCompileCache(stateDir);
    const file = join(bundleDir, entryBundleFile(name));
    const bundle = loadCached(file, stateDir);
    (bundle.exports as EntryBundle).runBundle(bundleDir);
    bundle.saveCache();
  } catch {
    process.exitCode = 0; // fail open, whatever happened
  }
}

/**
 * A bundle beside this one, from our code cache in `stateDir` (io/code-cache.ts); under Bun, or when the
 * cache or vm fails, loaded as usual: a cache never stops a hook.
 */
export function loadCached(file: string, stateDir: string | undefined): Pick<LoadedBundle, 'exports' | 'saveCache'> {
  if (!process.versions.bun)
    try {
      return loadBundle(file, stateDir && join(stateDir, CODE_CACHE_DIR), require);
    } catch {
      // loaded as usual below
    }
  return { exports: require(file), saveCache: () => {} };
}

export type CompileCacheModule = { enableCompileCache?: (dir: string) => unknown };

/** Our code cache of the entry bundles (io/code-cache.ts), in the private state directory. */
export const CODE_CACHE_DIR = 'code-cache';

/**
 * The private state directory as the environment names it, when it can hold code: it exists, is ours and
 * closed to others, as the hooks demand before writing there (a policy file's stateDir is read only later,
 * by the hook). Nothing is created or changed.
 */
export function privateStateDir(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const stated = env[ENV.stateDir];
  return existingPrivateDir(
    resolveStateDir({ policy: { stateDir: stated && isAbsolute(stated) ? stated : undefined }, env, home: env.HOME || homedir() }),
  );
}

/**
 * V8's compile cache for what the hook loads with require() (guard-voice.cjs, policy-parse.cjs), where Node
 * has one (≥ 22.1: `module.enableCompileCache`), in the private state directory; elsewhere (Node 20, Bun)
 * nothing happens. Node's own NODE_DISABLE_COMPILE_CACHE=1 turns it off.
 */
export function enableCompileCache(
  stateDir: string,
  mod: CompileCacheModule = require('node:module') as CompileCacheModule,
): string | undefined {
  try {
    if (typeof mod.enableCompileCache !== 'function') return undefined;
    const dir = join(stateDir, 'compile-cache');
    mod.enableCompileCache(dir);
    return dir;
  } catch {
    return undefined; // no cache: the hook runs as it would without one
  }
}
