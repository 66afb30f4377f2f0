/**
 * Claude Code's status line input (verified against 2.1.328, see
 * CLAUDE-CODE-FACTS.md) and the one line we print for it. The status line is
 * the only place Claude Code reports the session's real context window.
 */
import { formatBytes, formatPercent, formatTokens } from './guard-text.js';
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
  // 2.1.328 sent an all-zero current_usage right after /compact (2.1.331 sends null): no prompt is 0 tokens, so neither is a reading.
  const usage = computeUsageTokens(window.current_usage);
  return {
    sessionId: input.session_id,
    transcriptPath: typeof input.transcript_path === 'string' ? input.transcript_path : undefined,
    modelId: typeof record(input.model)?.id === 'string' ? (record(input.model)!.id as string) : undefined,
    version: typeof input.version === 'string' ? input.version : undefined,
    windowTokens: typeof size === 'number' && Number.isSafeInteger(size) && size >= 1000 ? size : undefined,
    usageTokens: usage === 0 ? undefined : usage,
  };
}

const BAR_WIDTH = 10;
/** The SGR colour of each tier in the report's chart: nothing above the ceiling is drawn in a calm colour. */
export const TIER_COLOURS: Record<Tier, string> = {
  NOMINAL: '32',
  OVER_CEILING: '31',
  WARNING: '1;31',
  CRITICAL: '1;35',
  EMERGENCY: '1;97;41',
  UNKNOWN: '2',
};

/**
 * How close the session is to what matters, for the status line's colour: clear (more than NEAR_CEILING_POINTS
 * under the ceiling), near (within them), over (the ceiling passed), compacting (within NEAR_COMPACTION_POINTS
 * of Claude Code's own compaction point, or past it), beyond-window (the window is wrong), unknown.
 */
export type StatusZone = 'clear' | 'near' | 'over' | 'compacting' | 'beyond-window' | 'unknown';

/** Points under the ceiling where the line turns from green to yellow. */
export const NEAR_CEILING_POINTS = 10;
/** Points under Claude Code's compaction point where the line says compaction is close. */
export const NEAR_COMPACTION_POINTS = 5;

export const ZONE_COLOURS: Record<StatusZone, string> = {
  clear: '32',
  near: '33',
  over: '31',
  compacting: '1;97;41',
  'beyond-window': '35',
  unknown: '2',
};

/**
 * compacted: the session compacted and Claude Code recorded no size for the result (nothing to show until the next
 * turn); scan-cap: no usage within the last `within` bytes of the transcript, the most it is read (maxScanBytes), so
 * turns may lie further back; unreadable: the transcript is there but cannot be read (no permission, not a regular file).
 */
export type NoReading = { why: 'compacted' } | { why: 'scan-cap'; within: number } | { why: 'unreadable' };

export type StatusLineFacts = {
  /** Prompt-side tokens now; undefined when nothing has reported since the start or a compaction. */
  usage: number | undefined;
  /** Whose number `usage` is: Claude Code's current_usage, or the size Claude Code gave the compacted context (compact_boundary). */
  from?: 'claude-code' | 'compaction' | undefined;
  /** Why there is no reading, when the transcript says more than that there is no turn yet. */
  noReading?: NoReading | undefined;
  window: number;
  ceilingPct: number;
  /** Tokens at which Claude Code will compact (compactionPointTokens). */
  compactAt: number | undefined;
  colour: boolean;
  /** Width to fit (COLUMNS): segments are dropped, least useful first, until the line fits. */
  columns?: number | undefined;
};

export function statusZone(f: Pick<StatusLineFacts, 'usage' | 'window' | 'ceilingPct' | 'compactAt'>): StatusZone {
  if (f.usage === undefined) return 'unknown';
  if (f.usage > f.window) return 'beyond-window';
  const percent = (f.usage / f.window) * 100;
  if (f.compactAt !== undefined && percent >= (f.compactAt / f.window) * 100 - NEAR_COMPACTION_POINTS) return 'compacting';
  if (percent >= f.ceilingPct) return 'over';
  return percent >= f.ceilingPct - NEAR_CEILING_POINTS ? 'near' : 'clear';
}

/** What the status bar shows when the status line failed unexpectedly (the error is in the last-error record). */
export const STATUSLINE_FAILED = 'ctx – context-ceiling failed (context-ceiling doctor)';

