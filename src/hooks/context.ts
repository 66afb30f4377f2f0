/** What every hook starts from: its environment, and the settings resolved from it. */
import type { Occupancy } from '../core/occupancy.js';
import type { Policy } from '../core/policy.js';
import { computePercent, computeTier, type Tier } from '../core/tiers.js';
import { resolveWindow, windowFromConfig, type ResolvedWindow } from '../core/window.js';
import { loadConfig, type LoadedConfig, type PolicyParser } from '../io/config.js';
import { createDebug, type Debug } from '../io/debug.js';
import type { YamlParser } from '../io/orchestration.js';
import { readBridge } from '../io/bridge.js';
import { readLearnedWindow, readWindowEvidence, writeWindowEvidence } from '../io/learned-window.js';
import { describeError } from '../io/debug.js';
import { defaultStateDir } from '../io/state.js';
import { readOccupancy, type Measurement } from '../io/transcript.js';
import type { GuardVoice } from './guard-voice.js';

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
  /** What the guard needs only when a verdict speaks (guard-voice.ts); the hook bundle loads it lazily. */
  voice: () => GuardVoice;
  /** Claude Code's own numbers for the main session, when the Agent SDK gave them (query.getContextUsage()). */
  sdk?: SdkContextUsage | undefined;
  /** True once the hook has spent its wall-clock budget (run.ts); loops that could run long stop then. */
  timeUp?: (() => boolean) | undefined;
};

/** `maxTokens` and `totalTokens` of the SDK's context usage: the window, and the prompt side of the newest turn. */
export type SdkContextUsage = { windowTokens: number; occupancyTokens: number };

export type Settings = {
  config: LoadedConfig;
  policy: Policy;
  window: ResolvedWindow;
  debug: Debug;
  projectDir: string;
  timeUp?: (() => boolean) | undefined;
};

/** Resolve config for a hook; broken policy files are skipped (and named in the debug output). */
export function loadSettings(ctx: HookContext, inputCwd: string | undefined): Settings {
  const projectDir = ctx.env.CLAUDE_PROJECT_DIR || inputCwd || ctx.cwd;
  const config = loadConfig({ env: ctx.env, projectDir, home: ctx.home }, ctx.parsePolicy);
  const debug = createDebug(ctx.env, config.policy.debug, ctx.writeStderr);
  for (const line of [...config.problems, ...config.warnings]) debug(`config: ${line}`);
  return { config, policy: config.policy, window: windowFromConfig(config), debug, projectDir, timeUp: ctx.timeUp };
}

export type ContextReading = { occupancy: Occupancy; percent: number | undefined; tier: Tier; window: ResolvedWindow };

/**
 * The window for one session: configured (env, policy) first, else what the
 * status line bridge recorded for this session and model when fresh, else
 * what the status line once reported for the measured model, else the default.
 */
export function sessionWindow(
  settings: Pick<Settings, 'window' | 'policy'>,
  now: Date,
  sessionId: string,
  measuredModel: string | undefined,
  sdkWindow?: number,
): ResolvedWindow {
  if (settings.window.source !== 'default') return settings.window;
  if (sdkWindow !== undefined) return resolveWindow({ sdk: sdkWindow });
  const { policy } = settings;
  const stateDir = policy.stateDir ?? defaultStateDir();
  const bridge = readBridge(stateDir, sessionId, now);
  const facts = { bridge, bridgeMaxAgeSeconds: policy.bridgeMaxAgeMinutes * 60, measuredModel };
  const window = resolveWindow(facts);
  return window.source === 'default' ? resolveWindow({ ...facts, learned: readLearnedWindow(stateDir, measuredModel) }) : window;
}

/**
 * The session's proof that its window is wrong: what it holds (or held before
 * the compaction it just went through) above the window is remembered, and
 * the most it ever held is returned when `wanted` (the verdict could speak).
 */
export function windowEvidence(
  settings: Pick<Settings, 'policy' | 'debug'>,
  key: string,
  measurement: Pick<Measurement, 'occupancy' | 'preTokens'>,
  window: ResolvedWindow,
  wanted: boolean,
): number | undefined {
  const stateDir = settings.policy.stateDir ?? defaultStateDir();
  const seen = Math.max(measurement.occupancy.kind === 'measured' ? measurement.occupancy.tokens : 0, measurement.preTokens ?? 0);
  const proves = seen > window.tokens;
  if (!proves && !wanted) return undefined; // the common case: no state I/O at all
  try {
    const kept = readWindowEvidence(stateDir, key);
    if (proves && seen > kept) writeWindowEvidence(stateDir, key, seen);
    return wanted ? Math.max(kept, proves ? seen : 0) : undefined;
  } catch (error) {
    settings.debug(`window evidence unavailable (${describeError(error)})`);
    return wanted ? seen : undefined;
  }
}

/** Occupancy, percent and tier of the session behind `transcriptPath` (unavailable without one). */
export function readContext(settings: Settings, transcriptPath: string | undefined, sessionId: string, now: Date): ContextReading {
  const { policy, debug } = settings;
  const measurement: Measurement = transcriptPath
    ? readOccupancy(transcriptPath, { maxScanBytes: policy.maxScanBytes, timeUp: settings.timeUp })
    : { occupancy: { kind: 'unavailable', reason: 'no-transcript' }, fileSize: undefined, error: 'no transcript_path' };
  if (measurement.error) debug(`transcript ${transcriptPath ?? '(none)'}: ${measurement.error}`);
  else debug(`transcript ${transcriptPath}: ${measurement.occupancy.kind} scanned=${measurement.bytesScanned ?? 0}`);
  const window = sessionWindow(settings, now, sessionId, measurement.model);
  windowEvidence(settings, sessionId, measurement, window, false);
  const occupancy = measurement.occupancy;
  const percent = occupancy.kind === 'measured' ? computePercent(occupancy.tokens, window.tokens) : undefined;
  return { occupancy, percent, tier: computeTier(percent, { ceilingPct: policy.ceilingPct, ...policy.tiers }), window };
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
