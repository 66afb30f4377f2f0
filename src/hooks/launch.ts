/**
 * The hook process's first step (plugin/dist/hook.cjs, `node hook.cjs <event>`): check the name, then load
 * only that entry's bundle, compiled from V8's code cache in the private state directory when there is one
 * (io/code-cache.ts, any Node; Bun loads it plainly), and run it. Kept tiny: everything it imports is
 * compiled on every hook run, and is the one part no cache covers.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { ENV } from '../core/env-names.js';
import { entryBundleFile, isEntryName, unknownEntryMessage } from '../core/hook-table.js';
import { loadBundle, type LoadedBundle } from '../io/code-cache.js';
import { homeDirectory } from '../io/home.js';
import { describeError, failureLine, packageVersion, writeLastErrorIn } from '../io/last-error.js';
import { createStateDir, existingPrivateDir, resolveStateDir } from '../io/state-dir.js';
import { writeAll } from '../runtime/hook-io.js';

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
    const stateDir = launcherStateDir(process.env);
    if (stateDir) enableCompileCache(stateDir);
    const file = join(bundleDir, entryBundleFile(name));
    let bundle: Pick<LoadedBundle, 'exports' | 'saveCache'>;
    try {
      bundle = loadCached(file, stateDir);
    } catch (error) {
      // A half-updated runtime copy: the hook still lets everything through, but says so (issue 19, case 9).
      failedToLoad(name, error);
      return;
    }
    (bundle.exports as EntryBundle).runBundle(bundleDir);
    bundle.saveCache();
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
 */
function launcherStateDir(env: NodeJS.ProcessEnv): string | undefined {
  if (env[ENV.stateDir]) return undefined;
  return privateStateDir(env);
}

/** The entry's bundle could not be loaded: one stderr line, and the last-error record where state is kept. */
function failedToLoad(name: string, error: unknown): void {
  const line = failureLine(name, describeError(error));
  try {
    const dir = privateDirMade(userPolicyStateDir() ?? defaultStateDir());
    if (dir) writeLastErrorIn(dir, { at: new Date().toISOString(), event: name, error: line.error, version: packageVersion() });
  } catch {
    // nowhere private to keep it: the stderr line still says it
  }
  writeAll(2, line.stderr);
  process.exitCode = 0;
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
    resolveStateDir({ policy: { stateDir: stated && isAbsolute(stated) ? stated : undefined }, env, home: homeDirectory(env) }),
  );
}

/**
 * V8's compile cache for what the hook loads with require() (guard-voice.cjs, policy-parse.cjs), where Node
 * has one (≥ 22.1: `module.enableCompileCache`), in the private state directory; elsewhere (Node 20, Bun)
 * nothing happens. Node's own NODE_DISABLE_COMPILE_CACHE=1 turns it off.
 */
export function enableCompileCache(stateDir: string, mod: CompileCacheModule | undefined = moduleWithCompileCache()): string | undefined {
  try {
    if (typeof mod?.enableCompileCache !== 'function') return undefined;
    const dir = join(stateDir, 'compile-cache');
    mod.enableCompileCache(dir);
    return dir;
  } catch {
    return undefined; // no cache: the hook runs as it would without one
  }
}

/** node:module where it can have enableCompileCache (Node ≥ 22.1): on Node 20 loading it is a cost for nothing. */
function moduleWithCompileCache(): CompileCacheModule | undefined {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  if (major < 22 || (major === 22 && minor < 1)) return undefined;
  return require('node:module') as CompileCacheModule;
}

/**
 * The state directory the user's own policy names (~/.claude/context-ceiling.json `stateDir`), when it exists
 * and is private: where `status` and `doctor` will look. Read as plain JSON: the policy parser may be what is
 * missing. Only on this failure path.
 */
function userPolicyStateDir(): string | undefined {
  try {
    const raw = readFileSync(join(homeDir(), '.claude', 'context-ceiling.json'), 'utf8').slice(0, 1024 * 1024);
    const stated = (JSON.parse(raw) as { stateDir?: unknown }).stateDir;
    return typeof stated === 'string' && isAbsolute(stated) ? stated : undefined;
  } catch {
    return undefined;
  }
}

/** The default state directory, when no path variable (perhaps the repository's) names another. */
function defaultStateDir(): string | undefined {
  const env = process.env;
  if (env[ENV.stateDir]) return undefined;
  return resolveStateDir({ policy: { stateDir: undefined }, env, home: homeDir() });
}

/** `dir`, made 0700 when missing (as the hooks make it: io/state-dir.ts), when it is private and ours. */
function privateDirMade(dir: string | undefined): string | undefined {
  if (dir === undefined) return undefined;
  try {
    createStateDir(dir);
  } catch {
    return undefined; // a parent missing outside the home: not ours to create
  }
  return existingPrivateDir(dir);
}

function homeDir(): string {
  return homeDirectory();
}
