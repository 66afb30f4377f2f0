/** plugin/dist/hook-post-compact.cjs: the kept summary after a compaction. */
import type { Launch } from '../launch.js';
import { runEntry } from '../main.js';
import { runPostCompact } from '../post-compact.js';

export const runBundle = (bundleDir: string, launch: Launch): void => runEntry('post-compact', runPostCompact, bundleDir, launch);
