/** plugin/dist/hook-post-compact.cjs: the kept summary after a compaction. */
import type { EntryBundle } from '../launch.js';
import { exportBundle, runEntry } from '../main.js';
import { runPostCompact } from '../post-compact.js';

exportBundle<EntryBundle>({ runBundle: (bundleDir, launch) => runEntry('post-compact', runPostCompact, bundleDir, launch) });
