/**
 * The window Claude Code gives a session's model, mirrored from the client (2.1.331, CLAUDE-CODE-FACTS.md):
 * a `[1m]` suffix makes any model 1,000,000 (unless CLAUDE_CODE_DISABLE_1M_CONTEXT); a natively 1M model
 * has its own window; any other model in the table has its table window (200,000); a model the table
 * does not know gets CLAUDE_CODE_MAX_CONTEXT_TOKENS, else 1,000,000 (200,000 with 1M disabled).
 */
import type { ModelWindowFact } from './window.js';

/** One model of Claude Code's table, as the window rules need it. */
export type ModelTableEntry = { id: string; tokens: number; native1m: boolean; largest?: number | undefined };

export type ModelLookup = (rawId: string) => ModelTableEntry | undefined;

/** The client's knobs that change a model's window (from the hook's environment). */
export type ClientWindowKnobs = { disable1m: boolean; maxContextTokens?: number | undefined };

const ONE_MILLION = 1_000_000;
const BASE_WINDOW = 200_000;
const SUFFIX = /\[1m\]/i;

/**
 * `measured`: the newest assistant turn's `message.model` (never suffixed); `attachment`: the newest model
 * attachment's id (suffixed for a 1M variant), which counts only when it names the same model.
 * Without an attachment a model that could run with `[1m]` stays ambiguous.
 */
export function judgeModelWindow(
  measured: string | undefined,
  attachment: string | undefined,
  knobs: ClientWindowKnobs,
  lookup: ModelLookup,
): ModelWindowFact | undefined {
  const base = measured ?? (attachment === undefined ? undefined : attachment.replace(SUFFIX, ''));
  if (base === undefined) return undefined;
  const entry = lookup(base);
  const attached = attachment !== undefined && sameModel(attachment, base, entry, lookup) ? attachment : undefined;
  if (attached !== undefined && SUFFIX.test(attached) && !knobs.disable1m)
    return { kind: 'known', id: attached, tokens: Math.max(entry?.tokens ?? 0, entry?.largest ?? 0, ONE_MILLION) };
  if (!entry) return { kind: 'unknown', id: base, tokens: knobs.maxContextTokens ?? (knobs.disable1m ? BASE_WINDOW : ONE_MILLION) };
  if (entry.native1m || attached !== undefined || knobs.disable1m) return { kind: 'known', id: entry.id, tokens: entry.tokens };
  return { kind: 'ambiguous', id: entry.id, tokens: entry.tokens, largest: Math.max(entry.largest ?? 0, ONE_MILLION) };
}

/** Whether an attachment's id names the measured model (a stale attachment from before a model switch does not count). */
function sameModel(attachment: string, base: string, entry: ModelTableEntry | undefined, lookup: ModelLookup): boolean {
  const bare = attachment.replace(SUFFIX, '');
  if (entry) return lookup(bare)?.id === entry.id;
  return bare.toLowerCase() === base.toLowerCase();
}

/** Whether a model needs its attachment read to know its window: only one that could also run with `[1m]`. */
export function needsAttachment(measured: string | undefined, knobs: ClientWindowKnobs, lookup: ModelLookup): boolean {
  if (measured === undefined || knobs.disable1m) return measured === undefined;
  const entry = lookup(measured);
  return entry !== undefined && !entry.native1m;
}
