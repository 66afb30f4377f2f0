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

/**
 * The model is told `parts` (nothing when there are none: `silentReason` says why); the person is told
 * `systemMessage` when there is one.
 */
export function additionalContext(
  hookEventName: string,
  parts: string[],
  reason: string,
  silentReason = reason,
  systemMessage?: string | undefined,
): HookOutcome {
  if (parts.length === 0 && !systemMessage) return silent(silentReason);
  const output = {
    ...(systemMessage ? { systemMessage } : {}),
    ...(parts.length ? { hookSpecificOutput: { hookEventName, additionalContext: parts.join('\n\n') } } : {}),
  };
  return {
    exitCode: 0,
    stdout: `${JSON.stringify(output)}\n`,
    stderr: '',
    reason: `${parts.length ? reason : silentReason}${systemMessage ? '+notice' : ''}`,
  };
}
