/**
 * PreToolUse guard, read top to bottom: gather the facts once (input, config, the calling turn's
 * occupancy and model, the session's window), decide once (judgeCall), word it, write output and state.
 * The SDK adapter consumes the same GuardResult.
 */
import { compactionPointTokens, resolveAutocompact } from '../core/autocompact.js';
import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { join } from '../io/join-path.js';
import { describeCall, judgeCall, type Verdict } from '../core/ceiling.js';
import { isSafeId, parsePreToolUseInput, type PreToolUseInput } from '../core/hook-input.js';
import { judgeNotices, renderUnremembered, renderVerdict, verdictSpeaks, type GuardTexts } from '../core/guard-text.js';
import { judgeStuckAfterCompaction, type StuckAfterCompaction } from '../core/compaction-notice.js';
import type { ResolvedWindow } from '../core/window.js';
import { operatorRecoverySkills } from '../core/policy-layer.js';
import type { Debug } from '../io/debug.js';
import { projectOwnsName, resolveRecoverySkill } from '../io/recovery-skill.js';
import { readNewestCompaction } from '../io/newest-compaction.js';
import { locateSubagentTranscript, readOccupancy, type Measurement } from '../io/transcript.js';
import { loadHookConfig, type HookConfig } from '../runtime/hook-config.js';
import { parseJson, silent, sleepSync, type HookOutcome } from '../runtime/hook-io.js';
import type { HookHost, SdkContextUsage } from '../runtime/host.js';
import { sessionWindow } from '../window/reading.js';
import { claimNotice, recordEvent } from './guard-voice.js';
import { claimWarningOnce, type WarningClaim } from '../io/warning-claim.js';

/** How long to wait for the calling turn's record: seen 20–35 ms late in the real client, and over 200 ms on a machine under heavy load. */
const CALL_RECORD_WAIT_MS = 500;
const CALL_RECORD_POLL_MS = 5;

/**
 * What the guard decided for one call, and why (`reason`: the verdict's message id, or why there was no
 * verdict). A warning whose band already warned since the last compaction is `deduplicated`; `texts`
 * are what was said (or would have been); `notice` is a one-time word to the person about the window.
 */
export type GuardResult = {
  outcome: 'allow' | 'warn' | 'block' | 'deduplicated';
  reason: string;
  verdict?: Verdict | undefined;
  texts?: GuardTexts | undefined;
  notice?: string | undefined;
};

/**
 * `wordDeduplicated`: word a warning its band already gave too (the SDK reports what it would have said). The
 * command hook prints nothing for one: it claims the band first and, deduplicated, words nothing.
 */
export type JudgeOptions = { wordDeduplicated?: boolean };

/**
 * The guard as a command hook: its result as protocol output (a block is a `deny` decision, a warning
 * additional context.
 */
export function runPreToolUse(stdin: string | undefined, host: HookHost): HookOutcome {
  return renderGuardResult(judgePreToolUse(stdin, host));
}

export function renderGuardResult(result: GuardResult): HookOutcome {
  const output = guardProtocolOutput(result);
  const reason = `${result.outcome} ${result.reason}${result.notice ? ' +notice' : ''}`;
  if (!output) return silent(reason);
  const spoken = result.outcome === 'warn' || result.outcome === 'block' ? result.texts?.stderr : undefined;
  const stderr = [spoken, result.notice].filter(Boolean).join('\n');
  return { exitCode: 0, stdout: `${JSON.stringify(output)}\n`, stderr: `${stderr}\n`, reason };
}

/** What the guard's result says to Claude Code, as hook JSON (the command hook prints it, the SDK returns it); undefined when silent. */
export type GuardProtocolOutput = {
  systemMessage?: string;
  hookSpecificOutput?:
    | { hookEventName: 'PreToolUse'; permissionDecision: 'deny'; permissionDecisionReason: string }
    | { hookEventName: 'PreToolUse'; additionalContext: string };
};

/**
 * A block is a `deny` decision whose reason the model reads (no command line in front of it, unlike
 * exit 2; CLAUDE-CODE-FACTS.md, 2.1.331); a warning is additional context for the model; both carry a
 * systemMessage for the person, which is also where a one-time window notice goes.
 */
