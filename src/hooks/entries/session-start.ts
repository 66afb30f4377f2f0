/** plugin/dist/hook-session-start.cjs: re-orientation at session start. */
import { runEntry } from '../main.js';
import { runSessionStart } from '../session-start.js';

export const runBundle = (bundleDir: string): void => runEntry('session-start', () => runSessionStart, bundleDir);
