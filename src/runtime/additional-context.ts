/** Speaking through additionalContext (the model reads it), and running the optional parts of what is said. */
import { silent, type HookOutcome } from './hook-io.js';

/** Run one optional part of a hook; its failure drops that part, never the others. */
export function guarded<T>(part: () => T, debug: (message: string) => void): T | undefined {
  try {
    return part();
  } catch (error) {
    debug(`skipped: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

/** The model is told `parts` (nothing when there are none: `silentReason` says why). */
export function additionalContext(hookEventName: string, parts: string[], reason: string, silentReason = reason): HookOutcome {
  if (parts.length === 0) return silent(silentReason);
  return {
    exitCode: 0,
    stdout: `${JSON.stringify({ hookSpecificOutput: { hookEventName, additionalContext: parts.join('\n\n') } })}\n`,
    stderr: '',
    reason,
  };
}
