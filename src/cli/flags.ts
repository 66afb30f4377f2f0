/** Command-line flags: minimist with declared flags, and the shared `--window` flag. */
import minimist from 'minimist';
import type { WindowCandidate } from '../core/window.js';
import { UsageError } from './errors.js';
import { cliMessage } from './messages.js';

type Flags = { string?: string[]; boolean?: string[]; alias?: Record<string, string> };

/**
 * minimist with declared flags; unknown flags are an error, and strings stay
 * strings (minimist would turn `040` into 40 unless told).
 */
export function parseFlags(args: string[], flags: Flags, usage: string) {
  const known = new Set([
    ...(flags.string ?? []),
    ...(flags.boolean ?? []),
    ...Object.keys(flags.alias ?? {}),
    ...Object.values(flags.alias ?? {}),
    '_',
    '--',
  ]);
  const unknown: string[] = [];
  const parsed = minimist(joinNegativeValues(args, flags.string ?? []), {
    // '_': operands stay as typed (`040`, `1e3`), as options do; commands coerce them themselves.
    string: [...(flags.string ?? []), '_'],
    boolean: [...(flags.boolean ?? []), 'help'],
    alias: { h: 'help', ...(flags.alias ?? {}) },
    unknown: (arg) => {
      if (arg.startsWith('-')) unknown.push(arg);
      return true;
    },
  });
  known.add('help');
  known.add('h');
  if (unknown.length > 0) throw new UsageError(cliMessage('unknown-option', { option: unknown[0]! }), usage);
  for (const name of flags.string ?? []) {
    const value = parsed[name];
    if (Array.isArray(value)) throw new UsageError(cliMessage('flag-repeated', { flag: name }), usage);
    if (name in parsed && value === '' && args.some((a) => a === `--${name}`))
      throw new UsageError(cliMessage('flag-needs-value', { flag: name }), usage);
  }
  return parsed;
}

/** `--window N` of replay and report: a window stated by the user, which the guard trusts like DEV_TEAM_CONTEXT_WINDOW. */
export function parseWindowFlag(raw: string | undefined, usage: string): WindowCandidate | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < 1000 || !Number.isSafeInteger(Number(raw)))
    throw new UsageError(cliMessage('window-flag-invalid', { got: raw }), usage);
  return { tokens: Number(raw), source: 'env', detail: WINDOW_FLAG };
}

/** How a window from --window is named in output. */
export const WINDOW_FLAG = '--window';

/** `--window -5` is a value, not an option `-5`: join it as `--window=-5` so the flag's own check reports it. */
function joinNegativeValues(args: string[], stringFlags: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const next = args[i + 1];
    if (stringFlags.includes(args[i]!.replace(/^--/, '')) && args[i]!.startsWith('--') && next !== undefined && /^-\d/.test(next)) {
      out.push(`${args[i]}=${next}`);
      i += 1;
    } else out.push(args[i]!);
  }
  return out;
}
