/** plugin/dist/hook-pre-compact.cjs: the checkpoint before a compaction. */
import type { EntryBundle } from '../launch.js';
import { exportBundle, runEntry } from '../main.js';
import { runPreCompact } from '../pre-compact.js';

exportBundle<EntryBundle>({ runBundle: (bundleDir, launch) => runEntry('pre-compact', runPreCompact, bundleDir, launch) });
