/** What every hook starts from: its environment, and the settings resolved from it. */
import type { Occupancy } from '../core/occupancy.js';
import type { Policy } from '../core/policy.js';
import { computePercent, computeTier, type Tier } from '../core/tiers.js';
import type { ResolvedWindow } from '../core/window.js';
import { loadConfig, type LoadedConfig, type PolicyParser } from '../io/config.js';
import { createDebug, type Debug } from '../io/debug.js';
import type { YamlParser } from '../io/orchestration.js';
import { resolveStateDir } from '../io/state.js';
import { readOccupancy, type Measurement } from '../io/transcript.js';
import { resolveSessionWindow } from '../window/session-window.js';
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
  /** The private state directory in force (io/state.ts, resolveStateDir). */
  stateDir: string;
  debug: Debug;
  projectDir: string;
  env: Readonly<Record<string, string | undefined>>;
  timeUp?: (() => boolean) | undefined;
};

/** Resolve config for a hook; broken policy files are skipped (and named in the debug output). */
export function loadSettings(ctx: HookContext, inputCwd: string | undefined): Settings {
  const projectDir = ctx.env.CLAUDE_PROJECT_DIR || inputCwd || ctx.cwd;
  const config = loadConfig({ env: ctx.env, projectDir, home: ctx.home }, ctx.parsePolicy);
  const debug = createDebug(ctx.env, config.policy.debug, ctx.writeStderr);
  for (const line of [...config.problems, ...config.warnings]) debug(`config: ${line}`);
  const stateDir = resolveStateDir({ policy: config.policy, env: ctx.env, home: ctx.home });
  return { config, policy: config.policy, stateDir, debug, projectDir, env: ctx.env, timeUp: ctx.timeUp };
}

/** Where a session's context is judged: whose state, which transcript, what its tail said. */
export type SessionPlace = { sessionId: string; key?: string | undefined; transcript: string | undefined; sdkWindow?: number | undefined };

/** The session's window, from everything known about it (src/window/session-window.ts). */
export function sessionWindow(settings: Settings, now: Date, place: SessionPlace, measurement: Measurement): ResolvedWindow {
  return resolveSessionWindow({
    config: settings.config,
    stateDir: settings.stateDir,
    env: settings.env,
    now,
    sessionId: place.sessionId,
    key: place.key ?? place.sessionId,
    transcript: place.transcript,
    measured: {
      model: measurement.model,
      tokens: measurement.occupancy.kind === 'measured' ? measurement.occupancy.tokens : undefined,
      preTokens: measurement.preTokens,
    },
    sdkWindow: place.sdkWindow,
    timeUp: settings.timeUp,
    debug: settings.debug,
  }).window;
}

export type ContextReading = { occupancy: Occupancy; percent: number | undefined; tier: Tier; window: ResolvedWindow };

/** Occupancy, percent and tier of the session behind `transcriptPath` (unavailable without one). */
export function readContext(settings: Settings, transcriptPath: string | undefined, sessionId: string, now: Date): ContextReading {
  const { policy, debug } = settings;
  const measurement: Measurement = transcriptPath
    ? readOccupancy(transcriptPath, { maxScanBytes: policy.maxScanBytes, timeUp: settings.timeUp })
    : { occupancy: { kind: 'unavailable', reason: 'no-transcript' }, fileSize: undefined, error: 'no transcript_path' };
  if (measurement.error) debug(`transcript ${transcriptPath ?? '(none)'}: ${measurement.error}`);
  else debug(`transcript ${transcriptPath}: ${measurement.occupancy.kind} scanned=${measurement.bytesScanned ?? 0}`);
  const window = sessionWindow(settings, now, { sessionId, transcript: transcriptPath }, measurement);
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
