/**
 * The one place a session's window is decided, for the hooks and the CLI alike: gather every fact
 * (what the operator stated, what Claude Code reported, the session's model, what was learned, what
 * the session held), then resolve once (core/window.ts).
 */
import { judgeModelWindow, needsAttachment, sameModel, type ClientWindowKnobs } from '../core/model-window-fact.js';
import type { ResolvedPolicy } from '../core/policy.js';
import { resolveWindow, statedWindows, usableStatusline, type ResolvedWindow, type WindowFacts } from '../core/window.js';
import { readLearnedWindow, readWindowEvidence, writeWindowEvidence } from './learned.js';
import { readSessionModelId } from './session-model.js';
import { readStatuslineReport } from './statusline-report.js';

export type SessionWindowRequest = {
  config: Pick<ResolvedPolicy, 'policy' | 'sources'>;
  stateDir: string;
  env: Readonly<Record<string, string | undefined>>;
  now: Date;
  /** The session the status line reported for. */
  sessionId: string;
  /** Whose evidence and kept model: the session, or `<session>.agent-<id>` inside a subagent. */
  key: string;
  /** The transcript that describes the judged context (the subagent's own inside a subagent). */
  transcript: string | undefined;
  /** What the transcript tail said: the newest turn's model, the occupancy, a compaction's preTokens. */
  measured: { model?: string | undefined; tokens?: number | undefined; preTokens?: number | undefined };
  /** Claude Code's own window for the session, from the Agent SDK. */
  sdkWindow?: number | undefined;
  timeUp?: (() => boolean) | undefined;
  debug: (line: string) => void;
  /** False for commands that only look (status, doctor, report): nothing is written to the state directory. */
  persist?: boolean | undefined;
};

export type SessionWindow = { window: ResolvedWindow; facts: WindowFacts };

export function resolveSessionWindow(r: SessionWindowRequest): SessionWindow {
  const { policy } = r.config;
  const knobs = clientWindowKnobs(r.env);
  const attachment =
    r.transcript !== undefined && needsAttachment(r.measured.model, knobs)
      ? readSessionModelId(
          {
            stateDir: r.stateDir,
            key: r.key,
            transcript: r.transcript,
            maxScanBytes: policy.maxScanBytes,
            timeUp: r.timeUp,
            persist: r.persist !== false,
          },
          r.debug,
        )
      : undefined;
  const model = judgeModelWindow(r.measured.model, attachment, knobs);
  const seen = Math.max(r.measured.tokens ?? 0, r.measured.preTokens ?? 0);
  const kept = readWindowEvidence(r.stateDir, r.key);
  const statusline = usableStatusline(readStatuslineReport(r.stateDir, r.sessionId, r.now), policy.bridgeMaxAgeMinutes * 60, (reported) =>
    model === undefined ? true : sameModel(reported, model.id),
  );
  const facts: WindowFacts = {
    ...statedWindows(r.config),
    sdk: r.sdkWindow,
    statusline,
    model,
    learned: model?.kind === 'unknown' ? readLearnedWindow(r.stateDir, attachment ?? model.id) : undefined,
    heldTokens: Math.max(seen, kept),
  };
  const window = resolveWindow(facts);
  // Keep what disproves a window, so a compaction that hides the occupancy does not hide the proof.
  if (r.persist !== false && seen > kept && (window.disproved !== undefined || window.source === 'evidence')) {
    try {
      writeWindowEvidence(r.stateDir, r.key, seen);
    } catch (error) {
      r.debug(`window evidence not kept (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  return { window, facts };
}

/** The client's own knobs, as the hook's environment carries them. */
export function clientWindowKnobs(env: Readonly<Record<string, string | undefined>>): ClientWindowKnobs {
  const max = Number(env.CLAUDE_CODE_MAX_CONTEXT_TOKENS);
  const disable = env.CLAUDE_CODE_DISABLE_1M_CONTEXT;
  return {
    disable1m: disable !== undefined && disable !== '' && disable !== '0' && disable.toLowerCase() !== 'false',
    maxContextTokens: Number.isSafeInteger(max) && max > 0 ? max : undefined,
  };
}

/**
 * For a recorded session (replay, report): its window as the guard would have resolved it once the
 * session had held `heldTokens`, from what is stated and the session's model; no state is read.
 */
export function recordedSessionWindow(
  stated: Pick<WindowFacts, 'stated' | 'projectStated'>,
  models: { model: string | undefined; attachmentModel: string | undefined },
  env: Readonly<Record<string, string | undefined>>,
): (heldTokens: number) => ResolvedWindow {
  const model = judgeModelWindow(models.model, models.attachmentModel, clientWindowKnobs(env));
  return (heldTokens) => resolveWindow({ ...stated, model, heldTokens });
}
