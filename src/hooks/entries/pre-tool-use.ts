/** plugin/dist/hook-pre-tool-use.cjs: the guard. */
import type { Launch } from '../launch.js';
import { runEntry } from '../main.js';
import { runPreToolUse } from '../pre-tool-use.js';

export const runBundle = (bundleDir: string, launch: Launch): void => runEntry('pre-tool-use', runPreToolUse, bundleDir, launch);
