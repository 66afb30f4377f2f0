/** Claude Code's model table as the window rules read it (placeholder until the generated table lands). */
import type { ModelLookup } from '../core/model-window-fact.js';

export const lookupModel: ModelLookup = () => undefined;
