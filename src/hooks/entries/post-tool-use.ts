/** plugin/dist/hook-post-tool-use.cjs: the orchestration file's staleness after a write. */
import type { Launch } from '../launch.js';
import { runEntry } from '../main.js';
import { runPostToolUse } from '../post-tool-use.js';

export const runBundle = (bundleDir: string, launch: Launch): void => runEntry('post-tool-use', runPostToolUse, bundleDir, launch);
