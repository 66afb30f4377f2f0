/**
 * One hook process, `node hook.cjs <event>`: the table names the handler and its bundle (the guard is
 * in hook.cjs itself; every other event loads hook-events.cjs when it fires), the runtime runs it and
 * writes its outcome. Any failure exits 0 with nothing said: a hook fails open.
 */
import { HOOK_TABLE, isEntryName } from '../core/hook-table.js';
import { writeAll } from '../runtime/hook-io.js';
import { emitOutcome, inputFor, processHookHost, runHookEvent, unknownEntryMessage } from '../runtime/run.js';
import { bundledServices } from './bundled-services.js';
import type * as Handlers from './handlers.js';
import { guardHook } from './pre-tool-use.js';

/** `bundleDir`: the folder of the running hook.cjs, where the bundles it loads on demand sit. */
export function hookMain(event: string | undefined, bundleDir: string): void {
  try {
    if (!isEntryName(event)) {
      // A wiring mistake, not hook input: say so (Claude Code shows exit 1 as a non-blocking hook error).
      writeAll(2, unknownEntryMessage(event));
      process.exitCode = 1;
      return;
    }
    const services = bundledServices(bundleDir);
    const inHere = HOOK_TABLE.some((spec) => spec.name === event && spec.bundle === 'hook');
    const lookup = () =>
      inHere ? guardHook(services.voice) : (require(`${bundleDir}/hook-events.cjs`) as typeof Handlers).HANDLERS[event];
    emitOutcome(runHookEvent(event, lookup, processHookHost(services), inputFor(event)));
  } catch {
    process.exitCode = 0; // fail open, whatever happened
  }
}
