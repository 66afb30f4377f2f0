/**
 * Load a CommonJS bundle whose path is known, with V8's code cache, on any Node. The module loader would
 * resolve the path, walk it for links and look for package.json scopes up the tree (measured: more work
 * than the hook launcher itself), and Node keeps a compile cache only from 22.1 (module.enableCompileCache).
 * The cache lives in a private directory only: a cache is code.
 */
import { closeSync, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { writeFileAtomic } from './fs-safe.js';

export type LoadedBundle = {
  exports: unknown;
  /** Whether V8 compiled the bundle from the cache. */
  fromCache: boolean;
  /** Write the cache when there was none (or V8 refused it); call after the run, so the functions it compiled are in it. */
  saveCache: () => void;
};

/** A bundle compiled without a usable cache: what writing one for it takes, once its run is over. */
export type UncachedBundle = { dir: string; identity: string; data: () => Buffer };

type CommonJsWrapper = (exports: unknown, require: NodeJS.Require, module: { exports: unknown }, file: string, dir: string) => void;

/**
 * The bundle's exports, compiled from the cache in `cacheDir` (a private directory; undefined: no cache), and,
 * when there was none to use, what `writeCodeCache` needs after the run. Only reads: the hook launcher links
 * this alone, and the entry bundle writes the cache. Throws what loading the bundle throws.
 */
export function readBundle(
  file: string,
  cacheDir: string | undefined,
  req: NodeJS.Require,
): { exports: unknown; uncached?: UncachedBundle } {
  const fd = openSync(file, 'r');
  let source: string;
  let identity: string;
  try {
    const stat = fstatSync(fd);
    // A rebuilt or reinstalled bundle is a new file: V8 itself checks only the source's length.
    identity = `${basename(file)}.${stat.size}.${Math.trunc(stat.mtimeMs)}.${stat.ino}.v8`;
    source = readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
  const cachedData = cacheDir === undefined ? undefined : readCache(join(cacheDir, identity));
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    cachedData,
  });
  const module = { exports: {} as unknown };
  (script.runInThisContext() as CommonJsWrapper)(module.exports, req, module, file, dirname(file));
  const fromCache = cachedData !== undefined && script.cachedDataRejected !== true;
  if (fromCache || cacheDir === undefined) return { exports: module.exports };
  return { exports: module.exports, uncached: { dir: cacheDir, identity, data: () => script.createCachedData() } };
}

/** `cacheDir`: a private directory (or undefined: no cache). Throws what loading the bundle throws. */
export function loadBundle(file: string, cacheDir: string | undefined, req: NodeJS.Require): LoadedBundle {
  const { exports, uncached } = readBundle(file, cacheDir, req);
  return { exports, fromCache: cacheDir !== undefined && uncached === undefined, saveCache: () => writeCodeCache(uncached) };
}

/** Keep the cache of a bundle that ran without one; never throws (no cache this time: the next run compiles again). */
export function writeCodeCache(uncached: UncachedBundle | undefined): void {
  if (uncached === undefined) return;
  try {
    writeCache(uncached.dir, uncached.identity, uncached.data());
  } catch {
    // the next run compiles again
  }
}

function readCache(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/** One cache per bundle name: the new one replaces the old ones. The folder is made private, or refused. */
function writeCache(dir: string, identity: string, data: Buffer): void {
  if (!lstatSync(dir, { throwIfNoEntry: false })) mkdirSync(dir, { mode: 0o700 });
  const stat = lstatSync(dir);
  const uid = process.getuid?.();
  if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid) || (stat.mode & 0o077) !== 0) return;
  const name = identity.slice(0, identity.indexOf('.cjs.') + 4);
  for (const old of readdirSync(dir)) if (old.startsWith(`${name}.`) && old !== identity && old.endsWith('.v8')) unlinkSync(join(dir, old));
  writeFileAtomic(join(dir, identity), data, 0o600);
}