export function guardProtocolOutput(result: GuardResult): GuardProtocolOutput | undefined {
  const texts = result.outcome === 'warn' || result.outcome === 'block' ? result.texts : undefined;
  if (!texts && result.notice === undefined) return undefined;
  const user = [texts?.user, result.notice].filter(Boolean).join('\n');
  const output: GuardProtocolOutput = user ? { systemMessage: user } : {};
  if (texts?.model && result.outcome === 'block')
    output.hookSpecificOutput = { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: texts.model };
  else if (texts?.model) output.hookSpecificOutput = { hookEventName: 'PreToolUse', additionalContext: texts.model };
  return output;
}

/** input → config → the call's gate → (gated only) the calling turn and the session's window → one verdict → wording and state. */
export function judgePreToolUse(stdin: string | undefined, host: HookHost, options: JudgeOptions = {}): GuardResult {
  const input = parsePreToolUseInput(parseJson(stdin));
  if (!input) return { outcome: 'allow', reason: 'not-a-pre-tool-use-input' };
  const config = loadHookConfig(host, input.cwd);
  const transcript = measuredTranscript(input);
  const key = input.agent_id ? `${input.session_id}.agent-${input.agent_id}` : input.session_id;
  // The SDK's numbers describe the main session only; a subagent's call is judged by its own transcript.
  const sdk = input.agent_id === undefined ? host.sdk : undefined;
  let measurement: Measurement | undefined;
  // Asked by the gate only for a Skill call under a recovery name: does the project define that skill itself?
  const facts = {
    operatorRecoverySkills: operatorRecoverySkills(config.loaded),
    projectOwnsSkill: (name: string) =>
      projectOwnsName({ projectDir: config.projectDir, home: host.home, env: host.env, runtimeDir: host.runtimeDir }, name),
  };
  const verdict = judgeCall(
    describeCall(input.tool_name, input.tool_input),
    config.policy,
    () => {
      measurement = measure(transcript, input, sdk, config, host);
      const window = sessionWindow(
        config,
        host.now(),
        { sessionId: input.session_id, key, transcript, sdkWindow: sdk?.windowTokens },
        measurement,
      );
      return { occupancy: measurement.occupancy, window, compactAt: compactionPointTokens(resolveAutocompact(config.env), window.tokens) };
    },
    facts,
  );
  config.debug(describeVerdict(verdict, measurement));
  return speak(verdict, { config, host, input, key, transcript, measurement, wordDeduplicated: options.wordDeduplicated === true });
}

type Speaking = {
  config: HookConfig;
  host: HookHost;
  input: PreToolUseInput;
  key: string;
  transcript: string | undefined;
  measurement: Measurement | undefined;
  wordDeduplicated: boolean;
};

/**
 * Claim a warning's band, word the verdict, log it. A warning whose band already warned is silent, its reason its
 * message id alone (no words were chosen for it).
 */
function speak(verdict: Verdict, s: Speaking): GuardResult {
  const { config, host } = s;
  const window = verdict.data.window;
  const held = Math.max(verdict.data.occupancy ?? 0, s.measurement?.preTokens ?? 0);
  const relaxed = config.loaded.relaxed.map((r) => `${r.key} ${JSON.stringify(r.value)} (${r.by})`);
  const pending = judgeNotices(window, held, relaxed, config.loaded.problems, host.ignoredPaths);
  const speaks = verdict.kind !== 'allow' && verdictSpeaks(verdict);
  const claim = speaks ? claimWarning(verdict, s) : undefined;
  const silenced = claim === 'deduplicated' && !s.wordDeduplicated;
  const quiet = { outcome: speaks ? ('deduplicated' as const) : ('allow' as const), reason: reasonOf(verdict, s.measurement), verdict };
  if ((!speaks || silenced) && pending.length === 0) return quiet;
  const notice = pending.length > 0 ? claimNotice(pending, { stateDir: config.stateDir, key: s.key }, config.debug) : undefined;
  if (!speaks || silenced) return { ...quiet, notice };
  const recoverySkill = resolveRecoverySkill({
    projectDir: config.projectDir,
    home: host.home,
    env: host.env,
    recoverySkills: operatorRecoverySkills(config.loaded),
    runtimeDir: host.runtimeDir,
  });
  const stuck = judgeStuck(verdict, s);
  const texts = renderVerdict(verdict, { recoverySkill, stuck }) as GuardTexts; // it speaks
  if (claim === 'deduplicated') return { ...quiet, texts, notice };
  const reason = stuck ? `${reasonOf(verdict)} over-ceiling-after-compaction` : reasonOf(verdict);
  return spoken({ verdict, s, texts, notice, reason, claim });
}

