/**
 * PreToolUse guard: judgePreToolUse decides (a GuardResult), renderGuardResult
 * turns it into the command hook's output; the SDK adapter consumes the result.
 */
import { isAbsolute, resolve } from 'node:path';
import { judgeCeiling, type GuardFacts, type Verdict } from '../core/ceiling.js';
import { parsePreToolUseInput, SAFE_AGENT_ID, type PreToolUseInput } from '../core/hook-input.js';
import type { GuardTexts } from '../core/messages.js';
import type { Debug } from '../io/debug.js';
import type { WarningClaim } from './guard-voice.js';
import { SILENT, sleepSync, type HookOutcome } from '../io/hook-io.js';
import { defaultStateDir } from '../io/state.js';
import { readOccupancy, type Measurement } from '../io/transcript.js';
import {
  loadSettings,
  parseJson,
  sessionWindow,
  windowEvidence,
  type HookContext,
  type SdkContextUsage,
  type Settings,
} from './context.js';

/** How long to wait for the calling turn's record: seen 20–35 ms late in the real client, and over 200 ms on a machine under heavy load. */
const CALL_RECORD_WAIT_MS = 500;
const CALL_RECORD_POLL_MS = 5;

/**
 * What the guard decided for one call. A warning that does not speak is
 * `deduplicated` (its bucket already warned since the last compaction, or
 * another hook claimed it) or `silenced` (the dedup state cannot be used);
 * texts are what was said, or would have been.
 */
export type GuardResult =
  | { outcome: 'allow'; verdict?: Verdict | undefined }
  | { outcome: 'warn' | 'block' | Exclude<WarningClaim, 'speak'>; verdict: Verdict; texts: GuardTexts };

const PASS: GuardResult = { outcome: 'allow' };

/** The command hook: the guard's result as protocol output (exit 2 and stderr block; JSON on stdout warns). */
export function runPreToolUse(stdin: string | undefined, ctx: HookContext): HookOutcome {
  return renderGuardResult(judgePreToolUse(stdin, ctx));
}

export function renderGuardResult(result: GuardResult): HookOutcome {
  if (result.outcome === 'block') return { exitCode: 2, stdout: '', stderr: `${result.texts.stderr}\n` };
  if (result.outcome !== 'warn') return SILENT;
  const { texts } = result;
  const output: Record<string, unknown> = {};
  if (texts.user) output.systemMessage = texts.user;
  if (texts.model) output.hookSpecificOutput = { hookEventName: 'PreToolUse', additionalContext: texts.model };
  return { exitCode: 0, stdout: `${JSON.stringify(output)}\n`, stderr: `${texts.stderr}\n` };
}

/** input → config → transcript tail → judgeCeiling → dedup; every failure is an allow. */
export function judgePreToolUse(stdin: string | undefined, ctx: HookContext): GuardResult {
  const input = parseInput(stdin);
  if (!input) return PASS;
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
    return { outcome: 'allow', verdict: probe }; // disabled, not gated, or a recovery skill: no need to read the transcript
  }
  if (!transcript) {
    debug(`agent_id ${JSON.stringify(input.agent_id)} cannot name a transcript; passing`);
    return PASS;
  }

  // The SDK's numbers describe the main session only; a subagent's call is judged by its own transcript.
  const sdk = input.agent_id === undefined ? ctx.sdk : undefined;
  const measurement = sdk
    ? withSdkOccupancy(readOccupancy(transcript, { maxScanBytes: policy.maxScanBytes, timeUp: ctx.timeUp }), sdk)
    : measureCallingTurn(transcript, input, policy.maxScanBytes, ctx.timeUp, debug);
  if (measurement.error) debug(`transcript ${transcript}: ${measurement.error}; passing`);
  const window = sessionWindow(settings, ctx.now(), input.session_id, measurement.model, sdk?.windowTokens);
  const dedupKey = input.agent_id ? `${input.session_id}.agent-${input.agent_id}` : input.session_id;
  const facts = { toolName: input.tool_name, toolInput: input.tool_input, occupancy: measurement.occupancy, window, policy };
  // A verdict that would speak needs the session's window evidence (a state read) and the skill to name;
  // an allowed one only keeps new proof of a wrong window (no I/O unless there is some).
  const verdict = judgeNamingSkill(facts, settings, ctx, (wanted) => windowEvidence(settings, dedupKey, measurement, window, wanted));
  debug(
    `${input.tool_name}: ${verdict.kind} ${verdict.messageId} occupancy=${verdict.data.occupancy ?? '?'} window=${verdict.data.window.tokens}/${verdict.data.window.source} scanned=${measurement.bytesScanned ?? 0}`,
  );

  const texts = verdict.kind === 'allow' ? undefined : ctx.voice().render(verdict);
  if (!texts) return { outcome: 'allow', verdict };
  if (verdict.kind === 'block') return { outcome: 'block', verdict, texts };
  const place = {
    stateDir: policy.stateDir ?? defaultStateDir(),
    key: dedupKey,
    transcript,
    fileSize: measurement.fileSize,
    maxScanBytes: policy.maxScanBytes,
  };
  const claim = ctx.voice().claimWarningOnce(verdict, place, debug);
  return { outcome: claim === 'speak' ? 'warn' : claim, verdict, texts };
}

