/** Which context window a verdict is judged against, and where that number came from. */
import { DEFAULT_WINDOW } from './constants.js';

export type WindowSource = 'env' | 'policy' | 'bridge' | 'default';

export type ResolvedWindow = {
  tokens: number;
  source: WindowSource;
  /** Human detail for the source: a file path, a preset name, the bridge's age. */
  detail?: string | undefined;
};

export type WindowFacts = {
  /** The configured `window` and the config layer it came from, if any. */
  configured?: { tokens: number; source: 'env' | 'policy'; detail?: string | undefined } | undefined;
  /** The session's window as Claude Code's status line last reported it, if fresh enough. */
  bridge?: { tokens: number; ageSeconds: number } | undefined;
};

/**
 * Precedence (design: "Resolving the window"): env → policy file → fresh
 * statusline bridge → 200,000. No model-id table: the transcript's model id
 * does not tell a 1M variant from its 200K base (seed 002).
 */
export function resolveWindow(facts: WindowFacts): ResolvedWindow {
  if (facts.configured) return { ...facts.configured };
  if (facts.bridge) return { tokens: facts.bridge.tokens, source: 'bridge', detail: `${facts.bridge.ageSeconds}s old` };
  return { tokens: DEFAULT_WINDOW, source: 'default' };
}

/** Occupancy above the window proves the window wrong; such a window must never block. */
export function isWindowContradicted(occupancyTokens: number, window: ResolvedWindow): boolean {
  return occupancyTokens > window.tokens;
}
