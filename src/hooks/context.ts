/** What every hook starts from: its environment, and the settings resolved from it. */
import { AUTOCOMPACT_ENV } from '../core/constants.js';
import type { Occupancy } from '../core/occupancy.js';
import type { Policy } from '../core/policy.js';
import { computePercent, computeTier, type Tier } from '../core/tiers.js';
import { resolveWindow, type ResolvedWindow } from '../core/window.js';
import { loadConfig, type LoadedConfig, type PolicyParser } from '../io/config.js';
import { createDebug, type Debug } from '../io/debug.js';
import type { YamlParser } from '../io/orchestration.js';
import { readBridge } from '../io/bridge.js';
import { defaultStateDir } from '../io/state.js';
import { readOccupancy, type Measurement } from '../io/transcript.js';

export type HookContext = {
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  home: string;
  /** The folder holding the running bundle (dist/ in the plugin, the runtime copy after install). */
  runtimeDir?: string | undefined;
  /** Sink for debug lines when debugging goes to stderr. */
  writeStderr: (text: string) => void;
  /** Heavy parsers arrive as services so the hook bundle loads them only when needed. */
  parsePolicy: PolicyParser;
  parseYaml: YamlParser;
  now: () => Date;
};

export type Settings = { config: LoadedConfig; policy: Policy; window: ResolvedWindow; debug: Debug; projectDir: string };

/** Resolve config for a hook; broken policy files are skipped (and named in the debug output). */
export function loadSettings(ctx: HookContext, inputCwd: string | undefined): Settings {
  const projectDir = ctx.env.CLAUDE_PROJECT_DIR || inputCwd || ctx.cwd;
  const config = loadConfig({ env: ctx.env, projectDir, home: ctx.home }, ctx.parsePolicy);
  const debug = createDebug(ctx.env, config.policy.debug, ctx.writeStderr);
  for (const line of [...config.problems, ...config.warnings]) debug(`config: ${line}`);
  return { config, policy: config.policy, window: windowFromConfig(config), debug, projectDir };
}

export type ContextReading = { occupancy: Occupancy; percent: number | undefined; tier: Tier; window: ResolvedWindow };

/**
 * The window for one session: configured (env, policy) first, else what the
 * status line bridge recorded for this session and model when fresh, else the default.
 */
export function sessionWindow(settings: Pick<Settings, 'window' | 'policy'>, now: Date, sessionId: string, measuredModel: string | undefined): ResolvedWindow {
  if (settings.window.source !== 'default') return settings.window;
  const { policy } = settings;
  const bridge = readBridge(policy.stateDir ?? defaultStateDir(), sessionId, now);
  return resolveWindow({ bridge, bridgeMaxAgeSeconds: policy.bridgeMaxAgeMinutes * 60, measuredModel });
}

/** Occupancy, percent and tier of the session behind `transcriptPath` (unavailable without one). */
export function readContext(settings: Settings, transcriptPath: string | undefined, sessionId: string, now: Date): ContextReading {
  const { policy, debug } = settings;
  const measurement: Measurement = transcriptPath
    ? readOccupancy(transcriptPath, { maxScanBytes: policy.maxScanBytes })
    : { occupancy: { kind: 'unavailable', reason: 'no-transcript' }, fileSize: undefined, error: 'no transcript_path' };
  if (measurement.error) debug(`transcript ${transcriptPath ?? '(none)'}: ${measurement.error}`);
  else debug(`transcript ${transcriptPath}: ${measurement.occupancy.kind} scanned=${measurement.bytesScanned ?? 0}`);
  const window = sessionWindow(settings, now, sessionId, measurement.model);
  const occupancy = measurement.occupancy;
  const percent = occupancy.kind === 'measured' ? computePercent(occupancy.tokens, window.tokens) : undefined;
  return { occupancy, percent, tier: computeTier(percent, { ceilingPct: policy.ceilingPct, ...policy.tiers }), window };
}

/** Claude Code's own auto-compaction point, when CLAUDE_AUTOCOMPACT_PCT_OVERRIDE sets one. */
export function autocompactPct(env: Readonly<Record<string, string | undefined>>): number | undefined {
  const raw = env[AUTOCOMPACT_ENV];
  const value = raw !== undefined && /^\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw) : Number.NaN;
  return value > 0 && value <= 100 ? value : undefined;
}

/** env → policy → default (the statusline bridge joins between policy and default). */
export function windowFromConfig(config: LoadedConfig): ResolvedWindow {
  const source = config.sources.window;
  const configured =
    config.policy.window !== undefined && source
      ? { tokens: config.policy.window, source: source.layer === 'env' ? ('env' as const) : ('policy' as const), detail: source.layer === 'env' ? undefined : source.detail }
      : undefined;
  return resolveWindow({ configured });
}

/** JSON.parse that answers undefined instead of throwing: bad stdin is silence, not an error. */
export function parseJson(text: string | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
