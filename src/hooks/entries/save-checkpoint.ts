/** plugin/dist/hook-save-checkpoint.cjs: the recovery skill's save step (no stdin). */
import { runEntry } from '../main.js';
import { runSaveCheckpoint } from '../save-checkpoint.js';

export const runBundle = (bundleDir: string): void => runEntry('save-checkpoint', () => runSaveCheckpoint, bundleDir);
