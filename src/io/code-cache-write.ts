/**
 * Write the V8 code cache of a bundle that ran without one (io/code-cache.ts reads it): by the entry bundle once
 * its run is over, so the functions the run compiled are in it. Apart from the reader so the launcher never links it.
 */
import { lstatSync, mkdirSync, readdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { readBundle, type UncachedBundle } from './code-cache.js';
import { writeFileAtomic } from './fs-safe.js';

export type LoadedBundle = {
  exports: unknown;
  /** Whether V8 compiled the bundle from the cache. */
  fromCache: boolean;
  /** Write the cache when there was none (or V8 refused it); call after the run, so the functions it compiled are in it. */
  saveCache: () => void;
};

/**
 * Read and write in one (the tests' way in; the hooks split the two between launcher and entry). `cacheDir`: a
 * private directory (or undefined: no cache). Throws what loading the bundle throws.
 */
export function loadBundle(dir: string, name: string, cacheDir: string | undefined, req: NodeJS.Require): LoadedBundle {
  const { exports, uncached } = readBundle(dir, name, cacheDir, req);
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
