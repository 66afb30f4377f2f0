/** plugin/dist/hook-post-tool-use.cjs: the orchestration file's staleness after a write. */
import type { EntryBundle } from '../launch.js';
import { exportBundle, runEntry } from '../main.js';
import { runPostToolUse } from '../post-tool-use.js';

exportBundle<EntryBundle>({ runBundle: (bundleDir, launch) => runEntry('post-tool-use', runPostToolUse, bundleDir, launch) });
