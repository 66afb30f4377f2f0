/** plugin/dist/hook-save-checkpoint.cjs: the recovery skill's save step (no stdin). */
import type { EntryBundle } from '../launch.js';
import { exportBundle, runEntry } from '../main.js';
import { runSaveCheckpoint } from '../save-checkpoint.js';

exportBundle<EntryBundle>({ runBundle: (bundleDir, launch) => runEntry('save-checkpoint', runSaveCheckpoint, bundleDir, launch) });
