/** Every user- and model-facing sentence the guard can say, in one table. */
import type { MessageId, Verdict, VerdictData } from './ceiling.js';
import type { StuckAfterCompaction } from './compaction-notice.js';
import { ENV } from './env-names.js';
import { sanitizeText } from './sanitize.js';
import type { RepositoryPath } from './settings-env.js';
import { judgeWindowNotice, type ResolvedWindow, type WindowCandidate, type WindowNotice } from './window.js';

/**
 * Where a text goes: `stderr` (the hook's log line; Claude Code shows it only in verbose views),
 * `model` (additionalContext for a warning, permissionDecisionReason for a block: the model reads it),
 * `user` (systemMessage: the person's notice, which the model never sees).
 */
export type GuardTexts = { stderr: string; model?: string | undefined; user?: string | undefined };

/**
 * How the wording names things that are not in the verdict: the recovery skill as it is invoked in this install;
 * `stuck` when the session's newest compaction already left the context over the ceiling (judgeStuckAfterCompaction).
 */
export type WordingFacts = { recoverySkill?: string | undefined; stuck?: StuckAfterCompaction | undefined };

type Render = (d: Facts) => GuardTexts;
type Facts = VerdictData & { pct: string; used: string; size: string; from: string; call: string; way: string; assumed: string };

/** The one line that states the window, named wherever the window is only assumed or proven wrong. */
export const STATE_THE_WINDOW = `${ENV.window}=1000000 (your model's window in tokens)`;

/** The verdicts that have words: every other one is silent (every allow). */
const SPOKEN = ['over-ceiling', 'over-ceiling-blocked', 'over-ceiling-assumed-window'] as const satisfies readonly MessageId[];

/** Whether renderVerdict words `verdict` (apart from the texts, so the guard's bundle can ask without holding them). */
export function verdictSpeaks(verdict: Verdict): boolean {
  return (SPOKEN as readonly MessageId[]).includes(verdict.messageId) && verdict.data.window !== undefined;
}

const MESSAGES: Record<(typeof SPOKEN)[number], Render> = {
  'over-ceiling': (d) => ({
    stderr: `context-ceiling: context at ${d.pct} (${d.used} of ${d.size} tokens, window: ${d.from}) is over the ${d.ceilingPct}% ceiling before ${d.call}; ${d.way} before loading more capabilities.`,
    model:
      `Context ceiling warning: context is at ${d.pct} (${d.used} of ${d.size} tokens; window: ${d.from}), over the ${d.ceilingPct}% ceiling. ` +
      `The ${d.call} call proceeds, but load no further agents, skills or workflows until you have brought context back under the ceiling: ${d.way}.`,
    user: `context-ceiling: ${d.pct} of a ${d.size}-token window (${d.from}) is over the ${d.ceilingPct}% ceiling; the model was told to ${d.way}.`,
  }),
  'over-ceiling-blocked': (d) => ({
    stderr: `context-ceiling: blocked ${d.call}: context at ${d.pct} (${d.used} of ${d.size} tokens, window: ${d.from}) is over the ${d.ceilingPct}% ceiling (strict mode).`,
    model:
      `Blocked by the context ceiling (strict mode), not an error in the ${d.tool} tool: context is at ${d.pct} (${d.used} of ${d.size} tokens; window: ${d.from}), over the ${d.ceilingPct}% ceiling, so ${d.call} was not loaded. ` +
      `To bring context back under the ceiling, ${d.way}, then retry; recovery skills are never blocked.`,
    user: `context-ceiling: blocked ${d.call} at ${d.pct} of a ${d.size}-token window (${d.from}), over the ${d.ceilingPct}% ceiling (strict mode); the model was told to ${d.way}.`,
  }),
  'over-ceiling-assumed-window': (d) => ({
    stderr:
      `context-ceiling: context at ${d.pct} (${d.used} of an assumed ${d.size}-token window${d.assumed}) is over the ${d.ceilingPct}% ceiling before ${d.call}; ${d.way} before loading more capabilities. ` +
      `The window is assumed, so this only warns${d.strict ? ', even in strict mode' : ''}; state it: ${STATE_THE_WINDOW}.`,
    model:
      `Context ceiling warning: context is at ${d.pct} (${d.used} tokens) of an assumed ${d.size}-token window, over the ${d.ceilingPct}% ceiling; the real window may be larger. ` +
      `The ${d.call} call proceeds, but load no further agents, skills or workflows until you have brought context back under the ceiling: ${d.way}.`,
    user:
      `context-ceiling: ${d.pct} of an assumed ${d.size}-token window${d.assumed} is over the ${d.ceilingPct}% ceiling; the model was told to ${d.way}. ` +
      `The window is assumed, so this only warns${d.strict ? ', even in strict mode' : ''}; state it: ${STATE_THE_WINDOW}.`,
  }),
};

