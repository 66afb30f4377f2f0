/**
 * One entry bundle's run (hook-<name>.cjs, loaded by hook.cjs through launch.ts): the services from the
 * bundles beside it, the runtime around the handler, and its outcome written; then the code caches, written
 * once the run is over when they lack this kind of run (the functions it compiled are in them). Fails open.
 */
import type { EntryName } from '../core/hook-table.js';
import { keepCodeCache } from '../io/code-cache-write.js';
import { emitOutcome, inputFor, processHookHost, runHookEvent, type HookHandler } from '../runtime/run.js';
import { bundledServices } from './bundled-services.js';
import type { Launch } from './launch.js';

/**
 * Make `bundle` what this bundle (an entry's, the status line's) exports, as CommonJS's own `module.exports`: the
 * bundle runs inside the CommonJS wrapper (io/code-cache.ts, or require() under Bun), whose `module` this is once
 * bundled. An `export` instead has esbuild build an object of one getter per export at every load (~55 K
 * instructions of every hook run on Node 26, measured).
 */
export function exportBundle<T extends object>(bundle: T): void {
  module.exports = bundle;
}

/** Run entry `name`'s handler. */
export function runEntry(name: EntryName, handler: HookHandler, bundleDir: string, launch: Launch): void {
  try {
    const services = bundledServices(bundleDir, launch.stateDir);
    const outcome = runHookEvent(name, () => handler, processHookHost(services), inputFor(name));
    emitOutcome(outcome);
    // The kind of run is its verdict's first word (allow, warn, block, monitor…): a cache holds each kind's functions.
    keepCodeCache(launch.cache, outcome.reason.split(' ', 1)[0] ?? '');
  } catch {
    process.exitCode = 0; // fail open, whatever happened
  }
  endRun();
}

/**
 * The run is over and all it says was written synchronously (runtime/run.ts writeAll): end the process here, with
 * the exit code set, rather than let Node free the heap and tear the isolate down first (~1.1 M instructions of
 * every hook run on Node 26, measured; a worker a hook left running is ended with it).
 */
export function endRun(): void {
  process.exit();
}