/** Why the line shows no reading, in full and short: only what the transcript really says. */
function unmeasuredWords(f: StatusLineFacts): [string, string] {
  switch (f.noReading?.why) {
    case 'compacted':
      return ['compacted, no turn since', 'compacted, no turn since'];
    case 'scan-cap':
      return [`not measured: no turn in the last ${formatBytes(f.noReading.within)}`, 'not measured'];
    case 'unreadable':
      return ['not measured: transcript unreadable', 'not measured'];
    default:
      return ['no turn yet', 'no turn yet'];
  }
}

/**
 * `ctx 12% ▕█░░░│░░░░░░▏ 121,005/1,000,000 · 278,995 to the 40% ceiling`: the bar marks the ceiling (│),
 * the colour says how close the ceiling and Claude Code's compaction are, and the tail says what is left.
 * No ANSI colour when `colour` is false; shorter forms when `columns` is too narrow for the full one.
 */
export function renderStatusLine(f: StatusLineFacts): string {
  const zone = statusZone(f);
  const paint = (text: string) => (f.colour ? `\u001b[${ZONE_COLOURS[zone]}m${text}\u001b[0m` : text);
  const ceiling = `${f.ceilingPct}%`;
  const forms: string[][] = [];
  if (f.usage === undefined) {
    const [what, short] = unmeasuredWords(f);
    forms.push([`ctx –/${formatTokens(f.window)} ${paint(what)} · ceiling ${ceiling}`], [`ctx – ${paint(short)}`]);
  } else if (zone === 'beyond-window') {
    forms.push(
      [`ctx ${formatTokens(f.usage)}/${formatTokens(f.window)} ${paint('over the window: state the real one')}`],
      [`ctx ${formatTokens(f.usage)} ${paint('over the window')}`],
    );
  } else {
    const percent = (f.usage / f.window) * 100;
    const head = `ctx ${formatPercent(percent)}`;
    const bar = paint(renderBar(percent, f.ceilingPct));
    const numbers = `${formatTokens(f.usage)}/${formatTokens(f.window)}`;
    const compacted = f.from === 'compaction' ? ' · since compaction' : '';
    const toCompaction = f.compactAt === undefined ? undefined : f.compactAt - f.usage;
    const compaction =
      toCompaction === undefined ? undefined : toCompaction > 0 ? `${formatTokens(toCompaction)} to compaction` : 'compaction due';
    const state =
      percent >= f.ceilingPct
        ? paint(`over the ${ceiling} ceiling`)
        : paint(`${formatTokens(Math.ceil((f.ceilingPct / 100) * f.window) - f.usage)} to the ${ceiling} ceiling`);
    const short = percent >= f.ceilingPct ? paint(`over ${ceiling}`) : paint(`ceiling ${ceiling}`);
    const over = zone === 'over' || zone === 'compacting';
    if (over && compaction) forms.push([head, bar, `${numbers}${compacted}`, '·', state, '·', compaction]);
    forms.push(
      [head, bar, `${numbers}${compacted}`, '·', state],
      [head, bar, `${numbers}${compacted}`, short],
      [head, bar, short],
      [`${head} ${short}`],
    );
  }
  const lines = forms.map((parts) => parts.join(' '));
  if (f.columns === undefined) return lines[0]!;
  return lines.find((line) => visibleLength(line) <= f.columns!) ?? lines[lines.length - 1]!;
}

/** Ten cells and a mark where the ceiling falls: `▕██░░│░░░░░░▏`. */
function renderBar(percent: number, ceilingPct: number): string {
  const filled = Math.max(0, Math.min(BAR_WIDTH, Math.round((percent / 100) * BAR_WIDTH)));
  const cells = `${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)}`;
  const mark = Math.max(0, Math.min(BAR_WIDTH, Math.round((ceilingPct / 100) * BAR_WIDTH)));
  return `▕${cells.slice(0, mark)}│${cells.slice(mark)}▏`;
}

/** Characters a terminal shows: ANSI colour sequences take no room. */
export function visibleLength(text: string): number {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ESC is what starts the sequences it removes
  return [...text.replace(/\u001b\[[0-9;]*m/g, '')].length;
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
