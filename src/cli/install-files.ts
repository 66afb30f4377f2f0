/**
 * The files install and uninstall touch, and the trust rules for them: never
 * write through a symlinked settings file or out of the project through a
 * symlinked folder, keep the settings file's mode, refuse settings text that
 * cannot be rewritten without loss, delete only what can be proven ours.
 */
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmdirSync, unlinkSync } from 'node:fs';
import { dirname, relative, sep } from 'node:path';
import { join } from '../io/join-path.js';
import { findJsonLoss } from '../core/json-lossless.js';
import { writeFileAtomic } from '../io/fs-safe.js';
import { CliError } from './errors.js';
import { cliMessage } from './messages.js';

export type SettingsFile = { value: unknown; text: string | undefined; indent: string | number; mode: number };

/** Read a settings file install may rewrite; every reason it may not is a one-line CliError. */
export function readSettings(path: string): SettingsFile {
  const stat = lstatOrUndefined(path);
  if (stat?.isSymbolicLink()) throw new CliError(cliMessage('install.settings-symlink', { path }));
  if (stat && !stat.isFile()) throw new CliError(cliMessage('install.settings-not-file', { path }));
  if (!stat) return { value: undefined, text: undefined, indent: 2, mode: 0o644 };
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliError(cliMessage('file-unreadable', { path, code: (error as NodeJS.ErrnoException).code ?? 'error' }));
  }
  const mode = stat.mode & 0o777;
  if (text.trim() === '') return { value: undefined, text, indent: 2, mode };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CliError(cliMessage('install.settings-not-json', { path, reason: (error as Error).message }));
  }
  const loss = findJsonLoss(text);
  if (loss) throw new CliError(cliMessage('install.settings-lossy', { path, loss }));
  return { value, text, indent: detectIndent(text), mode };
}

/** Back up the previous file (when there was one), then replace it atomically with the same mode. Returns the backup path. */
export function writeSettings(path: string, current: SettingsFile, settings: Record<string, unknown>): string | undefined {
  mkdirSync(dirname(path), { recursive: true });
  let backup: string | undefined;
  if (current.text !== undefined) {
    const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('.', '-');
    backup = `${path}.bak-${stamp}`;
    for (let n = 2; existsSync(backup); n++) backup = `${path}.bak-${stamp}-${n}`; // never replace an earlier backup
    writeFileAtomic(backup, current.text, current.mode);
    chmodSync(backup, current.mode); // the umask only narrows; a private file stays private, a shared one shared
  }
  writeFileAtomic(path, `${JSON.stringify(settings, null, current.indent)}\n`, current.mode);
  chmodSync(path, current.mode);
  return backup;
}

/**
 * Refuse a path in the project whose existing folders lead out of it through
 * a symlink (a cloned repository can commit `.claude` -> ~/.claude).
 */
export function assertInsideProject(projectDir: string, path: string): void {
  let root: string;
  try {
    root = realpathSync(projectDir);
  } catch {
    return; // no project folder yet: nothing in it can lead out
  }
  const parts = relative(projectDir, path).split(sep);
  for (let i = 1; i <= parts.length; i++) {
    const prefix = join(projectDir, ...parts.slice(0, i));
    if (!lstatOrUndefined(prefix)) return;
    let real: string;
    try {
      real = realpathSync(prefix);
    } catch {
      throw new CliError(cliMessage('install.broken-symlink', { path: prefix }));
    }
    if (real !== root && !real.startsWith(root + sep)) throw new CliError(cliMessage('install.leaves-project', { path: prefix, real }));
  }
}

export function sha256(content: string | Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}

/** The file's sha256, or undefined when it is missing, not a regular file, or unreadable. */
export function hashOfFile(path: string): string | undefined {
  const stat = lstatOrUndefined(path);
  if (!stat?.isFile()) return undefined;
  try {
    return sha256(readFileSync(path));
  } catch {
    return undefined;
  }
}

/** Delete a regular file only when its content is exactly what we wrote. */
export function removeIfOurs(path: string, expected: (hash: string) => boolean): 'removed' | 'absent' | 'kept' {
  const hash = hashOfFile(path);
  if (hash === undefined) return lstatOrUndefined(path) ? 'kept' : 'absent';
  if (!expected(hash)) return 'kept';
  unlinkSync(path);
  return 'removed';
}

export function removeIfEmpty(dir: string): void {
  try {
    if (!lstatSync(dir).isDirectory()) return;
    if (readdirSync(dir).length === 0) rmdirSync(dir);
  } catch {
    // not ours to worry about
  }
}

export function sameFile(a: string, b: string): boolean {
  try {
    return readFileSync(a).equals(readFileSync(b));
  } catch {
    return false;
  }
}

function lstatOrUndefined(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

function detectIndent(text: string): string | number {
  const match = /^\{\s*\n([ \t]+)"/.exec(text);
  return match ? (match[1]!.includes('\t') ? '\t' : match[1]!.length) : 2;
}
