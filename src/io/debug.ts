/** Diagnostics, off unless DEV_TEAM_CONTEXT_DEBUG asks: `1`/`on` → stderr, an absolute path → appended to that file. */
import { ENV } from '../core/env-names.js';
import { sanitizeText } from '../core/sanitize.js';
import { appendToOwnFile } from './fs-safe.js';

/** The first line of a debug log we create: only a file that starts with it is ever appended to. */
export const DEBUG_LOG_HEADER = '# context-ceiling debug log (DEV_TEAM_CONTEXT_DEBUG)\n';

export type Debug = (message: string) => void;

/** Debug files refused in this process: each is said once, however many debug channels a run makes. */
const refusedLogs = new Set<string>();

export const silentDebug: Debug = () => {};

/** `enabled` is the resolved policy's `debug`; the env value decides where lines go. */
export function createDebug(env: Readonly<Record<string, string | undefined>>, enabled: boolean, write: (line: string) => void): Debug {
  if (!enabled) return silentDebug;
  const target = env[ENV.debug];
  const toFile = target?.startsWith('/') ? target : undefined;
  return (message) => {
    // Messages quote paths and file contents: no escape sequence reaches a terminal that tails the log.
    const line = `context-ceiling debug: ${sanitizeText(message)}\n`;
    try {
      if (toFile) appendToOwnFile(toFile, DEBUG_LOG_HEADER, `${new Date().toISOString()} ${line}`);
      else write(line);
    } catch (error) {
      // A debug sink that fails must not affect the hook; a file that is not our log is said once per run, on stderr.
      if (toFile && !refusedLogs.has(toFile)) {
        refusedLogs.add(toFile);
        write(`context-ceiling: debug log not written: ${sanitizeText(error instanceof Error ? error.message : String(error))}\n`);
      }
    }
  };
}

/**
 * Debug before (or without) the resolved policy, e.g. for an unexpected error:
 * on only for the values the policy reads as on, so `off` and `0` stay silent.
 */
export function createEnvDebug(env: Readonly<Record<string, string | undefined>>, write: (line: string) => void): Debug {
  const value = env[ENV.debug];
  return createDebug(env, value === '1' || value === 'on' || value?.startsWith('/') === true, write);
}

/** One line for an unknown error, never a stack trace. */
export { describeError } from './last-error.js';
