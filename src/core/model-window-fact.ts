/**
 * The session's model as a window fact (core/window.ts): Claude Code's own rules for a model id
 * (core/model-window.ts, mirrored from the client), applied to what the transcript shows. The newest
 * assistant turn's `message.model` never carries `[1m]`; the `model` attachment does (2.1.331), so a model
 * with a 1M variant is known only when its attachment is found, and stays ambiguous otherwise.
 */
import { CLIENT_1M_WINDOW, normalizeModelId, resolveModelWindow, type ModelLookupOptions } from './model-window.js';
import type { ModelWindowFact } from './window.js';

/** The client's knobs that change a model's window, from the hook's environment. */
export type ClientWindowKnobs = { disable1m: boolean; maxContextTokens?: number | undefined };

/**
 * `measured`: the newest turn's model; `attachment`: the newest model attachment's id, which counts only
 * when it names the same model (one from before a model switch does not).
 */
export function judgeModelWindow(
  measured: string | undefined,
  attachment: string | undefined,
  knobs: ClientWindowKnobs,
): ModelWindowFact | undefined {
  const options: ModelLookupOptions = { disable1mContext: knobs.disable1m };
  const raw = measured ?? attachment;
  if (raw === undefined) return undefined;
  const attached = attachment !== undefined && sameModel(attachment, raw) ? attachment : undefined;
  const model = resolveModelWindow(attached ?? raw, options);
  switch (model.kind) {
    case 'known':
      return { kind: 'known', id: attached ?? model.id, tokens: model.tokens };
    case 'variants':
      // No `[1m]` (else `known` above): the smaller window is likely but not seen to be right, since
      // `--betas context-1m-…` (or the SDK's `betas`) runs the 1M variant with no `[1m]` anywhere (2.1.331). So it
      // stays assumed, warning but never blocking, until a report or the session's own occupancy settles it.
      return { kind: 'ambiguous', id: model.id, tokens: model.tokens, largest: model.largest };
    case 'unknown':
      // Client `Jv`: CLAUDE_CODE_MAX_CONTEXT_TOKENS, else its default for ids it does not know.
      return { kind: 'unknown', id: model.id ?? raw.slice(0, 120), tokens: knobs.maxContextTokens ?? model.largest };
  }
}

/**
 * Whether reading the model attachment could change the answer: for a model under 1M, whose `[1m]` the
 * client would honour (it counts 1,000,000 for any id carrying it; 2.1.331). Never for the natively 1M
 * default, so the common path reads nothing more.
 */
export function needsAttachment(measured: string | undefined, knobs: ClientWindowKnobs): boolean {
  if (measured === undefined) return true;
  if (knobs.disable1m) return false;
  const model = resolveModelWindow(measured);
  return model.kind === 'variants' || (model.kind === 'known' && model.tokens < CLIENT_1M_WINDOW);
}

/** Two ids name the same model of Claude Code's table (suffixes, dates and provider spellings aside). */
export function sameModel(a: string, b: string): boolean {
  const x = normalizeModelId(a);
  const y = normalizeModelId(b);
  return x !== undefined && y !== undefined && x.id === y.id;
}