/** A warning's claim on its band (io/warning-claim.ts); undefined for a block, or without a transcript to date it by. */
function claimWarning(verdict: Verdict, s: Speaking): WarningClaim | undefined {
  if (verdict.kind !== 'warn' || s.transcript === undefined) return undefined;
  const { config } = s;
  const place = {
    stateDir: config.stateDir,
    key: s.key,
    transcript: s.transcript,
    fileSize: s.measurement?.fileSize,
    maxScanBytes: config.policy.maxScanBytes,
  };
  return claimWarningOnce(verdict, place, config.debug);
}

/**
 * Issue 20: when the main session's newest compaction already left it over the ceiling, the way out is not another
 * /compact (core/compaction-notice.ts). A subagent's own context is not the one Claude Code compacted.
 */
function judgeStuck(verdict: Verdict, s: Speaking): StuckAfterCompaction | undefined {
  const window = verdict.data.window;
  if (s.input.agent_id !== undefined || s.transcript === undefined || !window) return undefined;
  const place = { stateDir: s.config.stateDir, key: s.key, transcript: s.transcript, maxScanBytes: s.config.policy.maxScanBytes };
  const newest = readNewestCompaction(place, s.host.timeUp, s.config.debug);
  const stuck = judgeStuckAfterCompaction(newest, verdict.data.ceilingPct, window.tokens);
  if (stuck) s.config.debug(`the newest compaction left ${stuck.postTokens} tokens, over the ceiling: advising a checkpoint and /clear`);
  return stuck;
}

/** A worded warning (that won its band, or whose dedup state is unusable) or block: log it. */
function spoken(a: {
  verdict: Verdict;
  s: Speaking;
  texts: GuardTexts;
  notice: string | undefined;
  reason: string;
  claim: WarningClaim | undefined;
}): GuardResult {
  const { verdict, s, texts, notice, reason } = a;
  const { config, host } = s;
  recordEvent(config.stateDir, guardEvent(verdict, s, host.now()), config.debug);
  if (a.claim === 'unremembered') {
    const user = [texts.user, renderUnremembered(config.stateDir)].filter(Boolean).join('\n');
    return { outcome: 'warn', reason: `${reason} unremembered`, verdict, texts: { ...texts, user }, notice };
  }
  return { outcome: verdict.kind, reason, verdict, texts, notice };
}

function guardEvent(verdict: Verdict, s: Speaking, now: Date) {
  const d = verdict.data;
  const window = d.window as ResolvedWindow;
  return {
    at: now.toISOString(),
    session: s.input.session_id,
    agent: s.input.agent_id,
    project: s.config.projectDir,
    tool: d.tool,
    target: d.target,
    outcome: verdict.kind as 'warn' | 'block',
    messageId: verdict.messageId,
    occupancy: d.occupancy,
    percent: d.percent === undefined ? undefined : Math.round(d.percent * 10) / 10,
    ceilingPct: d.ceilingPct,
    window: { tokens: window.tokens, source: window.source, detail: window.detail },
    strict: d.strict,
  };
}

/**
 * The verdict's reason: its message id, the project's skill when a recovery name was gated for being one, and why
 * nothing was measured when nothing was (no transcript, no usage in it, or none within the most a hook reads).
 */
function reasonOf(verdict: Verdict, measurement?: Measurement): string {
  const skill = verdict.data.projectSkill;
  const occupancy = measurement?.occupancy;
  const id = verdict.messageId === 'unmeasured' && occupancy?.kind === 'unavailable' ? `unmeasured ${occupancy.reason}` : verdict.messageId;
  return skill === undefined ? id : `${id} project-skill=${skill}`;
}

/** One stable debug line per judged call: the verdict, its reason, and the numbers behind it. */
function describeVerdict(verdict: Verdict, measurement: Measurement | undefined): string {
  const d = verdict.data;
  const window = d.window ? ` window=${d.window.tokens}/${d.window.source}${d.window.verified ? '' : '(assumed)'}` : '';
  const scanned = measurement ? ` scanned=${measurement.bytesScanned ?? 0}` : '';
  const error = measurement?.error ? ` transcript-error="${measurement.error}"` : '';
  return `pre-tool-use: ${verdict.kind} ${reasonOf(verdict, measurement)} tool=${d.tool} occupancy=${d.occupancy ?? '?'}${window}${scanned}${error}`;
}