/** Texts for a verdict that speaks; `undefined` for the silent ones (every allow). */
export function renderVerdict(verdict: Verdict, wording: WordingFacts = {}): GuardTexts | undefined {
  const render = MESSAGES[verdict.messageId as (typeof SPOKEN)[number]] as Render | undefined;
  const d = verdict.data;
  if (!render || !d.window) return undefined;
  // The skill name comes from the project's policy and the target from the model's tool input: text from outside.
  const recoverySkill = wording.recoverySkill === undefined ? undefined : sanitizeText(wording.recoverySkill).slice(0, 80) || undefined;
  return render({
    ...d,
    pct: d.percent === undefined ? 'an unknown share' : formatPercent(d.percent),
    used: d.occupancy === undefined ? 'unknown' : formatTokens(d.occupancy),
    size: formatTokens(d.window.tokens),
    from: describeWindowSource(d.window),
    call: d.target ? `${sanitizeText(d.tool).slice(0, 80)} "${sanitizeText(d.target).slice(0, 120)}"` : sanitizeText(d.tool).slice(0, 80),
    way: wording.stuck
      ? `${describeWayDown(recoverySkill)}, since ${describeStuck(wording.stuck.postTokens, d.ceilingPct)}`
      : describeWayOut(recoverySkill),
    assumed: describeAssumption(d.window),
  });
}

/**
 * Something the person should hear once per session, whatever the verdict: about the window, a policy the
 * repository could not apply, or a path variable a project's settings file set (`paths-ignored`: `NAME from FILE`).
 */
export type Notice =
  | WindowNotice
  | { id: 'project-relaxed'; lines: string[] }
  | { id: 'policy-ignored'; lines: string[] }
  | { id: 'paths-ignored'; lines: string[] };

/**
 * The notices that apply now (each is then said once per session). `policyProblems`: policy files left out
 * because they do not validate (an unknown key, a typo): without a word, a typo in a strict policy would
 * turn strict mode off silently. `repositoryPaths`: path variables a project's settings `env` set, which the
 * hook left out of its environment (core/settings-env.ts, withoutRepositoryPaths).
 */
export function judgeNotices(
  window: ResolvedWindow | undefined,
  heldTokens: number,
  relaxed: readonly string[],
  policyProblems: readonly string[] = [],
  repositoryPaths: readonly RepositoryPath[] = [],
): Notice[] {
  const windowNotice = window ? judgeWindowNotice(window, heldTokens) : undefined;
  return [
    ...(windowNotice ? [windowNotice] : []),
    ...(relaxed.length > 0 ? [{ id: 'project-relaxed' as const, lines: [...relaxed] }] : []),
    ...(policyProblems.length > 0 ? [{ id: 'policy-ignored' as const, lines: [...policyProblems] }] : []),
    ...(repositoryPaths.length > 0
      ? [{ id: 'paths-ignored' as const, lines: repositoryPaths.map((p) => `${p.name} from ${p.label}`) }]
      : []),
  ];
}

