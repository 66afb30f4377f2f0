/** plugin/dist/hook-user-prompt-submit.cjs: the monitor. */
import type { Launch } from '../launch.js';
import { runEntry } from '../main.js';
import { runUserPromptSubmit } from '../user-prompt-submit.js';

export const runBundle = (bundleDir: string, launch: Launch): void =>
  runEntry('user-prompt-submit', runUserPromptSubmit, bundleDir, launch);
