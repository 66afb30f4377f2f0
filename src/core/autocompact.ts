/**
 * Where Claude Code itself will compact (CLAUDE-CODE-FACTS.md: both knobs
 * verified in print mode). Its threshold is a share of the *effective* window:
 * the model's window, or CLAUDE_CODE_AUTO_COMPACT_WINDOW when smaller, less
 * the room it keeps for output (980,000 of a 1,000,000 window was observed).
 */
import { formatTokens } from './guard-text.js';

export const AUTOCOMPACT_PCT_ENV = 'CLAUDE_AUTOCOMPACT_PCT_OVERRIDE';
export const AUTOCOMPACT_WINDOW_ENV = 'CLAUDE_CODE_AUTO_COMPACT_WINDOW';

/** Observed: effectiveWindow=980000 on the 1M model (debug log, 2.1.330). */
export const AUTOCOMPACT_OUTPUT_RESERVE = 20_000;

export type AutocompactPoint = {
  /** Percent of the effective window (lower-only: Claude Code never compacts later than its own default). */
  pct?: number | undefined;
  /** The window Claude Code compacts against, when it is set below the model's. */
  windowTokens?: number | undefined;
};

/** Both knobs as Claude Code would read them; one parser, so `0x20` or `50abc` is never a point. */
export function resolveAutocompact(env: Readonly<Record<string, string | undefined>>): AutocompactPoint | undefined {
  const pct = parseNumber(env[AUTOCOMPACT_PCT_ENV], /^\d+(\.\d+)?$/);
  const windowTokens = parseNumber(env[AUTOCOMPACT_WINDOW_ENV], /^\d+$/);
  const point: AutocompactPoint = {
    pct: pct !== undefined && pct > 0 && pct <= 100 ? pct : undefined,
    windowTokens: windowTokens !== undefined && windowTokens > 0 ? windowTokens : undefined,
  };
  return point.pct === undefined && point.windowTokens === undefined ? undefined : point;
}

/**
 * What Claude Code keeps free below its effective window when no percentage is set: the Agent SDK reported
 * `autoCompactThreshold 967000` on the 1M model (2.1.331), and 2.1.39 sessions on 200,000 compacted at about 167,000.
 */
export const AUTOCOMPACT_BUFFER = 13_000;

/**
 * Tokens at which Claude Code will compact this session: its own default (effective window less its buffer)
 * unless a knob sets a point. Approximate, as every outside number is; used to place tiers and say what is left.
 */
export function compactionPointTokens(point: AutocompactPoint | undefined, windowTokens: number): number {
  if (point?.pct !== undefined) return autocompactTokens(point, windowTokens);
  const effective = Math.min(windowTokens, point?.windowTokens ?? windowTokens) - AUTOCOMPACT_OUTPUT_RESERVE;
  return Math.max(0, effective - AUTOCOMPACT_BUFFER);
}

/** Tokens at which Claude Code compacts under `point` for a model window of `windowTokens` (approximate: it also keeps a summary buffer). */
export function autocompactTokens(point: AutocompactPoint, windowTokens: number): number {
  const effective = Math.max(0, Math.min(windowTokens, point.windowTokens ?? windowTokens) - AUTOCOMPACT_OUTPUT_RESERVE);
  return Math.round(point.pct === undefined ? effective : (effective * point.pct) / 100);
}

/** One sentence for people (status, doctor) and the model (monitor): where Claude Code compacts, relative to what. */
export function describeAutocompact(point: AutocompactPoint, windowTokens: number): string {
  const tokens = formatTokens(autocompactTokens(point, windowTokens));
  const window = point.windowTokens === undefined ? undefined : `a ${formatTokens(point.windowTokens)}-token window`;
  if (point.pct === undefined) return `Claude Code auto-compacts against ${window} (${AUTOCOMPACT_WINDOW_ENV}), at about ${tokens} tokens.`;
  const knobs = window === undefined ? AUTOCOMPACT_PCT_ENV : `${AUTOCOMPACT_PCT_ENV}, ${AUTOCOMPACT_WINDOW_ENV}`;
  return `Claude Code auto-compacts at ${point.pct}% of ${window ?? 'the effective window'} (${knobs}), about ${tokens} tokens.`;
}

function parseNumber(raw: string | undefined, shape: RegExp): number | undefined {
  if (raw === undefined || !shape.test(raw.trim())) return undefined;
  const value = Number(raw.trim());
  return Number.isFinite(value) ? value : undefined;
}