function measure(
  transcript: string | undefined,
  input: PreToolUseInput,
  sdk: SdkContextUsage | undefined,
  config: HookConfig,
  host: HookHost,
): Measurement {
  if (transcript === undefined)
    return { occupancy: { kind: 'unavailable', reason: 'no-transcript' }, fileSize: undefined, error: 'agent_id cannot name a transcript' };
  const { maxScanBytes } = config.policy;
  if (sdk) return withSdkOccupancy(readOccupancy(transcript, { maxScanBytes, timeUp: host.timeUp }), sdk);
  return measureCallingTurn(transcript, input, maxScanBytes, host.timeUp, config.debug);
}

/**
 * The newest usage, preferably of the turn that makes this call. The hook can
 * start before Claude Code has written that turn (CLAUDE-CODE-FACTS.md: up to
 * ~35 ms), and would then judge the previous turn, or, when no turn lies within
 * reach (none yet, or none in the most a hook reads), nothing: while the newest
 * record does not hold the call's tool_use_id, poll for it within a small budget,
 * reading the transcript again only once it has grown.
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
  const awaited = awaitedCall(measurement, input.tool_use_id);
  if (awaited === undefined) return measurement;
  debug(`${awaited} ${input.tool_use_id}; waiting up to ${CALL_RECORD_WAIT_MS} ms for its record`);
  const deadline = Date.now() + CALL_RECORD_WAIT_MS;
  let size = measurement.fileSize;
  while (awaitedCall(measurement, input.tool_use_id) !== undefined && Date.now() < deadline && !timeUp?.()) {
    sleepSync(CALL_RECORD_POLL_MS);
    // Nothing appended, nothing new to find: a scan that read its whole cap is not repeated for nothing.
    const now = sizeOf(transcript);
    if (now !== undefined && now === size) continue;
    size = now;
    measurement = read();
  }
  if (awaitedCall(measurement, input.tool_use_id) !== undefined)
    debug(
      `the record of call ${input.tool_use_id} did not reach the transcript within ${CALL_RECORD_WAIT_MS} ms; judging the newest turn there`,
    );
  return measurement;
}

/**
 * Why the calling turn's record is still to come (what the debug channel says), or undefined when it is there or
 * nothing will bring it: the newest turn holds another call, or the transcript, which exists and can be read, has no
 * turn within reach. A transcript that does not exist or cannot be read is not waited for: a session that keeps none
 * would wait on every call.
 */
function awaitedCall(measurement: Measurement, callId: string | undefined): string | undefined {
  if (callId === undefined) return undefined;
  if (measurement.callSeen === false) return 'the newest turn does not hold call';
  const { occupancy } = measurement;
  if (occupancy.kind === 'unavailable' && (occupancy.reason === 'no-usage' || occupancy.reason === 'scan-cap'))
    return `no turn within reach (${occupancy.reason}) holds call`;
  return undefined;
}

/** The transcript's size now, or undefined when it cannot be told (read it again). */
function sizeOf(path: string): number | undefined {
  try {
    return statSync(path).size;
  } catch {
    return undefined;
  }
}

/** Claude Code's own count replaces the transcript's (the transcript still serves dedup's compaction check and the model). */
function withSdkOccupancy(measurement: Measurement, sdk: SdkContextUsage): Measurement {
  return {
    ...measurement,
    occupancy: { kind: 'measured', tokens: sdk.occupancyTokens, source: 'usage' },
    error: undefined,
    preTokens: undefined,
  };
}

/**
 * The transcript that describes the calling context. Inside a subagent the input's transcript_path is
 * still the main session's; the subagent's own file sits beside it (CLAUDE-CODE-FACTS.md, "Subagents"),
 * or, for a subagent of a Workflow, under subagents/workflows/<run>/ (2.1.331).
 */
export function measuredTranscript(input: Pick<PreToolUseInput, 'transcript_path' | 'agent_id' | 'cwd'>): string | undefined {
  const main = isAbsolute(input.transcript_path) ? input.transcript_path : resolve(input.cwd ?? '.', input.transcript_path);
  if (input.agent_id === undefined) return main;
  if (!isSafeId(input.agent_id)) return undefined;
  return locateSubagentTranscript(join(main.replace(/\.jsonl$/, ''), 'subagents'), `agent-${input.agent_id}.jsonl`);
}
