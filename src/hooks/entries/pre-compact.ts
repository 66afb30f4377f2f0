/** plugin/dist/hook-pre-compact.cjs: the checkpoint before a compaction. */
import type { Launch } from '../launch.js';
import { runEntry } from '../main.js';
import { runPreCompact } from '../pre-compact.js';

export const runBundle = (bundleDir: string, launch: Launch): void => runEntry('pre-compact', runPreCompact, bundleDir, launch);
