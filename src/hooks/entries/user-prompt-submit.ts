/** plugin/dist/hook-user-prompt-submit.cjs: the monitor. */
import { runEntry } from '../main.js';
import { runUserPromptSubmit } from '../user-prompt-submit.js';

export const runBundle = (bundleDir: string): void => runEntry('user-prompt-submit', () => runUserPromptSubmit, bundleDir);
