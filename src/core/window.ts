/**
 * Which context window a verdict is judged against, and where that number came from
 * (DESIGN.md, "Resolving the window"). Pure: every fact arrives as data.
 */
import { LARGEST_MODEL_WINDOW } from './model-window.js';
import type { ResolvedPolicy } from './policy.js';

/**
 * `env`/`policy`: stated by the operator; `sdk`/`statusline`: reported by Claude Code for this very
 * session; `model`: the window Claude Code gives the session's model; `learned`: what Claude Code once
 * reported for a model it has no table entry for; `evidence`: the larger window this session proved
 * by holding more than the smaller; `assumed`: nothing better is known (never blocks).
 */
export type WindowSource = 'env' | 'policy' | 'sdk' | 'statusline' | 'model' | 'learned' | 'evidence' | 'assumed';

export const WINDOW_SOURCES: readonly WindowSource[] = ['env', 'policy', 'sdk', 'statusline', 'model', 'learned', 'evidence', 'assumed'];

export type WindowCandidate = {
  tokens: number;
  source: WindowSource;
  /** Human detail: a file path, a model id, the status line report's age. */
  detail?: string | undefined;
  /** For an `assumed` window: why nothing better is known. */
  assumption?: Assumption | undefined;
};

/** Why a window is only assumed: the model has a larger variant, is not in Claude Code's table, or is not known yet. */
export type Assumption = { why: 'variant'; model: string; largest: number } | { why: 'unknown-model'; model: string } | { why: 'no-model' };

export type ResolvedWindow = WindowCandidate & {
  /** Only a verified window may block: an assumed one is a guess. */
  verified: boolean;
  /** A window stated or reported above this one that the session outgrew (it held more): proof it was wrong. */
  disproved?: WindowCandidate | undefined;
};

/** The session's model as far as Claude Code's model table and the transcript tell it (core/model-window.ts). */
export type ModelWindowFact =
  /**
   * The window Claude Code itself uses for the session's model: verified. `largest`: a larger variant an id
   * cannot rule out (`--betas context-1m-…` shows no `[1m]`), which a session proves by holding more.
   */
  | { kind: 'known'; id: string; tokens: number; largest?: number | undefined }
  /** The model has a larger variant the transcript does not rule out (`[1m]`): the smaller is assumed until proven. */
  | { kind: 'ambiguous'; id: string; tokens: number; largest: number }
  /** Not in Claude Code's table: the client's own default for such models, assumed. */
  | { kind: 'unknown'; id: string; tokens: number };

export type StatuslineFact = { tokens: number; ageSeconds: number; modelId?: string | undefined };

/** A window Claude Code's status line once reported for a model id, as reported (suffix included). */
export type LearnedFact = { tokens: number; modelId: string };

export type WindowFacts = {
  /** Stated by the operator: the environment, the user's policy file, a policy file the environment names. */
  stated?: WindowCandidate | undefined;
  /** Claude Code's window for this session, asked through the Agent SDK (`getContextUsage().maxTokens`). */
  sdk?: number | undefined;
  /** What Claude Code's status line last reported for this session, when fresh and for the same model. */
  statusline?: WindowCandidate | undefined;
  model?: ModelWindowFact | undefined;
  /** Stated by a project policy file: below what Claude Code reports and the model's window. */
  projectStated?: WindowCandidate | undefined;
  /** The operator made the guard strict: a project's window may then only tighten (be smaller than the one it would replace). */
  projectTightenOnly?: boolean | undefined;
  learned?: LearnedFact | undefined;
  /** The most tokens this session has been seen to hold: now, before a compaction, or kept from earlier calls. */
  heldTokens: number;
};

/**
 * The largest window any model could have (Claude Code's table, and its 1M default for ids it does not
 * know); a session whose model is not known yet is judged against it, so nothing says "stop loading"
 * below the ceiling of a window the session may well have.
 */
export const LARGEST_KNOWN_WINDOW = LARGEST_MODEL_WINDOW;

/**
 * Candidates in precedence order; the first the session has not outgrown wins. Evidence beats every
 * source: a window the session held more than is disproved, whoever stated or reported it (Claude
 * Code's status line has reported 200,000 for 1M sessions), and is never judged against.
 */
