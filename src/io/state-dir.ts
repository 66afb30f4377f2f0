/**
 * Where the private state directory is, and whether it can be trusted for reading: apart from state.ts so
 * the hook launcher (hooks/launch.ts), which keeps V8's compile cache there, loads only this.
 */
import { lstatSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

export type StateDirContext = { policy: { stateDir: string | undefined }; env: Readonly<Record<string, string | undefined>>; home: string };

/** The state directory in force: the one place it is decided. */
export function resolveStateDir({ policy, env, home }: StateDirContext): string {
  if (policy.stateDir) return policy.stateDir;
  // XDG: a relative XDG_STATE_HOME is invalid and must be ignored.
  const xdg = env.XDG_STATE_HOME;
  return join(xdg && isAbsolute(xdg) ? xdg : join(home, '.local', 'state'), 'context-ceiling');
}

/**
 * `dir` when it can be trusted for reading: it exists, is a real directory
 * (not a link), is ours, and nobody else can write it. Otherwise undefined,
 * and nothing is created or changed: a status line report or learned window planted in a
 * directory another user owns (or can write) is never believed.
 */
export function privateDirForRead(dir: string): string | undefined {
  try {
    const stat = lstatSync(dir, { throwIfNoEntry: false });
    if (!stat || stat.isSymbolicLink() || !stat.isDirectory()) return undefined;
    const uid = process.getuid?.();
    if (uid !== undefined && stat.uid !== uid) return undefined;
    return (stat.mode & 0o022) === 0 ? dir : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `dir` when we may keep files in it without creating or changing anything: as ensurePrivateDir (state.ts)
 * demands, a real directory of ours that nobody else can read or write. Otherwise undefined.
 */
export function existingPrivateDir(dir: string): string | undefined {
  try {
    const stat = lstatSync(dir, { throwIfNoEntry: false });
    if (!stat || stat.isSymbolicLink() || !stat.isDirectory()) return undefined;
    const uid = process.getuid?.();
    if (uid !== undefined && stat.uid !== uid) return undefined;
    return (stat.mode & 0o077) === 0 ? dir : undefined;
  } catch {
    return undefined;
  }
}
