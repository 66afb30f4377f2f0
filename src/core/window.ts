/** Which context window a verdict is judged against, and where that number came from. */
import { DEFAULT_WINDOW } from './constants.js';
import type { ResolvedPolicy } from './policy.js';

/**
 * `default` is a guess; every other source is a verified window: stated by the
 * user (`env`, `policy`) or reported by Claude Code itself (`bridge`, `learned`, `sdk`).
 */
export type WindowSource = 'env' | 'policy' | 'sdk' | 'bridge' | 'learned' | 'default';

export type ResolvedWindow = {
  tokens: number;
  source: WindowSource;
  /** Human detail for the source: a file path, a preset name, the bridge's age, the learned model. */
  detail?: string | undefined;
};

export type BridgeFact = { tokens: number; ageSeconds: number; modelId?: string | undefined };

/** A window Claude Code's status line once reported for a model, remembered across sessions. */
export type LearnedFact = { tokens: number; modelId: string };

export type WindowFacts = {
  /** The configured `window` and the config layer it came from, if any. */
  configured?: { tokens: number; source: 'env' | 'policy'; detail?: string | undefined } | undefined;
  /** The window Claude Code told the Agent SDK (`query.getContextUsage()`), for this very session. */
  sdk?: number | undefined;
  /** The session's window as Claude Code's status line last reported it. */
  bridge?: BridgeFact | undefined;
  /** How old a bridge record may be and still count. */
  bridgeMaxAgeSeconds?: number | undefined;
  /** The window the status line last reported for the measured model, in any session. */
  learned?: LearnedFact | undefined;
  /** The model of the measured turn: a bridge or learned window for another model does not count. */
  measuredModel?: string | undefined;
};

/**
 * Precedence (design: "Resolving the window"): env → policy file → the SDK's
 * own answer → fresh statusline bridge for the same model → a window learned
 * for the measured model → 200,000. No model-id table: the transcript's model
 * id does not tell a 1M variant from its 200K base (seed 002), so a window is
 * only ever learned from what Claude Code itself reported.
 */
export function resolveWindow(facts: WindowFacts): ResolvedWindow {
  if (facts.configured) return { ...facts.configured };
  if (facts.sdk !== undefined) return { tokens: facts.sdk, source: 'sdk' };
  if (isBridgeUsable(facts))
    return { tokens: facts.bridge!.tokens, source: 'bridge', detail: `${describeAge(facts.bridge!.ageSeconds)} old` };
  if (facts.learned && facts.measuredModel !== undefined && facts.learned.modelId === facts.measuredModel) {
    return { tokens: facts.learned.tokens, source: 'learned', detail: facts.learned.modelId };
  }
  return { tokens: DEFAULT_WINDOW, source: 'default' };
}

function isBridgeUsable({ bridge, bridgeMaxAgeSeconds, measuredModel }: WindowFacts): boolean {
  if (!bridge) return false;
  if (bridgeMaxAgeSeconds !== undefined && bridge.ageSeconds > bridgeMaxAgeSeconds) return false;
  return measuredModel === undefined || bridge.modelId === undefined || measuredModel === bridge.modelId;
}

/** Only a verified window blocks: `default` is an assumption (the current default model has 1,000,000). */
export function isVerifiedWindow(window: ResolvedWindow): boolean {
  return window.source !== 'default';
}

/**
 * Occupancy above the window proves the window wrong; such a window must never
 * block. `evidenceTokens` is the most this session has been seen to hold
 * (before a compaction hid it), so the proof outlives the compaction.
 */
export function isWindowContradicted(occupancyTokens: number, window: ResolvedWindow, evidenceTokens = 0): boolean {
  return Math.max(occupancyTokens, evidenceTokens) > window.tokens;
}

/** `3s`, `12 min`, `5 h 20 min`, `3 days`: the age of a record or a resumption section, for messages. */
export function describeAge(seconds: number): string {
  if (seconds < 120) return `${Math.max(0, Math.round(seconds))}s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 120) return `${minutes} min`;
  if (minutes < 48 * 60) return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
  return `${Math.floor(minutes / 1440)} days`;
}

/** The window the configuration states (env → policy), else the default; the status line bridge joins in sessionWindow. */
export function windowFromConfig(config: Pick<ResolvedPolicy, 'policy' | 'sources'>): ResolvedWindow {
  const source = config.sources.window;
  const configured =
    config.policy.window !== undefined && source
      ? {
          tokens: config.policy.window,
          source: source.layer === 'env' ? ('env' as const) : ('policy' as const),
          detail: source.layer === 'env' ? undefined : source.detail,
        }
      : undefined;
  return resolveWindow({ configured });
}
