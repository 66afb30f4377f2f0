/**
 * Load a CommonJS bundle whose path is known, with V8's code cache, on any Node. The module loader would
 * resolve the path, walk it for links and look for package.json scopes up the tree (measured: more work
 * than the hook launcher itself), and Node keeps a compile cache only from 22.1 (module.enableCompileCache).
 * The cache lives in a private directory only: a cache is code.
 */
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type * as Vm from 'node:vm';

/**
 * A bundle's code cache after its run: where it lives, the kinds of run whose compiled functions it holds
 * (undefined: no usable cache was loaded), and the cache this process could write now (code-cache-write.ts).
 */
export type BundleCache = { dir: string; identity: string; covers: readonly string[] | undefined; data: () => Buffer };

/**
 * The file's suffix. Its first byte is the length of a header that names the kinds of run whose functions it
 * holds (comma-separated), then V8's data: a run of another kind (a warning after the first allows) compiles
 * its own functions from source until a cache holding them is written.
 */
export const CODE_CACHE_SUFFIX = '.v8k';

type CommonJsWrapper = (exports: unknown, require: NodeJS.Require, module: { exports: unknown }, file: string, dir: string) => void;

/**
 * The bundle's exports, compiled from the cache in `cacheDir` (a private directory; undefined: no cache), and
 * what `keepCodeCache` (code-cache-write.ts) needs after the run. Only reads: the hook launcher links this alone,
 * and the entry bundle writes the cache. Throws what loading the bundle throws.
 */
export function readBundle(
  dir: string,
  name: string,
  cacheDir: string | undefined,
  req: NodeJS.Require,
): { exports: unknown; cache?: BundleCache } {
  // The folder and the name come apart: each node:path function a hook calls first is compiled on that run.
  const file = join(dir, name);
  const fd = openSync(file, 'r');
  let source: string;
  let identity: string;
  try {
    const stat = fstatSync(fd);
    // A rebuilt or reinstalled bundle is a new file: V8 itself checks only the source's length. Each V8 keeps its
    // own (V8 refuses another's): a user whose hooks meet two Nodes in turn would otherwise rewrite it every run.
    identity = `${name}.${stat.size}.${Math.trunc(stat.mtimeMs)}.${stat.ino}.${process.versions.v8}${CODE_CACHE_SUFFIX}`;
    source = readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
  let cachedData: Buffer | undefined;
  let covers: string[] | undefined;
  try {
    if (cacheDir !== undefined) {
      const bytes = readBytes(join(cacheDir, identity));
      const end = 1 + (bytes[0] as number);
      covers = bytes.subarray(1, end).toString().split(',');
      cachedData = bytes.subarray(end);
    }
  } catch {
    // none yet, or unreadable: compiled from source, and a cache is written after the run
  }
  // Required here, not at the top: the launchers link this module, and under Bun (which never comes here) loading
  // node:vm costs ~2 ms of a hook's start (bench/RESULTS.md).
  const { Script } = require('node:vm') as typeof Vm;
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    cachedData,
  });
  const module = { exports: {} as unknown };
  (script.runInThisContext() as CommonJsWrapper)(module.exports, req, module, file, dir);
  if (cacheDir === undefined) return { exports: module.exports };
  const used = cachedData !== undefined && script.cachedDataRejected !== true;
  return {
    exports: module.exports,
    cache: { dir: cacheDir, identity, covers: used ? covers : undefined, data: () => script.createCachedData() },
  };
}

/**
 * The file's bytes, read as the bundle's text is (open, fstat, read, close): readFileSync without an encoding
 * takes another path through Node, whose four functions (tryStatSync, tryCreateBuffer, tryReadSync, isFileType)
 * are compiled on every hook run (~0.3 M instructions, measured). A short read is a cache V8 refuses.
 */
function readBytes(path: string): Buffer {
  const fd = openSync(path, 'r');
  try {
    const bytes = Buffer.allocUnsafe(fstatSync(fd).size);
    let done = 0;
    while (done < bytes.length) {
      const read = readSync(fd, bytes, done, bytes.length - done, null);
      if (read === 0) break;
      done += read;
    }
    return done === bytes.length ? bytes : bytes.subarray(0, done);
  } finally {
    closeSync(fd);
  }
}
