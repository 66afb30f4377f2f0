/** plugin/dist/hook-session-start.cjs: re-orientation at session start. */
import type { Launch } from '../launch.js';
import { runEntry } from '../main.js';
import { runSessionStart } from '../session-start.js';

export const runBundle = (bundleDir: string, launch: Launch): void => runEntry('session-start', runSessionStart, bundleDir, launch);
