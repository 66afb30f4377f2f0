/** Every user- and model-facing sentence the guard can say, in one table. */
import type { MessageId, Verdict, VerdictData } from './ceiling.js';
import { ENV } from './constants.js';
import { sanitizeText } from './sanitize.js';
import type { ResolvedWindow } from './window.js';

/** Where a text goes: the hook's stderr line, the model (additionalContext or a blocked tool's result), the human (systemMessage). */
export type GuardTexts = { stderr: string; model?: string | undefined; user?: string | undefined };

type Render = (d: Facts) => GuardTexts;
type Facts = VerdictData & { pct: string; used: string; size: string; from: string; call: string; way: string; held: string };

/** The one line that states the window, named wherever the window is only assumed or proven wrong. */
export const STATE_THE_WINDOW = `${ENV.window}=1000000 (your model's window in tokens)`;

const MESSAGES: Partial<Record<MessageId, Render>> = {
  'over-ceiling': (d) => ({
    stderr: `context-ceiling: context at ${d.pct} (${d.used} of ${d.size} tokens, window: ${d.from}) is over the ${d.ceilingPct}% ceiling before ${d.call}; ${d.way} before loading more capabilities.`,
    model:
      `Context ceiling warning: context is at ${d.pct} (${d.used} of ${d.size} tokens; window: ${d.from}), over the ${d.ceilingPct}% ceiling. ` +
      `The ${d.call} call proceeds, but load no further agents or skills until you have brought context back under the ceiling: ${d.way}.`,
    user: `context-ceiling: ${d.pct} of a ${d.size}-token window (${d.from}) is over the ${d.ceilingPct}% ceiling; the model was told to ${d.way}.`,
  }),
  'over-ceiling-blocked': (d) => ({
    stderr:
      `context-ceiling: blocked ${d.call}: context at ${d.pct} (${d.used} of ${d.size} tokens, window: ${d.from}) is over the ${d.ceilingPct}% ceiling (strict mode). ` +
      `To bring context under the ceiling, ${d.way}, then retry; recovery skills are never blocked.`,
  }),
  'over-ceiling-assumed-window': (d) => ({
    stderr:
      `context-ceiling: context at ${d.pct} (${d.used} of an assumed ${d.size}-token window) is over the ${d.ceilingPct}% ceiling before ${d.call}; ${d.way} before loading more capabilities. ` +
      `The window is assumed, so this only warns${d.strict ? ', even in strict mode' : ''}; state it: ${STATE_THE_WINDOW}.`,
    model:
      `Context ceiling warning: context is at ${d.pct} (${d.used} tokens) of an assumed ${d.size}-token window, over the ${d.ceilingPct}% ceiling; the real window may be larger. ` +
      `The ${d.call} call proceeds, but load no further agents or skills until you have brought context back under the ceiling: ${d.way}.`,
    user:
      `context-ceiling: ${d.pct} of an assumed ${d.size}-token window is over the ${d.ceilingPct}% ceiling; the model was told to ${d.way}. ` +
      `The window is assumed, so this only warns${d.strict ? ', even in strict mode' : ''}; state it: ${STATE_THE_WINDOW}.`,
  }),
  'window-contradicted': (d) => ({
    stderr: `context-ceiling: this session ${d.held}, more than the ${d.size}-token window (${d.from}), ${WINDOW_PROVEN_WRONG} and nothing was blocked; state the window: ${STATE_THE_WINDOW}.`,
    user: `context-ceiling: this session ${d.held}, more than the ${d.size}-token window (${d.from}); the ceiling is not enforced until the window is stated: ${STATE_THE_WINDOW} (or a policy "window").`,
  }),
};

/** Texts for a verdict that speaks; `undefined` for the silent ones (every allow). */
export function renderVerdict(verdict: Verdict): GuardTexts | undefined {
  const render = MESSAGES[verdict.messageId];
  if (!render) return undefined;
  const d = verdict.data;
  const held = Math.max(d.occupancy ?? 0, d.evidenceTokens ?? 0);
  // The skill name comes from the project's policy and the target from the model's tool input: text from outside.
  const recoverySkill = d.recoverySkill === undefined ? undefined : sanitizeText(d.recoverySkill).slice(0, 80) || undefined;
  return render({
    ...d,
    recoverySkill,
    pct: d.percent === undefined ? 'an unknown share' : formatPercent(d.percent),
    used: d.occupancy === undefined ? 'unknown' : formatTokens(d.occupancy),
    size: formatTokens(d.window.tokens),
    from: d.window.source,
    call: d.target ? `${sanitizeText(d.tool).slice(0, 80)} "${sanitizeText(d.target).slice(0, 120)}"` : sanitizeText(d.tool).slice(0, 80),
    way: describeWayOut(recoverySkill),
    held:
      d.evidenceTokens !== undefined && d.evidenceTokens > (d.occupancy ?? 0)
        ? `has held ${formatTokens(held)} tokens (before a compaction)`
        : `holds ${formatTokens(held)} tokens`,
  });
}

/** The way back under the ceiling: the installed recovery skill by its invoked name, else a compaction. */
export function describeWayOut(recoverySkill: string | undefined): string {
  return recoverySkill ? `run the /${recoverySkill} skill` : 'have the conversation compacted (/compact)';
}

/**
 * Where a window came from, for people: for `env`, the config layer that stated
 * it (describeSource, passed in: policy.ts stays out of the guard's bundle), else the source and its detail.
 */
export function describeWindowSource(window: ResolvedWindow, configuredFrom?: string | undefined): string {
  if (window.source === 'env' && configuredFrom) return configuredFrom;
  return window.detail ? `${window.source}: ${window.detail}` : window.source;
}

/** How to state the window, as advice wherever the window is only assumed. */
export const STATE_THE_WINDOW_ADVICE = `state it: ${STATE_THE_WINDOW}, or a policy "window"`;

/** What to do about an assumed window, wherever one is shown. */
export const ASSUMED_WINDOW_ADVICE = `assumed; ${STATE_THE_WINDOW_ADVICE}`;

/** Why a window that a session outgrew is not enforced, wherever that is shown. */
export const WINDOW_PROVEN_WRONG = 'so that window is wrong';

/** Whole percent, rounded down so "40%" is never shown for 39.99 %; a small non-zero fill is "<1%", not "0%". */
export function formatPercent(percent: number): string {
  return percent > 0 && percent < 1 ? '<1%' : `${Math.floor(percent)}%`;
}

/** 123456 → "123,456" without depending on the runtime's locale data. */
export function formatTokens(tokens: number): string {
  return String(Math.round(tokens)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
