/**
 * Every event's handler. In the hook bundle this is dist/hook-events.cjs,
 * loaded only for events other than pre-tool-use, whose start-up matters most.
 */
import { runPostCompact } from './post-compact.js';
import { runPostToolUse } from './post-tool-use.js';
import { runPreCompact } from './pre-compact.js';
import { guardHook } from './pre-tool-use.js';
import { runSaveCheckpoint } from './save-checkpoint.js';
import type { EntryName } from '../core/hook-table.js';
import type { HookHandler } from '../runtime/run.js';
import { runSessionStart } from './session-start.js';
import { runUserPromptSubmit } from './user-prompt-submit.js';

import { GUARD_VOICE } from './guard-voice.js';

/** The guard's speaking path, loaded from this bundle only when a verdict speaks (bundled-services.ts). */
export { GUARD_VOICE };
/** Bounded YAML parsing, for the events that read ORCHESTRATION.yaml (never the guard). */
export { parseYamlWithin } from '../io/yaml-bounded.js';

/** One handler per entry of the hook table (and the skill's command): the type makes a missing one a compile error. */
export const HANDLERS: Record<EntryName, HookHandler> = {
  'pre-tool-use': guardHook(() => GUARD_VOICE),
  'user-prompt-submit': runUserPromptSubmit,
  'pre-compact': runPreCompact,
  'post-compact': runPostCompact,
  'session-start': runSessionStart,
  'post-tool-use': runPostToolUse,
  'save-checkpoint': runSaveCheckpoint,
};
