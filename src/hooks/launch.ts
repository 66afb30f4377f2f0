/**
 * The hook process's first step (plugin/dist/hook.cjs, `node hook.cjs <name>`): load only that entry's bundle,
 * compiled from V8's code cache in the private state directory when there is one (io/code-cache.ts, any Node;
 * Bun loads it plainly), and run it. Kept to what every run needs: the launcher is the one part compiled from
 * source on every run (each KB of it costs every hook), so the entry bundle writes the cache and a launch
 * that fails, or a Bun older than the suite's (core/bun-floor.ts), is handled by launch-failed.cjs, loaded only then.
 */
import { writeSync } from 'node:fs';
import { join } from 'node:path';
import { bunTooOld } from '../core/bun-floor.js';
import { STATE_DIR_ENV } from '../core/env-names.js';
import { entryBundleFile, isEntryName } from '../core/entry-bundle.js';
import { type BundleCache, readBundle } from '../io/code-cache.js';
import { homeDirectory } from '../io/home.js';
import { existingPrivateDir, resolveStateDir } from '../io/state-dir.js';

/** What the launcher hands the entry it runs. */
export type Launch = {
  /** The private state directory the launcher found (it may keep code there), or undefined. */
  stateDir: string | undefined;
  /** The entry bundle's code cache, kept when the run is over if it lacks this kind of run (io/code-cache-write.ts). */
  cache: BundleCache | undefined;
};

/** What every entry bundle (hooks/entries/*.ts → hook-<name>.cjs) exports. */
export type EntryBundle = { runBundle: (bundleDir: string, launch: Launch) => void };

/** `bundleDir`: the folder of the running hook.cjs, where the entry bundles sit. Never throws; exits 0 on any failure but a wrong name. */
export function launchHook(name: string | undefined, bundleDir: string): void {
  try {
    const bun = process.versions.bun;
    if (bun !== undefined && bunTooOld(bun)) {
      launchFailedModule(bundleDir).runUnderNode(name, bundleDir, bun);
      return;
    }
    let loaded: ReturnType<typeof readBundle>;
    let stateDir: string | undefined;
    try {
      // What an entry's name looks like: anything else is refused before it names a file.
      if (name === undefined || !isEntryName(name)) throw new Error('not an entry name');
      stateDir = launcherStateDir(process.env);
      // A name that is no entry finds no bundle: launch-failed.cjs tells the two apart.
      loaded = readCachedBundle(bundleDir, entryBundleFile(name), stateDir);
    } catch (error) {
      launchFailed(name, error, bundleDir);
      return;
    }
    (loaded.exports as EntryBundle).runBundle(bundleDir, { stateDir, cache: loaded.cache });
  } catch {
    process.exitCode = 0; // fail open, whatever happened
  }
}

/**
 * The state directory the launcher may keep code in: the default one (under $XDG_STATE_HOME, else the home),
 * never one DEV_TEAM_CONTEXT_STATE_DIR names, since the launcher is too early (and too small) to tell whether
 * the project's settings supplied it (DESIGN.md, "Trust boundaries"); the hook itself checks that before it
 * writes state there. HOME and XDG_STATE_HOME are the user's: Claude Code never takes them from a project's
 * settings env (docs/configuration.md, "What locates your home is yours"; test/e2e/settings-env.test.ts).
 * Only when it can hold code: it exists, is ours and closed to others, as the hooks demand before writing there.
 * Nothing is created or changed. Never throws: a cache is never a reason for a run to fail.
 */
export function launcherStateDir(env: Readonly<Record<string, string | undefined>>): string | undefined {
  if (env[STATE_DIR_ENV]) return undefined;
  try {
    return existingPrivateDir(resolveStateDir({ policy: { stateDir: undefined }, env, home: homeDirectory(env) }));
  } catch {
    return undefined; // no home to be found (os.homedir() can throw): no cache this time
  }
}

/**
 * The bundle `name` in `dir` (an entry's, the status line's, the CLI's), from our code cache under `stateDir`; under
 * Bun, or when vm fails, loaded as usual: a cache never stops a hook.
 */
export function readCachedBundle(dir: string, name: string, stateDir: string | undefined): ReturnType<typeof readBundle> {
  if (!process.versions.bun)
    try {
      return readBundle(dir, name, stateDir && join(stateDir, CODE_CACHE_DIR), require);
    } catch {
      // loaded as usual below (a missing bundle then fails as require() says it)
    }
  return { exports: require(join(dir, name)) };
}

/** Our code cache of the entry bundles (io/code-cache.ts), in the private state directory. */
export const CODE_CACHE_DIR = 'code-cache';

/** The launch failed: launch-failed.cjs says why; when even that cannot load, one line says so. */
function launchFailed(name: string | undefined, error: unknown, bundleDir: string): void {
  try {
    launchFailedModule(bundleDir).launchFailed(name, error);
  } catch {
    writeSync(2, `context-ceiling: the ${name} hook could not load and let everything through (${String(error).split('\n')[0]})\n`);
    process.exitCode = 0;
  }
}

/** launch-failed.cjs: what the launcher does when it cannot run the entry itself, loaded only then. */
export function launchFailedModule(bundleDir: string): typeof import('./launch-failed.js') {
  return require(join(bundleDir, 'launch-failed.cjs'));
}
