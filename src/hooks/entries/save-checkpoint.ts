/** plugin/dist/hook-save-checkpoint.cjs: the recovery skill's save step (no stdin). */
import type { Launch } from '../launch.js';
import { runEntry } from '../main.js';
import { runSaveCheckpoint } from '../save-checkpoint.js';

export const runBundle = (bundleDir: string, launch: Launch): void => runEntry('save-checkpoint', runSaveCheckpoint, bundleDir, launch);
