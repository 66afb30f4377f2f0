/**
 * The guard as an Agent SDK hook, for automated sessions:
 *
 *   import { query, type Query } from '@anthropic-ai/claude-agent-sdk';
 *   import { createCeilingGuard } from 'context-ceiling';
 *   let q: Query;
 *   const guard = createCeilingGuard({ strict: true, contextUsage: () => q.getContextUsage({ detail: 'summary' }) });
 *   q = query({ prompt, options: { hooks: { PreToolUse: [guard] } } });
 *
 * With `contextUsage` the guard judges by Claude Code's own numbers for the
 * session (window and occupancy, provenance `sdk`); without it, by the
 * transcript and a stated `window` (an assumed window only warns).
 * Same pipeline, rules and messages as the command hook (it consumes the guard's result); a block
 * becomes permissionDecision "deny" with the reason the model receives.
 */
import { homedir } from 'node:os';
import type { HookCallbackMatcher, HookInput, HookJSONOutput } from '@anthropic-ai/claude-agent-sdk';
import { ENV } from '../core/env-names.js';
import { GUARD_MATCHER } from '../core/hook-table.js';
import type { ToolAction } from '../core/policy.js';
import type { HookHost, SdkContextUsage } from '../runtime/host.js';
import { guardProtocolOutput, judgePreToolUse } from '../hooks/pre-tool-use.js';
import { linkedServices } from '../hooks/linked-services.js';
import { describeError, SDK_GUARD_EVENT } from '../io/last-error.js';
import { failedOpen } from '../runtime/run.js';

export type CeilingGuardOptions = {
  /** Block (deny) instead of warn over the ceiling. */
  strict?: boolean;
  /** Ceiling, percent of the window (1-100). */
  ceilingPct?: number;
  /** Context window in tokens, for a model Claude Code's table does not know (else the session's own is used). */
  window?: number;
  /** Per-tool action, e.g. { Skill: 'block', Agent: 'warn' }. */
  tools?: Record<string, ToolAction>;
  /** Skills never gated; the first is the one the guard recommends. */
  recoverySkills?: string[];
  /** A policy file (as DEV_TEAM_CONTEXT_POLICY). */
  policyFile?: string;
  /** Private state directory for warning dedup. */
  stateDir?: string;
  /** Base environment (default process.env); the options above override its DEV_TEAM_CONTEXT_* values. */
  env?: Record<string, string | undefined>;
  /** Project directory for policy files (default: the hook input's cwd). */
  projectDir?: string;
  /**
   * Claude Code's own context numbers for the session, asked at each gated call:
   * pass `() => q.getContextUsage({ detail: 'summary' })` (answers from the last usage, no extra API call).
   */
  contextUsage?: () => Promise<{ maxTokens: number; totalTokens: number }>;
  /** Called with every decision, for logging. */
  onDecision?: (decision: CeilingDecision) => void;
};

/**
 * `deduplicated`: a warning its 5-point bucket already gave since the last compaction, so the session was not
 * told again (`message` is what it would have said). `reason`: why, e.g. `below-ceiling`, `over-ceiling-blocked`,
 * `recovery-skill`, or `failed-open unexpected-error` (the guard failed, the call went through, `message` says
 * what failed and the state directory keeps it as the last error `status` and `doctor` show). `notice`: a one-time word to the person about the window (an unknown model, a stated window
 * the session outgrew).
 */
export type CeilingDecision = {
  toolName: string;
  outcome: 'allow' | 'warn' | 'block' | 'deduplicated';
  reason: string;
  message?: string | undefined;
  notice?: string | undefined;
};

/** Options as the DEV_TEAM_CONTEXT_* values the command hook reads; options win over the base environment. */
export function ceilingGuardEnv(options: CeilingGuardOptions): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...(options.env ?? process.env) };
  if (options.strict !== undefined) env[ENV.strict] = options.strict ? 'on' : 'off';
  if (options.ceilingPct !== undefined) env[ENV.ceilingPct] = String(options.ceilingPct);
  if (options.window !== undefined) env[ENV.window] = String(options.window);
  if (options.tools !== undefined)
    env[ENV.tools] = Object.entries(options.tools)
      .map(([tool, action]) => `${tool}=${action}`)
      .join(',');
  if (options.recoverySkills !== undefined) env[ENV.recoverySkills] = options.recoverySkills.join(',');
  if (options.policyFile !== undefined) env[ENV.policy] = options.policyFile;
  if (options.stateDir !== undefined) env[ENV.stateDir] = options.stateDir;
  if (options.projectDir !== undefined) env.CLAUDE_PROJECT_DIR = options.projectDir;
  return env;
}

/** A PreToolUse matcher for the SDK's `hooks` option, on the capability loads the command hook gates (Agent, Task, Skill, Workflow). */
export function createCeilingGuard(options: CeilingGuardOptions = {}): HookCallbackMatcher {
  const env = ceilingGuardEnv(options);
  const parsers = linkedServices();
  // ignoredPaths: the program's own environment; Claude Code's settings env reaches command hooks, not this process.
  const host: HookHost = {
    ...parsers,
    env,
    cwd: process.cwd(),
    home: homedir(),
    writeStderr: () => {},
    now: () => new Date(),
    ignoredPaths: [],
  };
  return {
    matcher: GUARD_MATCHER,
    hooks: [
      async (input: HookInput): Promise<HookJSONOutput> => {
        if (input.hook_event_name !== 'PreToolUse') return {};
        const sdk = options.contextUsage ? await askContextUsage(options.contextUsage) : undefined;
        let output: HookJSONOutput;
        let decision: CeilingDecision;
        try {
          const result = judgePreToolUse(JSON.stringify(input), sdk ? { ...host, sdk } : host, { wordDeduplicated: true });
          const message = result.outcome === 'allow' ? undefined : result.texts?.stderr;
          decision = { toolName: input.tool_name, outcome: result.outcome, reason: result.reason, message, notice: result.notice };
          output = guardProtocolOutput(result) ?? {};
        } catch (error) {
          // Never into the user's agent: the call goes through, the error is kept where status and doctor look.
          const failed = failedOpen(SDK_GUARD_EVENT, describeError(error), host);
          decision = { toolName: String(input.tool_name), outcome: 'allow', reason: failed.reason, message: failed.stderr.trimEnd() };
          output = {};
        }
        options.onDecision?.(decision);
        return output;
      },
    ],
  };
}

/** How long a gated call waits for Claude Code's answer (measured: ~35 ms) before falling back to the transcript. */
const CONTEXT_USAGE_TIMEOUT_MS = 2_000;

/** The SDK's answer as guard facts; undefined (fall back to the transcript) when it fails, is slow or is not sane. */
async function askContextUsage(ask: NonNullable<CeilingGuardOptions['contextUsage']>): Promise<SdkContextUsage | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), CONTEXT_USAGE_TIMEOUT_MS);
    });
    const usage = await Promise.race([ask(), timeout]);
    const sane = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
    if (!usage || !sane(usage.maxTokens) || usage.maxTokens < 1000 || !sane(usage.totalTokens)) return undefined;
    return { windowTokens: usage.maxTokens, occupancyTokens: usage.totalTokens };
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}
