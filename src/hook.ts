/** The hook entry (plugin/dist/hook.cjs): `node hook.cjs <event>`. Kept free of CLI code for start-up time. */
import { join } from 'node:path';
import type { HookContext } from './hooks/context.js';
import { writeAll } from './io/hook-io.js';
import type * as PolicyParse from './io/policy-parse.js';
import type * as Events from './hooks/events.js';
import { runPreToolUse } from './hooks/pre-tool-use.js';
import { HOOK_TABLE, isEntryName } from './core/hook-table.js';
import { emitOutcome, inputFor, processHookContext, runHookEvent, unknownEntryMessage, YAML_BUDGET_MS } from './hooks/run.js';

/**
 * Heavy parsers live in bundles beside this one and load only when used:
 * zod (~2 ms) when a policy file exists, yaml when the orchestration file is read
 * (in a worker, so a pathological document cannot outlast the hook's budget).
 */
const services: Pick<HookContext, 'parsePolicy' | 'parseYaml' | 'voice'> = {
  parsePolicy: (text, path) => (require('./policy-parse.cjs') as typeof PolicyParse).parsePolicyText(text, path),
  // What only a speaking verdict needs: compiled on that path alone (nearly every call is allowed).
  voice: () => (require('./hook-events.cjs') as typeof Events).GUARD_VOICE,
  // Only events other than the guard read YAML, and they load dist/hook-events.cjs anyway.
  parseYaml: (text) =>
    (require('./hook-events.cjs') as typeof Events).parseYamlWithin(join(__dirname, 'yaml-parse.cjs'), text, YAML_BUDGET_MS),
};

try {
  const event = process.argv[2];
  if (!isEntryName(event)) {
    // A wiring mistake, not hook input: say so (Claude Code shows exit 1 as a non-blocking hook error).
    writeAll(2, unknownEntryMessage(event));
    process.exitCode = 1;
  } else {
    // The table says which bundle holds a handler: the guard is in this one; the rest load from hook-events.cjs when they fire.
    const inHere = HOOK_TABLE.some((spec) => spec.name === event && spec.bundle === 'hook');
    const lookup = () => (inHere ? runPreToolUse : (require('./hook-events.cjs') as typeof Events).HANDLERS[event]);
    emitOutcome(runHookEvent(event, lookup, processHookContext(services), inputFor(event)));
  }
} catch {
  process.exitCode = 0; // fail open, whatever happened
}
