/** The hook entry (dist/hook.cjs): `node hook.cjs <event>`. Kept free of CLI code for start-up time. */
import { writeAll } from './io/hook-io.js';
import { emitOutcome, HOOK_EVENTS, processHookContext, runHookEvent } from './hooks/run.js';

try {
  const event = process.argv[2];
  if (event === undefined || !HOOK_EVENTS.includes(event)) {
    // A wiring mistake, not hook input: say so (Claude Code shows exit 1 as a non-blocking hook error).
    writeAll(2, `context-ceiling: unknown hook event ${JSON.stringify(event ?? '')}; expected one of ${HOOK_EVENTS.join(', ')}\n`);
    process.exitCode = 1;
  } else {
    emitOutcome(runHookEvent(event, processHookContext()));
  }
} catch {
  process.exitCode = 0; // fail open, whatever happened
}
