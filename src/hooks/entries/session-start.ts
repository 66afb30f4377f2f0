/** plugin/dist/hook-session-start.cjs: re-orientation at session start. */
import type { EntryBundle } from '../launch.js';
import { exportBundle, runEntry } from '../main.js';
import { runSessionStart } from '../session-start.js';

exportBundle<EntryBundle>({ runBundle: (bundleDir, launch) => runEntry('session-start', runSessionStart, bundleDir, launch) });
