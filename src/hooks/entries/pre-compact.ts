/** plugin/dist/hook-pre-compact.cjs: the checkpoint before a compaction. */
import { runEntry } from '../main.js';
import { runPreCompact } from '../pre-compact.js';

export const runBundle = (bundleDir: string): void => runEntry('pre-compact', () => runPreCompact, bundleDir);
