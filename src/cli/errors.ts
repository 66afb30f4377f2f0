/** The CLI's two kinds of failure (main prints them as one line, exit 1) and file-system errors as short phrases. */

/** Bad arguments or input: main prints `context-ceiling: <message>` and the usage line, exit 1. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly usage?: string,
  ) {
    super(message);
  }
}

/** A failure that is not the user's typing (invalid config file, no transcript): message only, exit 1. */
export class CliError extends Error {}

const FS_REASONS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EISDIR: 'is a directory',
  ENOTDIR: 'a part of the path is not a directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
};

export { isFsError } from '../io/fs-error.js';

/** A file-system error as one short phrase: `no such file or directory (ENOENT)`. */
export function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code && FS_REASONS[code]) return `${FS_REASONS[code]} (${code})`;
  return error instanceof Error ? error.message : String(error);
}
