/** plugin/dist/hook-post-compact.cjs: the kept summary after a compaction. */
import { runEntry } from '../main.js';
import { runPostCompact } from '../post-compact.js';

export const runBundle = (bundleDir: string): void => runEntry('post-compact', () => runPostCompact, bundleDir);
