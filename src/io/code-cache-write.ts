/**
 * Write the V8 code cache of a bundle (io/code-cache.ts reads it): by the entry bundle once its run is over, so
 * the functions the run compiled are in it. Apart from the reader so the launcher never links it.
 */
import { lstatSync, mkdirSync, readdirSync, unlinkSync } from 'node:fs';
import { join } from './join-path.js';
import { type BundleCache, CODE_CACHE_SUFFIX, readBundle } from './code-cache.js';
import { writeFileAtomic } from './fs-safe.js';
import { shapedKind } from './run-shape.js';

export type LoadedBundle = {
  exports: unknown;
  /** Whether V8 compiled the bundle from the cache. */
  fromCache: boolean;
  /** After a run of `kind`: write the cache when it does not hold that kind's functions yet. */
  saveCache: (kind: string) => void;
};

/**
 * Read and write in one (the tests' way in; the hooks split the two between launcher and entry). `cacheDir`: a
 * private directory (or undefined: no cache). Throws what loading the bundle throws.
 */
export function loadBundle(dir: string, name: string, cacheDir: string | undefined, req: NodeJS.Require): LoadedBundle {
  const { exports, cache } = readBundle(dir, name, cacheDir, req);
  return { exports, fromCache: cache?.covers !== undefined, saveCache: (kind) => keepCodeCache(cache, kind) };
}

/** The header holds at most this many bytes: past it, a new kind of run no longer rewrites the cache. */
const MAX_HEADER = 255;

/**
 * After a run of `kind` (the first word of its verdict: allow, warn, monitor…), write the bundle's cache when
 * there was none, V8 refused it, or it does not hold that kind's functions yet: this process's cache holds the
 * ones it loaded and the ones this run compiled. The kind carries what the run did that its name does not tell
 * (run-shape.ts: `monitor/records` in a session with checkpoints of ours). So each kind of run is written once per
 * bundle, and a kind whose name is no word, or one past a full header, writes nothing. Never throws (no cache
 * this time: the next run compiles again).
 */
export function keepCodeCache(cache: BundleCache | undefined, kind: string): void {
  const shaped = shapedKind(kind);
  if (cache === undefined || covered(cache.covers, shaped) || !/^[a-z][a-z+-]*(\/[a-z]+)*$/.test(shaped)) return;
  const header = Buffer.from([...(cache.covers ?? []), shaped].join(','));
  if (header.length > MAX_HEADER) return;
  try {
    writeCache(cache.dir, cache.identity, Buffer.concat([Buffer.from([header.length]), header, cache.data()]));
  } catch {
    // the next run compiles again
  }
}

/** Whether a cache written after runs of `covers` holds a `shaped` run's functions: one of its kind with at least its marks. */
function covered(covers: readonly string[] | undefined, shaped: string): boolean {
  if (covers === undefined) return false;
  if (covers.includes(shaped)) return true;
  const [kind, ...marks] = shaped.split('/');
  return covers.some((written) => {
    const [writtenKind, ...writtenMarks] = written.split('/');
    return writtenKind === kind && marks.every((mark) => writtenMarks.includes(mark));
  });
}

/** Caches of one bundle by other V8s kept beside this V8's: a user switching between a few Nodes keeps one for each. */
export const OTHER_V8_CACHES = 2;

/** Bundles earlier versions kept a cache of and this one no longer has (the guard's voice is in its bundle now). */
const RETIRED_BUNDLES = ['guard-voice.cjs'];

/**
 * One cache per bundle and V8: the new one replaces those of an earlier bundle of that name (and an earlier
 * version's files), and keeps the newest OTHER_V8_CACHES ones other V8s wrote for this bundle (an upgraded Node's
 * old ones go, oldest first); a retired bundle's caches go too. The folder is made private, or refused.
 */
function writeCache(dir: string, identity: string, data: Buffer): void {
  if (!privateCacheDir(dir)) return;
  const name = identity.slice(0, identity.indexOf('.cjs.') + 4);
  // `<name>.<size>.<mtime>.<ino>.`: this bundle's caches, whatever V8 wrote them.
  const bundle = identity.slice(0, identity.length - CODE_CACHE_SUFFIX.length - process.versions.v8.length);
  const otherV8s: Array<{ file: string; mtimeMs: number }> = [];
  for (const old of readdirSync(dir)) {
    if (RETIRED_BUNDLES.some((retired) => old.startsWith(`${retired}.`)) && old.endsWith(CODE_CACHE_SUFFIX)) {
      unlinkSync(join(dir, old));
      continue;
    }
    if (!old.startsWith(`${name}.`) || old === identity || !(old.endsWith(CODE_CACHE_SUFFIX) || old.endsWith('.v8'))) continue;
    const anotherV8 = old.startsWith(bundle) && old.length > bundle.length + CODE_CACHE_SUFFIX.length;
    const file = join(dir, old);
    if (!anotherV8) unlinkSync(file);
    else {
      // Gone meanwhile (another hook of the same turn pruning too): nothing to keep or delete.
      const stat = lstatSync(file, { throwIfNoEntry: false });
      if (stat) otherV8s.push({ file, mtimeMs: stat.mtimeMs });
    }
  }
  otherV8s.sort((a, b) => b.mtimeMs - a.mtimeMs);
  for (const { file } of otherV8s.slice(OTHER_V8_CACHES)) unlinkSync(file);
  writeFileAtomic(join(dir, identity), data, 0o600);
}

/**
 * The cache folder inside the private state directory, made (0700) when missing: true when it is a directory of
 * ours closed to others, false otherwise (nothing is then written there). Throws what making it throws.
 */
export function privateCacheDir(dir: string): boolean {
  if (!lstatSync(dir, { throwIfNoEntry: false })) mkdirSync(dir, { mode: 0o700 });
  const stat = lstatSync(dir);
  const uid = process.getuid?.();
  return stat.isDirectory() && (uid === undefined || stat.uid === uid) && (stat.mode & 0o077) === 0;
}
