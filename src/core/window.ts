/** Which context window a verdict is judged against, and where that number came from. */
import { DEFAULT_WINDOW } from './constants.js';

export type WindowSource = 'env' | 'policy' | 'bridge' | 'default';

export type ResolvedWindow = {
  tokens: number;
  source: WindowSource;
  /** Human detail for the source: a file path, a preset name, the bridge's age. */
  detail?: string | undefined;
};

export type BridgeFact = { tokens: number; ageSeconds: number; modelId?: string | undefined };

export type WindowFacts = {
  /** The configured `window` and the config layer it came from, if any. */
  configured?: { tokens: number; source: 'env' | 'policy'; detail?: string | undefined } | undefined;
  /** The session's window as Claude Code's status line last reported it. */
  bridge?: BridgeFact | undefined;
  /** How old a bridge record may be and still count. */
  bridgeMaxAgeSeconds?: number | undefined;
  /** The model of the measured turn: a bridge recorded for another model (a subagent's, or before /model) does not count. */
  measuredModel?: string | undefined;
};

/**
 * Precedence (design: "Resolving the window"): env → policy file → fresh
 * statusline bridge for the same model → 200,000. No model-id table: the
 * transcript's model id does not tell a 1M variant from its 200K base (seed 002).
 */
export function resolveWindow(facts: WindowFacts): ResolvedWindow {
  if (facts.configured) return { ...facts.configured };
  if (isBridgeUsable(facts)) return { tokens: facts.bridge!.tokens, source: 'bridge', detail: `${describeAge(facts.bridge!.ageSeconds)} old` };
  return { tokens: DEFAULT_WINDOW, source: 'default' };
}

function isBridgeUsable({ bridge, bridgeMaxAgeSeconds, measuredModel }: WindowFacts): boolean {
  if (!bridge) return false;
  if (bridgeMaxAgeSeconds !== undefined && bridge.ageSeconds > bridgeMaxAgeSeconds) return false;
  return measuredModel === undefined || bridge.modelId === undefined || measuredModel === bridge.modelId;
}

/** Occupancy above the window proves the window wrong; such a window must never block. */
export function isWindowContradicted(occupancyTokens: number, window: ResolvedWindow): boolean {
  return occupancyTokens > window.tokens;
}

function describeAge(seconds: number): string {
  if (seconds < 120) return `${Math.max(0, Math.round(seconds))}s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds / 3600)} h`;
}
