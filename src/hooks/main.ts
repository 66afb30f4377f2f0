/**
 * One entry bundle's run (hook-<name>.cjs, loaded by hook.cjs through launch.ts): the services from the
 * bundles beside it, the runtime around the handler, and its outcome written. Fails open.
 */
import type { EntryName } from '../core/hook-table.js';
import { emitOutcome, inputFor, processHookHost, runHookEvent, type HookHandler } from '../runtime/run.js';
import { bundledServices } from './bundled-services.js';
import type { HookServices } from './linked-services.js';

/** Run entry `name` with the handler `handlerOf` makes from the services (the guard takes its voice from them). */
export function runEntry(name: EntryName, handlerOf: (services: HookServices) => HookHandler, bundleDir: string): void {
  try {
    const services = bundledServices(bundleDir);
    emitOutcome(runHookEvent(name, () => handlerOf(services), processHookHost(services), inputFor(name)));
  } catch {
    process.exitCode = 0; // fail open, whatever happened
  }
}
