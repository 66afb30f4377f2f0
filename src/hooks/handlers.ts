/**
 * Every entry's handler, linked in (the CLI's `hook`, tests). The plugin's hook runs one entry bundle
 * per event instead (entries/*.ts → hook-<name>.cjs), so no event compiles another's code.
 */
import { runPostCompact } from './post-compact.js';
import { runPostToolUse } from './post-tool-use.js';
import { runPreCompact } from './pre-compact.js';
import { runPreToolUse } from './pre-tool-use.js';
import { runSaveCheckpoint } from './save-checkpoint.js';
import type { EntryName } from '../core/hook-table.js';
import type { HookHandler } from '../runtime/run.js';
import { runSessionStart } from './session-start.js';
import { runUserPromptSubmit } from './user-prompt-submit.js';

/** One handler per entry of the hook table (and the skill's command): the type makes a missing one a compile error. */
export const HANDLERS: Record<EntryName, HookHandler> = {
  'pre-tool-use': runPreToolUse,
  'user-prompt-submit': runUserPromptSubmit,
  'pre-compact': runPreCompact,
  'post-compact': runPostCompact,
  'session-start': runSessionStart,
  'post-tool-use': runPostToolUse,
  'save-checkpoint': runSaveCheckpoint,
};