/** Judge; a verdict that speaks is judged again with the recovery skill installed here (a few stat calls, spent only then). */
function judgeNamingSkill(
  facts: GuardFacts,
  settings: Settings,
  ctx: HookContext,
  evidence: (wanted: boolean) => number | undefined,
): Verdict {
  const verdict = judgeCeiling(facts);
  if (verdict.kind === 'allow') {
    evidence(false); // e.g. a compaction boundary whose preTokens exceed the window
    return verdict;
  }
  const recoverySkill = ctx.voice().nameRecoverySkill({
    projectDir: settings.projectDir,
    home: ctx.home,
    env: ctx.env,
    recoverySkills: settings.policy.recoverySkills,
    runtimeDir: ctx.runtimeDir,
  });
  return judgeCeiling({ ...facts, recoverySkill, windowEvidence: evidence(true) });
}

function parseInput(stdin: string | undefined): PreToolUseInput | undefined {
  return parsePreToolUseInput(parseJson(stdin));
}

/**
 * The newest usage, preferably of the turn that makes this call. The hook can
 * start before Claude Code has written that turn (CLAUDE-CODE-FACTS.md: up to
 * ~35 ms), and would then judge the previous turn: when the newest record
 * does not hold the call's tool_use_id, poll for it within a small budget.
 */
function measureCallingTurn(
  transcript: string,
  input: PreToolUseInput,
  maxScanBytes: number,
  timeUp: (() => boolean) | undefined,
  debug: Debug,
): Measurement {
  const read = () => readOccupancy(transcript, { maxScanBytes, agentId: input.agent_id, callId: input.tool_use_id, timeUp });
  let measurement = read();
  if (measurement.callSeen === false)
    debug(`the newest turn does not hold call ${input.tool_use_id}; waiting up to ${CALL_RECORD_WAIT_MS} ms for its record`);
  const deadline = Date.now() + CALL_RECORD_WAIT_MS;
  while (measurement.callSeen === false && Date.now() < deadline && !timeUp?.()) {
    sleepSync(CALL_RECORD_POLL_MS);
    measurement = read();
  }
  if (measurement.callSeen === false)
    debug(
      `the record of call ${input.tool_use_id} did not reach the transcript within ${CALL_RECORD_WAIT_MS} ms; judging the newest turn there`,
    );
  return measurement;
}

/** Claude Code's own count replaces the transcript's (the transcript still serves dedup's compaction check). */
function withSdkOccupancy(measurement: Measurement, sdk: SdkContextUsage): Measurement {
  return {
    ...measurement,
    occupancy: { kind: 'measured', tokens: sdk.occupancyTokens, source: 'usage' },
    error: undefined,
    preTokens: undefined,
  };
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
