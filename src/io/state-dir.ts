/**
 * Where the private state directory is, whether it can be trusted for reading, and how a missing one is
 * made: apart from state.ts so the hook launcher (hooks/launch.ts) loads only this.
 */
import { lstatSync, mkdirSync } from 'node:fs';
import { dirname, isAbsolute, relative } from 'node:path';
import { join } from 'node:path';
import { homeDirectory } from './home.js';

export type StateDirContext = { policy: { stateDir: string | undefined }; env: Readonly<Record<string, string | undefined>>; home: string };

/**
 * The state directory in force: the one place it is decided. A relative `stateDir` never counts (the policy
 * schema and the variable's coercion refuse one, with a reason): it would follow each process's working folder.
 */
export function resolveStateDir({ policy, env, home }: StateDirContext): string {
  if (policy.stateDir && isAbsolute(policy.stateDir)) return policy.stateDir;
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
    // lstat: a link is no directory (each Stats method a hook calls first is compiled on that run).
    if (!stat?.isDirectory()) return undefined;
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
    // lstat: a link is no directory (each Stats method a hook calls first is compiled on that run).
    if (!stat?.isDirectory()) return undefined;
    const uid = process.getuid?.();
    if (uid !== undefined && stat.uid !== uid) return undefined;
    return (stat.mode & 0o077) === 0 ? dir : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Create `dir` (0700), and its missing parents only for the default (XDG) directory or inside the user's
 * home: a path elsewhere whose parent is missing is a mistake or someone else's choice, never a reason to
 * `mkdir -p` it. True when this call made it (false: a concurrent hook did).
 */
export function createStateDir(dir: string): boolean {
  try {
    mkdirSync(dir, { mode: 0o700 });
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false; // made by a concurrent hook: checked as any existing one
    if (code !== 'ENOENT') throw error;
    if (!isXdgDefault(dir) && !insideHome(dirname(dir)))
      throw new Error(`state directory ${dir}: its parent does not exist; not created (parents are created only inside your home)`);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return true;
  }
}

/** `$XDG_STATE_HOME/context-ceiling`: XDG says a missing state home is created (0700). */
function isXdgDefault(dir: string): boolean {
  const xdg = process.env.XDG_STATE_HOME;
  return xdg !== undefined && isAbsolute(xdg) && dir === join(xdg, 'context-ceiling');
}

function insideHome(path: string): boolean {
  let home: string;
  try {
    home = homeDirectory();
  } catch {
    return false;
  }
  const rel = relative(home, path);
  return home !== '' && rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}
