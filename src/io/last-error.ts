/**
 * The last unexpected failure of a hook, the status line or the SDK guard (issue 19, "Failure is observable"):
 * one stderr line for the person and a record in the state directory that `status` and `doctor` show. Small
 * on purpose: the hook launcher uses it.
 */
import { join } from './join-path.js';
import { writeFileAtomic } from './fs-safe.js';

declare const PACKAGE_VERSION: string;

/** Where a hook's last unexpected failure is kept, in the state directory, for `status` and `doctor`. */
export const LAST_ERROR_FILE = 'last-error.json';

/** An unexpected failure: when, in which event (or `statusline`, `sdk-guard`), what (one line), by which version. */
export type LastError = { at: string; event: string; error: string; version: string };

/** Write the record into `dir`, a private state directory the caller has already checked (or made). */
export function writeLastErrorIn(dir: string, record: LastError): void {
  writeFileAtomic(join(dir, LAST_ERROR_FILE), `${JSON.stringify(record)}\n`);
}

/** The `event` of a failure that is not a hook's: the status line command, and the Agent SDK guard. */
export const STATUSLINE_EVENT = 'statusline';
export const SDK_GUARD_EVENT = 'sdk-guard';

/** What failed and what followed, as the stderr line, `status` and `doctor` say it (a hook by its event). */
export function describeFailure(event: string): { what: string; after: string } {
  if (event === STATUSLINE_EVENT) return { what: 'status line', after: 'showed no measurement' };
  if (event === SDK_GUARD_EVENT) return { what: 'SDK guard', after: 'let the call through' };
  return { what: `${event} hook`, after: 'let everything through' };
}

/** The error as one clean line (Node's require errors append their stack), and the stderr line that says it. */
export function failureLine(event: string, message: string): { error: string; stderr: string } {
  // One line, no control characters (status and doctor print it to a terminal).
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
  const error = (message.split('\n')[0] ?? '').replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').slice(0, 500);
  const { what, after } = describeFailure(event);
  return {
    error,
    stderr: `context-ceiling: the ${what} failed and ${after}: ${error} (context-ceiling doctor shows the last error)\n`,
  };
}

export function packageVersion(): string {
  return typeof PACKAGE_VERSION === 'string' ? PACKAGE_VERSION : 'dev';
}

/** An error as one line, its code said once. */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Node's own messages already start with the code ("ENOENT: no such file ..."): say it once.
    return code && !error.message.startsWith(code) ? `${code}: ${error.message}` : error.message;
  }
  return String(error);
}
