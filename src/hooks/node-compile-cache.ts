/**
 * Node's own compile cache, for what an entry bundle require()s (policy-parse.cjs, turned on just before its first
 * load: bundled-services.ts), where the running Node has one (≥ 22.1: `module.enableCompileCache`), in the private
 * state directory; elsewhere (Node 20, Bun) nothing happens. Node's own NODE_DISABLE_COMPILE_CACHE=1 turns it off.
 */
import { join } from '../io/join-path.js';

export type CompileCacheModule = { enableCompileCache?: (dir: string) => unknown };

export function enableCompileCache(stateDir: string, mod: CompileCacheModule | undefined = moduleWithCompileCache()): string | undefined {
  try {
    if (typeof mod?.enableCompileCache !== 'function') return undefined;
    const dir = join(stateDir, 'compile-cache');
    mod.enableCompileCache(dir);
    return dir;
  } catch {
    return undefined; // no cache: the hook runs as it would without one
  }
}

/** node:module where it can have enableCompileCache (Node ≥ 22.1): on Node 20 loading it is a cost for nothing. */
function moduleWithCompileCache(): CompileCacheModule | undefined {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  if (major < 22 || (major === 22 && minor < 1)) return undefined;
  return require('node:module') as CompileCacheModule;
}