export function resolveWindow(facts: WindowFacts): ResolvedWindow {
  if (facts.projectStated && facts.projectTightenOnly) {
    const without = resolveWindow({ ...facts, projectStated: undefined, projectTightenOnly: undefined });
    const tighter = facts.projectStated.tokens < without.tokens && facts.projectStated.tokens >= facts.heldTokens;
    return tighter ? { ...facts.projectStated, verified: true } : without;
  }
  const held = facts.heldTokens;
  let disproved: WindowCandidate | undefined;
  for (const { candidate, verified } of windowCandidates(facts)) {
    if (candidate.tokens >= held) return { ...candidate, verified, disproved };
    disproved ??= candidate;
  }
  // Every candidate outgrown: judge against what was held, which no verdict may block on.
  return { tokens: Math.max(held, 1), source: 'evidence', verified: false, disproved };
}

function windowCandidates(f: WindowFacts): Array<{ candidate: WindowCandidate; verified: boolean }> {
  const out: Array<{ candidate: WindowCandidate; verified: boolean }> = [];
  const add = (candidate: WindowCandidate | undefined, verified = true) => {
    if (candidate) out.push({ candidate, verified });
  };
  add(f.stated);
  add(f.sdk === undefined ? undefined : { tokens: f.sdk, source: 'sdk' });
  add(f.statusline);
  const model = f.model;
  if (model?.kind === 'known') add({ tokens: model.tokens, source: 'model', detail: model.id });
  add(f.projectStated);
  if (f.learned && model?.kind !== 'known' && model?.kind !== 'ambiguous')
    add({ tokens: f.learned.tokens, source: 'learned', detail: f.learned.modelId });
  // Holding more than the smaller window proves the larger one: the model has no other.
  const largest = model?.kind === 'ambiguous' || model?.kind === 'known' ? model.largest : undefined;
  if (model && largest !== undefined && f.heldTokens > model.tokens) add({ tokens: largest, source: 'evidence', detail: model.id });
  else if (model?.kind === 'ambiguous')
    add({ tokens: model.tokens, source: 'assumed', assumption: { why: 'variant', model: model.id, largest: model.largest } }, false);
  if (model?.kind === 'unknown')
    add({ tokens: model.tokens, source: 'assumed', assumption: { why: 'unknown-model', model: model.id } }, false);
  if (!model) add({ tokens: LARGEST_KNOWN_WINDOW, source: 'assumed', assumption: { why: 'no-model' } }, false);
  return out;
}

/** `3s`, `12 min`, `5 h 20 min`, `3 days`: the age of a record or a resumption section, for messages. */
export function describeAge(seconds: number): string {
  if (seconds < 120) return `${Math.max(0, Math.round(seconds))}s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 120) return `${minutes} min`;
  if (minutes < 48 * 60) return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
  return `${Math.floor(minutes / 1440)} days`;
}

/**
 * The window the configuration states, split by trust: the environment and the user's own files are the
 * operator's (`stated`); a project policy file is the repository's (`projectStated`, ranked below what
 * Claude Code reports and the model's window).
 */
export function statedWindows(
  config: Pick<ResolvedPolicy, 'policy' | 'sources'> & Partial<Pick<ResolvedPolicy, 'strictFromOperator'>>,
): Pick<WindowFacts, 'stated' | 'projectStated' | 'projectTightenOnly'> {
  const source = config.sources.window;
  const tokens = config.policy.window;
  if (tokens === undefined || !source) return {};
  if (source.layer === 'env') return { stated: { tokens, source: 'env', detail: source.detail } };
  if (source.layer === 'project' || source.byProject)
    return { projectStated: { tokens, source: 'policy', detail: source.detail }, projectTightenOnly: config.strictFromOperator === true };
  return { stated: { tokens, source: 'policy', detail: source.detail } };
}

/** A status line report counts for a session while fresh and about the same model (its id may carry `[1m]`). */
export function usableStatusline(
  report: StatuslineFact | undefined,
  maxAgeSeconds: number,
  sameModel: (reportedId: string) => boolean,
): WindowCandidate | undefined {
  if (!report || report.ageSeconds > maxAgeSeconds) return undefined;
  if (report.modelId !== undefined && !sameModel(report.modelId)) return undefined;
  return { tokens: report.tokens, source: 'statusline', detail: `${describeAge(report.ageSeconds)} old` };
}

/** Something the person should hear once per session about the window itself, whatever the verdict. */
export type WindowNotice =
  | { id: 'window-disproved'; disproved: WindowCandidate; held: number; window: ResolvedWindow }
  | { id: 'unknown-model'; model: string; window: ResolvedWindow };

/** A stated or reported window the session outgrew, or a model Claude Code's table does not know. */
export function judgeWindowNotice(window: ResolvedWindow, heldTokens: number): WindowNotice | undefined {
  if (window.disproved) return { id: 'window-disproved', disproved: window.disproved, held: heldTokens, window };
  if (window.assumption?.why === 'unknown-model') return { id: 'unknown-model', model: window.assumption.model, window };
  return undefined;
}
