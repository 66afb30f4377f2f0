/**
 * The hooks install writes, written out by hand: tests compare against this, never against
 * HOOK_SPECS or hookCommand, so the code under test cannot build its own expectation.
 */
export function expectedHooks(runtimeDir: string, runtime: 'node' | 'bun' = 'node'): Record<string, unknown> {
  const command = (name: string) =>
    runtime === 'node'
      ? `node --preserve-symlinks-main "${runtimeDir}/hook.cjs" ${name}`
      : `if command -v bun >/dev/null 2>&1; then bun "${runtimeDir}/hook.cjs" ${name}; else node --preserve-symlinks-main "${runtimeDir}/hook.cjs" ${name}; fi`;
  const entry = (name: string, timeout: number, matcher?: string) => [
    { ...(matcher ? { matcher } : {}), hooks: [{ type: 'command', command: command(name), timeout }] },
  ];
  return {
    PreToolUse: entry('pre-tool-use', 10, 'Agent|Task|Skill|Workflow'),
    UserPromptSubmit: entry('user-prompt-submit', 10),
    PreCompact: entry('pre-compact', 30),
    PostCompact: entry('post-compact', 10),
    SessionStart: entry('session-start', 10),
    PostToolUse: entry('post-tool-use', 10, 'Write|Edit|MultiEdit'),
  };
}