/**
 * The name under which a session remembers it heard `notice`: a policy problem or an ignored path variable
 * by its text too, so a different problem (or another variable, or another file) is said again.
 */
export function noticeKey(notice: Notice): string {
  if (notice.id !== 'policy-ignored' && notice.id !== 'paths-ignored') return notice.id;
  let hash = 0x811c9dc5; // FNV-1a, 32 bits: a name, not a secret
  for (const char of notice.lines.join('\n')) {
    hash ^= char.codePointAt(0)!;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `${notice.id}-${hash.toString(16).padStart(8, '0')}`;
}

/** The person's one-time notice, for systemMessage and stderr. */
export function renderNotice(notice: Notice): string {
  if (notice.id === 'policy-ignored')
    return `context-ceiling: a policy file was ignored, so its settings (strict mode included) are not in force: ${notice.lines
      .map((line) => sanitizeText(line).slice(0, 300))
      .slice(0, 5)
      .join('; ')}. Fix it (context-ceiling config validate shows every problem).`;
  if (notice.id === 'paths-ignored')
    return `context-ceiling: ignored ${notice.lines
      .map((line) => sanitizeText(line).slice(0, 120))
      .join(', ')}: a project's settings may not name a path for context-ceiling; set it in your environment or ~/.claude/settings.json.`;
  if (notice.id === 'project-relaxed')
    return `context-ceiling: strict mode was set by you, so the project's policy could only tighten it; ignored: ${notice.lines
      .map((line) => sanitizeText(line).slice(0, 300))
      .join('; ')}.`;
  return renderWindowNotice(notice);
}

/** The person's one-time notice about the window (judgeWindowNotice), for systemMessage and stderr. */
export function renderWindowNotice(notice: WindowNotice): string {
  const size = formatTokens(notice.window.tokens);
  if (notice.id === 'unknown-model')
    return (
      `context-ceiling: ${sanitizeText(notice.model).slice(0, 120)} is not in Claude Code's model table, so its window is assumed to be ${size} tokens ` +
      `(Claude Code's own default for such models) and the ceiling only warns; ${STATE_THE_WINDOW_ADVICE}.`
    );
  const wrong = notice.disproved;
  return (
    `context-ceiling: this session has held ${formatTokens(notice.held)} tokens, more than the ${formatTokens(wrong.tokens)}-token window ` +
    `(${describeWindowSource(wrong)}), ${WINDOW_PROVEN_WRONG}; the ceiling is judged against ${size} tokens (${describeWindowSource(notice.window)}) instead` +
    `${notice.window.verified ? '' : ' and only warns'}. Correct it: ${STATE_THE_WINDOW}.`
  );
}

/** Why a warning may repeat: its dedup state cannot be kept (a refused state directory never silences the guard). */
export function renderUnremembered(stateDir: string): string {
  return `context-ceiling: the state directory ${sanitizeText(stateDir).slice(0, 300)} cannot be used (not a private directory of yours), so warnings are not remembered and repeat on every call.`;
}

/**
 * Said once to the person when the project's checkpoint folder holds checkpoints this user's sessions did not
 * write on this machine (a repository's, or ours from before the records): named as found, never resumed. Only
 * a count and our own folder's path: nothing of the files reaches the person or the model.
 */
export function renderFoundNotOurs(found: { count: number; more: boolean; folder: string }): string {
  const count = `${found.count}${found.more ? ' or more' : ''}`;
  return `context-ceiling: ${count} checkpoint file${found.count === 1 && !found.more ? '' : 's'} in ${sanitizeText(found.folder).slice(0, 300)} ${found.count === 1 && !found.more ? 'was' : 'were'} not written by your sessions on this machine; not resumed. \`context-ceiling checkpoints list\` shows them.`;
}

/** Said once to the person when the project's checkpoint folder cannot be used and checkpoints go to the private state. */
export function renderCheckpointFallback(privateDir: string, reason: string): string {
  return `context-ceiling: this project's checkpoint folder cannot be used (${sanitizeText(reason).slice(0, 300)}), so its checkpoints are kept in ${sanitizeText(privateDir).slice(0, 300)} instead.`;
}

/** The way back under the ceiling: the installed recovery skill by its invoked name, else a compaction. */
export function describeWayOut(recoverySkill: string | undefined): string {
  return recoverySkill ? `run the /${recoverySkill} skill` : 'have the conversation compacted (/compact)';
}

/**
 * The way down when the session's newest compaction already left the context over the ceiling
 * (core/compaction-notice.ts judgeStuckAfterCompaction): another /compact, or the recovery skill's own next step,
 * /compact, is the step just taken. A checkpoint, then /clear: SessionStart `clear` resumes from the newest one.
 */
export function describeWayDown(recoverySkill: string | undefined): string {
  return recoverySkill
    ? `save a checkpoint with /${recoverySkill}, then ask the person to run /clear (the new session resumes from it)`
    : "ask the person to run /clear (the new session resumes from the compaction's checkpoint)";
}

/** Why /compact is not the way down (judgeStuckAfterCompaction): the numbers of the compaction that left the context over. */
export function describeStuck(postTokens: number, ceilingPct: number): string {
  return `a compaction already left ${formatTokens(postTokens)} tokens, over the ${ceilingPct}% ceiling, so /compact again will not bring it under`;
}

/**
 * Where a window came from, for people: the source, and for a model, a learned record or a proof the
 * model it is about; for `env` the config layer that stated it when known (describeSource, passed in:
 * policy.ts stays out of the guard's bundle).
 */
export function describeWindowSource(window: WindowCandidate, configuredFrom?: string | undefined): string {
  if (window.source === 'env' && configuredFrom) return configuredFrom;
  const detail = window.detail === undefined ? undefined : sanitizeText(window.detail).slice(0, 160);
  switch (window.source) {
    case 'model':
      return detail ? `model ${detail}` : 'model';
    case 'learned':
      return detail ? `learned for ${detail}` : 'learned';
    case 'evidence':
      return detail ? `${detail} with [1m], proven by what this session held` : 'what this session held';
    case 'statusline':
      return detail ? `status line, ${detail}` : 'status line';
    default:
      return detail ? `${window.source}: ${detail}` : window.source;
  }
}

/** Why a window is only assumed, as a parenthesis after its size (empty for a window that is not assumed). */
export function describeAssumption(window: ResolvedWindow): string {
  const a = window.assumption;
  if (!a) return '';
  if (a.why === 'variant')
    return ` (${sanitizeText(a.model).slice(0, 120)}; with [1m] it has ${formatTokens(a.largest)}, and nothing here says which)`;
  if (a.why === 'unknown-model') return ` (${sanitizeText(a.model).slice(0, 120)} is not in Claude Code's model table)`;
  return ' (no model reported yet)';
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

/** A size as people read it: `401.1 MiB`, `64.0 KiB`, `12 B`. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${Math.round(bytes)} B`;
}

/**
 * 123456 → "123,456" without depending on the runtime's locale data. Spelt out for whole numbers: the monitor formats
 * a dozen on every prompt, and a regular expression used twice is compiled twice, the second time to machine code
 * (~0.1 M instructions, measured). Anything else String() can give (1e+21, Infinity, NaN) takes the pattern.
 */
export function formatTokens(tokens: number): string {
  const text = String(Math.round(tokens));
  const digits = text.startsWith('-') ? text.slice(1) : text;
  if (digits.length === 0 || ![...digits].every((c) => c >= '0' && c <= '9')) return text.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  let grouped = '';
  for (let at = 0; at < digits.length; at++) grouped += at > 0 && (digits.length - at) % 3 === 0 ? `,${digits[at]}` : digits[at];
  return digits === text ? grouped : `-${grouped}`;
}
