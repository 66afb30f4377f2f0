/** plugin/dist/hook-user-prompt-submit.cjs: the monitor. */
import type { EntryBundle } from '../launch.js';
import { exportBundle, runEntry } from '../main.js';
import { runUserPromptSubmit } from '../user-prompt-submit.js';

exportBundle<EntryBundle>({ runBundle: (bundleDir, launch) => runEntry('user-prompt-submit', runUserPromptSubmit, bundleDir, launch) });
