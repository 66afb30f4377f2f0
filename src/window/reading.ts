/** The session's context as a hook reads it: occupancy from the transcript's tail, the window, percent and tier. */
import type { Occupancy } from '../core/occupancy.js';
import { compactionPointTokens, resolveAutocompact } from '../core/autocompact.js';
import { computePercent, computeTier, sessionTiers, type Tier } from '../core/tiers.js';
import type { ResolvedWindow } from '../core/window.js';
import { readOccupancy, type Measurement } from '../io/transcript.js';
import type { HookConfig } from '../runtime/hook-config.js';
import { resolveSessionWindow } from './session-window.js';

/** Where a session's context is judged: whose state, which transcript, what its tail said. */
export type SessionPlace = { sessionId: string; key?: string | undefined; transcript: string | undefined; sdkWindow?: number | undefined };

/** The session's window, from everything known about it (src/window/session-window.ts). */
export function sessionWindow(config: HookConfig, now: Date, place: SessionPlace, measurement: Measurement): ResolvedWindow {
  return resolveSessionWindow({
    config: config.loaded,
    stateDir: config.stateDir,
    env: config.env,
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
    timeUp: config.timeUp,
    debug: config.debug,
  }).window;
}

export type ContextReading = { occupancy: Occupancy; percent: number | undefined; tier: Tier; window: ResolvedWindow };

/** Occupancy, percent and tier of the session behind `transcriptPath` (unavailable without one). */
export function readContext(config: HookConfig, transcriptPath: string | undefined, sessionId: string, now: Date): ContextReading {
  const { policy, debug } = config;
  const measurement: Measurement = transcriptPath
    ? readOccupancy(transcriptPath, { maxScanBytes: policy.maxScanBytes, timeUp: config.timeUp })
    : { occupancy: { kind: 'unavailable', reason: 'no-transcript' }, fileSize: undefined, error: 'no transcript_path' };
  if (measurement.error) debug(`transcript ${transcriptPath ?? '(none)'}: ${measurement.error}`);
  else debug(`transcript ${transcriptPath}: ${measurement.occupancy.kind} scanned=${measurement.bytesScanned ?? 0}`);
  const window = sessionWindow(config, now, { sessionId, transcript: transcriptPath }, measurement);
  const occupancy = measurement.occupancy;
  const percent = occupancy.kind === 'measured' ? computePercent(occupancy.tokens, window.tokens) : undefined;
  const tiers = sessionTiers(policy, window.tokens, compactionPointTokens(resolveAutocompact(config.env), window.tokens));
  return { occupancy, percent, tier: computeTier(percent, tiers), window };
}
