/**
 * Every hook event the product registers, declared once: plugin/hooks/hooks.json (written by the build),
 * install, uninstall, doctor, the hook runner, `hook --help`, README's hook table and docs/hooks.md all
 * come from or are checked against this table (test/unit/hook-table.test.ts).
 */

/** The capability loads the guard judges: subagents (`Agent`, `Task` before 2.1.63), skills, and workflows of subagents. */
export const GUARD_MATCHER = 'Agent|Task|Skill|Workflow';

/** The writes after which the orchestration file's staleness is judged. */
export const WRITE_MATCHER = 'Write|Edit|MultiEdit';

export type HookSpec = {
  /** Claude Code's event name. */
  event: string;
  /** The runner's name for it: `node hook.cjs <name>`, `context-ceiling hook <name>`. */
  name: string;
  /** Claude Code's matcher (tool names), when the event has one. */
  matcher?: string;
  /** Seconds Claude Code waits (its default is 600; 30 for UserPromptSubmit). */
  timeout: number;
  /** What people call it (README's table). */
  role: string;
  /** One line on what it does (README, `hook --help`). */
  does: string;
};

export const HOOK_TABLE = [
  {
    event: 'PreToolUse',
    name: 'pre-tool-use',
    matcher: GUARD_MATCHER,
    timeout: 10,
    role: 'guard',
    does: 'warns or blocks capability loads over the ceiling',
  },
  {
    event: 'UserPromptSubmit',
    name: 'user-prompt-submit',
    timeout: 10,
    role: 'monitor',
    does: 'the <context-monitor> status on every prompt, and a pending compaction alert',
  },
  {
    event: 'PreCompact',
    name: 'pre-compact',
    timeout: 30,
    role: 'checkpoint',
    does: 'writes a checkpoint before Claude Code compacts, and tells its summariser what the summary must keep',
  },
  {
    event: 'PostCompact',
    name: 'post-compact',
    timeout: 10,
    role: 'kept summary',
    does: "keeps Claude Code's compact_summary beside the checkpoint, with the must-keep items it dropped",
  },
  {
    event: 'SessionStart',
    name: 'session-start',
    timeout: 10,
    role: 're-orientation',
    does: 'the compaction alert right after a compaction; the resumption context after /clear or at startup',
  },
  {
    event: 'PostToolUse',
    name: 'post-tool-use',
    matcher: WRITE_MATCHER,
    timeout: 10,
    role: 'staleness',
    does: 'after a write of ORCHESTRATION.yaml, warns when its resumption section is stale',
  },
] as const satisfies readonly HookSpec[];

export type HookName = (typeof HOOK_TABLE)[number]['name'];

// Pure, as ENTRY_NAMES below: a hook bundle that reads neither builds neither, nor the table (~65 K instructions a run).
export const HOOK_NAMES: readonly HookName[] = /* @__PURE__ */ HOOK_TABLE.map((spec) => spec.name);

/** Entries the recovery skill runs (not hooks: no stdin input; the skill's shell may keep stdin open). */
export const SKILL_COMMANDS = ['save-checkpoint'] as const;

export type EntryName = HookName | (typeof SKILL_COMMANDS)[number];

export function isEntryName(name: string | undefined): name is EntryName {
  return name !== undefined && ((HOOK_NAMES as readonly string[]).includes(name) || (SKILL_COMMANDS as readonly string[]).includes(name));
}

export { entryBundleFile } from './entry-bundle.js';

/** Every entry's name: the hooks, then the skill's commands. */
export const ENTRY_NAMES: readonly EntryName[] = /* @__PURE__ */ (HOOK_NAMES as readonly EntryName[]).concat(SKILL_COMMANDS);

/** The tools a matcher names (`Write|Edit|MultiEdit` → Write, Edit, MultiEdit). */
export function matcherTools(matcher: string): readonly string[] {
  return matcher.split('|');
}

/**
 * How Node runs the hook launcher, on every install route. `--preserve-symlinks-main` spares each hook Node's
 * realpath walk of the main script (an lstat per folder of its path: ~1 M instructions of a ~95 M hook at a
 * plugin cache's depth, bench/RESULTS.md); the launcher finds its bundles beside the path it was run by, which
 * holds them on every route (the folder is copied whole; a linked folder resolves as before). Every supported Node
 * has the flag.
 */
export const NODE_HOOK = 'node --preserve-symlinks-main';

/**
 * What runs the hook launcher: `auto` (the default, on every route) is Bun where it is installed, else Node;
 * `node` is Node always (`install --runtime node`).
 */
export type HookRuntime = 'auto' | 'node';

/**
 * The command that runs `name` from the launcher in `runtimeDir` (which may start with $CLAUDE_PROJECT_DIR or
 * ${CLAUDE_PLUGIN_ROOT}). `auto` asks the shell Claude Code runs it in whether `bun` is on the PATH each time (a
 * builtin, no extra process) and runs the same bundle with Bun if so, with Node otherwise, so installing or
 * removing Bun later never breaks a hook; `exec` spares the shell's fork either way. Under a Bun older than the
 * one the suite passes with, the launcher hands the run to Node (core/bun-floor.ts).
 */
export function hookCommand(runtimeDir: string, name: string, runtime: HookRuntime = 'auto'): string {
  const script = `"${runtimeDir}/hook.cjs" ${name}`;
  if (runtime === 'node') return `${NODE_HOOK} ${script}`;
  return `if ${BUN_PRESENT} >/dev/null 2>&1; then exec bun ${script}; else exec ${NODE_HOOK} ${script}; fi`;
}

/** The test an `auto` hook command (one that runs Bun where installed) opens with. */
export const BUN_PRESENT = 'command -v bun';

/** plugin/hooks/hooks.json as Claude Code reads it, each command run through the plugin root, Bun where installed. */
export function renderPluginHooks(description: string): string {
  const hooks = Object.fromEntries(
    HOOK_TABLE.map((spec: HookSpec) => [
      spec.event,
      [
        {
          ...(spec.matcher ? { matcher: spec.matcher } : {}),
          hooks: [{ type: 'command', command: hookCommand('${CLAUDE_PLUGIN_ROOT}/dist', spec.name), timeout: spec.timeout }],
        },
      ],
    ]),
  );
  return `${JSON.stringify({ description, hooks }, null, 2)}\n`;
}

/** The one line for an entry name that is not one (a wiring mistake, not hook input). */
export function unknownEntryMessage(name: string | undefined): string {
  return `context-ceiling: unknown hook event ${JSON.stringify(name ?? '')}; expected one of ${[...HOOK_NAMES, ...SKILL_COMMANDS].join(', ')}\n`;
}
