/**
 * The hook process's first step (plugin/dist/hook.cjs, `node hook.cjs <event>`): check the name, turn on
 * V8's compile cache where the running Node has one, then load only that entry's bundle and run it.
 * Kept tiny: everything it imports is compiled on every hook run, and is the one part no cache covers.
 */
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { ENV } from '../core/env-names.js';
import { entryBundleFile, isEntryName } from '../core/hook-table.js';
import { privateDirForRead, resolveStateDir } from '../io/state-dir.js';
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
    enableCompileCache(process.env);
    (require(join(bundleDir, entryBundleFile(name))) as EntryBundle).runBundle(bundleDir);
  } catch {
    process.exitCode = 0; // fail open, whatever happened
  }
}

export type CompileCacheModule = { enableCompileCache?: (dir: string) => unknown };

/**
 * V8's compile cache for the entry bundle (Node ≥ 22.1: `module.enableCompileCache`), kept in the private
 * state directory: only a directory that exists, is ours and nobody else can write, because a cache is code.
 * Elsewhere (Node 20, Bun, no such directory yet) nothing happens and the bundle compiles as usual.
 * Node's own NODE_DISABLE_COMPILE_CACHE=1 turns it off.
 */
export function enableCompileCache(
  env: Readonly<Record<string, string | undefined>>,
  mod: CompileCacheModule = require('node:module') as CompileCacheModule,
): string | undefined {
  try {
    if (typeof mod.enableCompileCache !== 'function') return undefined;
    // The state directory as the environment names it (a policy file's stateDir is read only later, by the hook).
    const stated = env[ENV.stateDir];
    const stateDir = privateDirForRead(
      resolveStateDir({ policy: { stateDir: stated && isAbsolute(stated) ? stated : undefined }, env, home: env.HOME || homedir() }),
    );
    if (!stateDir) return undefined;
    const dir = join(stateDir, 'compile-cache');
    mod.enableCompileCache(dir);
    return dir;
  } catch {
    return undefined; // no cache: the hook runs as it would without one
  }
}
