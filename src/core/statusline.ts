/**
 * Claude Code's status line input (verified against 2.1.328, see
 * CLAUDE-CODE-FACTS.md) and the one line we print for it. The status line is
 * the only place Claude Code reports the session's real context window.
 */
import { formatPercent, formatTokens } from './messages.js';
import { computeUsageTokens } from './occupancy.js';
import type { Tier } from './tiers.js';
import { asRecord as record } from './json-shape.js';

export type StatusInput = {
  sessionId: string;
  transcriptPath: string | undefined;
  modelId: string | undefined;
  version: string | undefined;
  /** context_window.context_window_size: known before the first turn. */
  windowTokens: number | undefined;
  /** Prompt side of context_window.current_usage; null before the first turn. */
  usageTokens: number | undefined;
};

/** The fields we use, or undefined when the input is not a status line input. */
export function parseStatusInput(value: unknown): StatusInput | undefined {
  const input = record(value);
  if (!input || typeof input.session_id !== 'string' || input.session_id.length === 0 || input.session_id.length > 4096) return undefined;
  const window = record(input.context_window) ?? {};
  const size = window.context_window_size;
  return {
    sessionId: input.session_id,
    transcriptPath: typeof input.transcript_path === 'string' ? input.transcript_path : undefined,
    modelId: typeof record(input.model)?.id === 'string' ? (record(input.model)!.id as string) : undefined,
    version: typeof input.version === 'string' ? input.version : undefined,
    windowTokens: typeof size === 'number' && Number.isSafeInteger(size) && size >= 1000 ? size : undefined,
    usageTokens: computeUsageTokens(window.current_usage),
  };
}

const BAR_WIDTH = 10;
/** The SGR colour of each tier, in the status line and report's chart. */
export const TIER_COLOURS: Record<Tier, string> = {
  NOMINAL: '32',
  LOW: '36',
  WARNING: '33',
  CRITICAL: '31',
  EMERGENCY: '1;31',
  UNKNOWN: '2',
};

export type StatusLineFacts = { usage: number | undefined; window: number; percent: number | undefined; tier: Tier; colour: boolean };

/** `ctx 12% ▕█░░░░░░░░░▏ 121,005/1,000,000 NOMINAL` (no ANSI colour when `colour` is false). */
export function renderStatusLine(f: StatusLineFacts): string {
  const paint = (code: string, text: string) => (f.colour ? `\u001b[${code}m${text}\u001b[0m` : text);
  if (f.usage === undefined || f.percent === undefined)
    return `ctx –/${formatTokens(f.window)} ${paint(TIER_COLOURS.UNKNOWN, 'no turn yet')}`;
  const filled = Math.max(0, Math.min(BAR_WIDTH, Math.round((f.percent / 100) * BAR_WIDTH)));
  const bar = `▕${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)}▏`;
  return `ctx ${formatPercent(f.percent)} ${paint(TIER_COLOURS[f.tier], bar)} ${formatTokens(f.usage)}/${formatTokens(f.window)} ${paint(TIER_COLOURS[f.tier], f.tier)}`;
}

/** What the state directory keeps of one session's status line report. */
export type StatuslineRecord = {
  sessionId: string;
  windowTokens: number;
  usageTokens: number | null;
  modelId: string | null;
  version: string | null;
  /** ISO time of the status line update. */
  updatedAt: string;
};
