/**
 * The hooks install writes, written out by hand: tests compare against this, never against
 * HOOK_SPECS or hookCommand, so the code under test cannot build its own expectation.
 */
export function expectedHooks(runtimeDir: string, runtime: 'auto' | 'node' = 'auto'): Record<string, unknown> {
  const command = (name: string) => expectedCommand(runtimeDir, name, runtime);
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

/** One hook's command: by default (auto) Bun where the shell finds it, else Node; `node` is Node only. */
export function expectedCommand(runtimeDir: string, name: string, runtime: 'auto' | 'node' = 'auto'): string {
  return runtime === 'node'
    ? `node --preserve-symlinks-main "${runtimeDir}/hook.cjs" ${name}`
    : `if command -v bun >/dev/null 2>&1; then exec bun "${runtimeDir}/hook.cjs" ${name}; else exec node --preserve-symlinks-main "${runtimeDir}/hook.cjs" ${name}; fi`;
}
