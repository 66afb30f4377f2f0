/** plugin/dist/hook-post-tool-use.cjs: the orchestration file's staleness after a write. */
import { runEntry } from '../main.js';
import { runPostToolUse } from '../post-tool-use.js';

export const runBundle = (bundleDir: string): void => runEntry('post-tool-use', () => runPostToolUse, bundleDir);
