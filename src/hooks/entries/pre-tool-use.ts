/** plugin/dist/hook-pre-tool-use.cjs: the guard. */
import type { EntryBundle } from '../launch.js';
import { exportBundle, runEntry } from '../main.js';
import { runPreToolUse } from '../pre-tool-use.js';

exportBundle<EntryBundle>({ runBundle: (bundleDir, launch) => runEntry('pre-tool-use', runPreToolUse, bundleDir, launch) });
