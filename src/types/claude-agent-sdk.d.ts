/**
 * The few Agent SDK types src/sdk/ceiling-guard.ts is written against, so the package type-checks and builds without installing
 * the SDK (an optional peer: ~400 MB with its own copy of Claude Code). A subset of the SDK's own declarations,
 * same names and shapes. The published dist/index.d.ts still imports HookCallbackMatcher from the real package, and
 * test/e2e/sdk-types.test.ts compiles the README's SDK example against the real SDK the e2e suite installs.
 */
declare module '@anthropic-ai/claude-agent-sdk' {
  type BaseHookInput = {
    session_id: string;
    transcript_path: string;
    cwd: string;
    prompt_id?: string;
    permission_mode?: string;
    agent_id?: string;
    agent_type?: string;
  };

  export type PreToolUseHookInput = BaseHookInput & {
    hook_event_name: 'PreToolUse';
    tool_name: string;
    tool_input: unknown;
    tool_use_id: string;
  };

  /** In the SDK a union over every hook event; the guard only reads PreToolUse. */
  export type HookInput =
    | PreToolUseHookInput
    | (BaseHookInput & { hook_event_name: 'PostToolUse' | 'UserPromptSubmit' | 'SessionStart' | 'PreCompact' | 'Stop' });

  export type PreToolUseHookSpecificOutput = {
    hookEventName: 'PreToolUse';
    permissionDecision?: 'allow' | 'deny' | 'ask' | 'defer';
    permissionDecisionReason?: string;
    updatedInput?: Record<string, unknown>;
    additionalContext?: string;
  };

  export type HookJSONOutput = {
    continue?: boolean;
    suppressOutput?: boolean;
    stopReason?: string;
    systemMessage?: string;
    reason?: string;
    hookSpecificOutput?: PreToolUseHookSpecificOutput;
  };

  export type HookCallback = (input: HookInput, toolUseID: string | undefined, options: { signal: AbortSignal }) => Promise<HookJSONOutput>;

  export interface HookCallbackMatcher {
    matcher?: string;
    hooks: HookCallback[];
    /** Timeout in seconds for all hooks in this matcher. */
    timeout?: number;
  }
}
