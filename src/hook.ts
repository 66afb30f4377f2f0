/** The hook entry (dist/hook.cjs): `node hook.cjs <event>`. Kept free of CLI code for start-up time. */
import type { PolicyParser } from './io/config.js';
import { writeAll } from './io/hook-io.js';
import type * as PolicyParse from './io/policy-parse.js';
import { emitOutcome, HOOK_EVENTS, processHookContext, runHookEvent } from './hooks/run.js';

/** zod loads (~2 ms) only when a policy file exists: dist/policy-parse.cjs, beside this bundle. */
const parsePolicy: PolicyParser = (text, path) => (require('./policy-parse.cjs') as typeof PolicyParse).parsePolicyText(text, path);

try {
  const event = process.argv[2];
  if (event === undefined || !HOOK_EVENTS.includes(event)) {
    // A wiring mistake, not hook input: say so (Claude Code shows exit 1 as a non-blocking hook error).
    writeAll(2, `context-ceiling: unknown hook event ${JSON.stringify(event ?? '')}; expected one of ${HOOK_EVENTS.join(', ')}\n`);
    process.exitCode = 1;
  } else {
    emitOutcome(runHookEvent(event, processHookContext(parsePolicy)));
  }
} catch {
  process.exitCode = 0; // fail open, whatever happened
}
