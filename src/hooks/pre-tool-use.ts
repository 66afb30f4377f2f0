/**
 * PreToolUse guard: input → config → transcript tail → judgeCeiling → output,
 * plus per-session dedup state for warnings. Fails open at every step.
 */
import { isAbsolute, resolve } from 'node:path';
import { bucketOf, judgeCeiling, shouldWarnAgain, type GuardFacts, type Verdict } from '../core/ceiling.js';
import { parsePreToolUseInput, SAFE_AGENT_ID, type PreToolUseInput } from '../core/hook-input.js';
import { renderVerdict } from '../core/messages.js';
import { describeError, type Debug } from '../io/debug.js';
import { SILENT, type HookOutcome } from '../io/hook-io.js';
import {
  claimWarning,
  defaultStateDir,
  pruneEpochs,
  readDedupEpoch,
  readWarnedBuckets,
  sessionStateDir,
  writeDedupEpoch,
  type DedupEpoch,
} from '../io/state.js';
import { resolveRecoverySkill } from '../io/recovery-skill.js';
import { findLastCompaction, readOccupancy } from '../io/transcript.js';
import { loadSettings, parseJson, sessionWindow, type HookContext, type Settings } from './context.js';

/** How far dedup's compaction check may fall behind before epoch.json is rewritten anyway. */
const EPOCH_REWRITE_BYTES = 1024 * 1024;

export function runPreToolUse(stdin: string | undefined, ctx: HookContext): HookOutcome {
  const input = parseInput(stdin);
  if (!input) return SILENT;
  const settings = loadSettings(ctx, input.cwd);
  const { policy, debug } = settings;

  const transcript = measuredTranscript(input);
  const probe = judgeCeiling({
    toolName: input.tool_name,
    toolInput: input.tool_input,
    occupancy: { kind: 'unavailable', reason: 'no-usage' },
    window: settings.window,
    policy,
  });
  if (probe.messageId !== 'unmeasured') {
    debug(`${input.tool_name}: ${probe.messageId}`);
    return SILENT; // disabled, not gated, or a recovery skill: no need to read the transcript
  }
  if (!transcript) {
    debug(`agent_id ${JSON.stringify(input.agent_id)} cannot name a transcript; passing`);
    return SILENT;
  }

  const measurement = readOccupancy(transcript, { maxScanBytes: policy.maxScanBytes, agentId: input.agent_id });
  if (measurement.error) debug(`transcript ${transcript}: ${measurement.error}; passing`);
  const verdict = judgeNamingSkill(
    {
      toolName: input.tool_name,
      toolInput: input.tool_input,
      occupancy: measurement.occupancy,
      window: sessionWindow(settings, ctx.now(), input.session_id, measurement.model),
      policy,
    },
    settings,
    ctx,
  );
  debug(`${input.tool_name}: ${verdict.kind} ${verdict.messageId} occupancy=${verdict.data.occupancy ?? '?'} window=${verdict.data.window.tokens}/${verdict.data.window.source} scanned=${measurement.bytesScanned ?? 0}`);

  if (verdict.kind === 'allow') return SILENT;
  const texts = renderVerdict(verdict);
  if (!texts) return SILENT;
  if (verdict.kind === 'block') return { exitCode: 2, stdout: '', stderr: `${texts.stderr}\n` };

  const dedupKey = input.agent_id ? `${input.session_id}.agent-${input.agent_id}` : input.session_id;
  if (!claimWarningOnce(verdict, { stateDir: policy.stateDir ?? defaultStateDir(), key: dedupKey, transcript, fileSize: measurement.fileSize, maxScanBytes: policy.maxScanBytes }, debug)) {
    return SILENT;
  }
  const output: Record<string, unknown> = {};
  if (texts.user) output.systemMessage = texts.user;
  if (texts.model) output.hookSpecificOutput = { hookEventName: 'PreToolUse', additionalContext: texts.model };
  return { exitCode: 0, stdout: `${JSON.stringify(output)}\n`, stderr: `${texts.stderr}\n` };
}

/** Judge; a verdict that speaks is judged again with the recovery skill installed here (a few stat calls, spent only then). */
function judgeNamingSkill(facts: GuardFacts, settings: Settings, ctx: HookContext): Verdict {
  const verdict = judgeCeiling(facts);
  if (verdict.kind === 'allow') return verdict;
  const recoverySkill = resolveRecoverySkill({ projectDir: settings.projectDir, home: ctx.home, env: ctx.env, recoverySkills: settings.policy.recoverySkills, runtimeDir: ctx.runtimeDir });
  return judgeCeiling({ ...facts, recoverySkill });
}

function parseInput(stdin: string | undefined): PreToolUseInput | undefined {
  return parsePreToolUseInput(parseJson(stdin));
}

/**
 * The transcript that describes the calling context. Inside a subagent the
 * input's transcript_path is still the main session's; the subagent's own
 * file sits beside it (CLAUDE-CODE-FACTS.md, "Subagents").
 */
export function measuredTranscript(input: Pick<PreToolUseInput, 'transcript_path' | 'agent_id' | 'cwd'>): string | undefined {
  const main = isAbsolute(input.transcript_path) ? input.transcript_path : resolve(input.cwd ?? '.', input.transcript_path);
  if (input.agent_id === undefined) return main;
  if (!SAFE_AGENT_ID.test(input.agent_id)) return undefined;
  return `${main.replace(/\.jsonl$/, '')}/subagents/agent-${input.agent_id}.jsonl`;
}

type DedupPlace = { stateDir: string; key: string; transcript: string; fileSize: number | undefined; maxScanBytes: number };

/**
 * True when this call should speak: its 5-point bucket (or a higher one) has
 * not warned since the last compaction, and it won the exclusive marker.
 * Unusable state means silence (design: "unwritable state → exit 0 silently").
 */
function claimWarningOnce(verdict: Verdict, place: DedupPlace, debug: Debug): boolean {
  try {
    const dir = sessionStateDir(place.stateDir, place.key);
    const fileSize = place.fileSize ?? 0;
    const prior = readDedupEpoch(dir);
    const next = nextEpoch(prior, place, fileSize);
    if (!prior || next.epoch !== prior.epoch || next.scannedTo - prior.scannedTo > EPOCH_REWRITE_BYTES) writeDedupEpoch(dir, next);
    if (prior && next.epoch !== prior.epoch) {
      debug(`compaction or rewrite detected (epoch ${prior.epoch} → ${next.epoch}); dedup reset`);
      pruneEpochs(dir, next.epoch);
    }
    const bucket = bucketOf(verdict.data.percent ?? 0);
    if (!shouldWarnAgain(bucket, readWarnedBuckets(dir, next.epoch))) {
      debug(`bucket ${bucket} already warned in epoch ${next.epoch}; silent`);
      return false;
    }
    return claimWarning(dir, next.epoch, bucket);
  } catch (error) {
    debug(`state unavailable (${describeError(error)}); staying silent`);
    return false;
  }
}

/** A compaction since dedup last looked starts a new epoch, so the next crossing warns again. */
function nextEpoch(prior: DedupEpoch | undefined, place: DedupPlace, fileSize: number): DedupEpoch {
  if (!prior) return { epoch: 'e0', scannedTo: fileSize };
  if (fileSize < prior.scannedTo) return { epoch: `r${fileSize}`, scannedTo: fileSize }; // transcript replaced
  if (fileSize === prior.scannedTo) return prior;
  const found = findLastCompaction(place.transcript, prior.scannedTo, place.maxScanBytes);
  return { epoch: found.offset === undefined ? prior.epoch : `c${found.offset}`, scannedTo: found.fileSize };
}
