/** Every user- and model-facing sentence the guard can say, in one table. */
import type { MessageId, Verdict, VerdictData } from './ceiling.js';
import type { ResolvedWindow } from './window.js';

/** Where a text goes: the hook's stderr line, the model (additionalContext or a blocked tool's result), the human (systemMessage). */
export type GuardTexts = { stderr: string; model?: string | undefined; user?: string | undefined };

type Render = (d: Facts) => GuardTexts;
type Facts = VerdictData & { pct: string; used: string; size: string; from: string; call: string; fix: string; runSkill: string; theSkill: string; toldTo: string; blockedWay: string };

const MESSAGES: Partial<Record<MessageId, Render>> = {
  'over-ceiling': (d) => ({
    stderr: `context-ceiling: context at ${d.pct} (${d.used} of ${d.size} tokens, window: ${d.from}) is over the ${d.ceilingPct}% ceiling before ${d.call}; ${d.runSkill} before loading more capabilities.`,
    model:
      `Context ceiling warning: context is at ${d.pct} (${d.used} of ${d.size} tokens; window: ${d.from}), over the ${d.ceilingPct}% ceiling. ` +
      `The ${d.call} call proceeds, but load no further agents or skills until you have ${d.theSkill}.`,
    user: `context-ceiling: ${d.pct} of a ${d.size}-token window (${d.from}) is over the ${d.ceilingPct}% ceiling; ${d.toldTo}.${d.fix}`,
  }),
  'over-ceiling-blocked': (d) => ({
    stderr:
      `context-ceiling: blocked ${d.call}: context at ${d.pct} (${d.used} of ${d.size} tokens, window: ${d.from}) is over the ${d.ceilingPct}% ceiling (strict mode). ` +
      d.blockedWay,
  }),
  'window-contradicted': (d) => ({
    stderr: `context-ceiling: measured ${d.used} tokens exceeds the ${d.size}-token window (${d.from}), so that window is wrong and nothing was blocked; set DEV_TEAM_CONTEXT_WINDOW to your model's window (e.g. 1000000).`,
    user: `context-ceiling: measured ${d.used} tokens exceeds the assumed ${d.size}-token window (${d.from}); the ceiling is not enforced until DEV_TEAM_CONTEXT_WINDOW (or a policy "window") is set to your model's window, e.g. 1000000.`,
  }),
};

/** Texts for a verdict that speaks; `undefined` for the silent ones (every allow). */
export function renderVerdict(verdict: Verdict): GuardTexts | undefined {
  const render = MESSAGES[verdict.messageId];
  if (!render) return undefined;
  const d = verdict.data;
  return render({
    ...d,
    pct: d.percent === undefined ? 'an unknown share' : formatPercent(d.percent),
    used: d.occupancy === undefined ? 'unknown' : formatTokens(d.occupancy),
    size: formatTokens(d.window.tokens),
    from: d.window.source,
    call: d.target ? `${d.tool} "${d.target}"` : d.tool,
    ...recoveryWording(d.recoverySkill),
    fix: d.window.source === 'default' ? ' The window is the 200,000 default: set DEV_TEAM_CONTEXT_WINDOW=1000000 on a 1M-context model.' : '',
  });
}

/** How to get back under the ceiling: the installed skill when there is one, else Claude Code's own /compact. */
function recoveryWording(skill: string | undefined): Pick<Facts, 'runSkill' | 'theSkill' | 'toldTo' | 'blockedWay'> {
  if (skill === undefined) {
    return {
      runSkill: 'bring context back under the ceiling (/compact)',
      theSkill: 'brought context back under the ceiling (/compact)',
      toldTo: 'run /compact to bring it back under the ceiling',
      blockedWay: 'Bring context back under the ceiling (/compact), then retry.',
    };
  }
  return {
    runSkill: `run /${skill}`,
    theSkill: `run the /${skill} skill to bring context back under the ceiling`,
    toldTo: `the model was told to run /${skill}`,
    blockedWay: `Run the /${skill} skill to bring context under the ceiling, then retry; recovery skills are never blocked.`,
  };
}

export function describeWindowSource(window: ResolvedWindow): string {
  return window.detail ? `${window.source}, ${window.detail}` : window.source;
}

/** Whole percent, rounded down so "40%" is never shown for 39.99 %; a small non-zero fill is "<1%", not "0%". */
export function formatPercent(percent: number): string {
  return percent > 0 && percent < 1 ? '<1%' : `${Math.floor(percent)}%`;
}

/** 123456 → "123,456" without depending on the runtime's locale data. */
export function formatTokens(tokens: number): string {
  return String(Math.round(tokens)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
