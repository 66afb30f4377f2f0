/**
 * What `install` and `uninstall` do to a settings.json object, as pure
 * functions: the hooks we add (one table, also the source of plugin/hooks/hooks.json),
 * how they are recognised, and the merge that leaves everything else alone.
 */
import { BUN_PRESENT, HOOK_TABLE, type HookRuntime, type HookSpec, hookCommand, NODE_HOOK } from './hook-table.js';

export type { HookRuntime } from './hook-table.js';
import { isObject } from './json-shape.js';

/** The hooks install writes: the one table (core/hook-table.ts). */
const HOOK_SPECS: readonly HookSpec[] = HOOK_TABLE;

/**
 * The status line command, run as the hooks are (hookCommand: Bun where installed unless Node is asked for), wrapping
 * the user's own status line command when there was one.
 */
export function statusLineCommand(runtimeDir: string, wrap: string | undefined, runtime: HookRuntime = 'auto'): string {
  const script = `"${runtimeDir}/statusline.cjs"${wrap === undefined ? '' : ` --wrap '${wrap.replace(/'/g, `'\\''`)}'`}`;
  if (runtime === 'node') return `${NODE_HOOK} ${script}`;
  return `if ${BUN_PRESENT} >/dev/null 2>&1; then exec bun ${script}; else exec ${NODE_HOOK} ${script}; fi`;
}

/** The user's command a status line command of ours wraps (the first --wrap: an auto command names it in both runs). */
const WRAPPED = /--wrap '((?:[^']|'\\'')*)'(?:\s*$|;)/;

/**
 * The recovery skill as install copies it: the plugin's copy finds the hook
 * bundle through ${CLAUDE_PLUGIN_ROOT}, which Claude Code substitutes only in
 * a plugin's skills; a copied skill reaches the runtime from its own folder
 * (${CLAUDE_SKILL_DIR}, substituted in every skill; verified on 2.1.328).
 */
export function installedSkillText(pluginText: string, runtimeFromSkillDir: string): string {
  return pluginText.split('${CLAUDE_PLUGIN_ROOT}/dist').join(`\${CLAUDE_SKILL_DIR}/${runtimeFromSkillDir}`);
}

const OUR_STATUS_LINE = /context-ceiling[^"]*\/statusline\.cjs"/;

export function isOurStatusLine(value: unknown): boolean {
  return typeof value === 'object' && value !== null && OUR_STATUS_LINE.test(String((value as Record<string, unknown>).command ?? ''));
}

// The name ends the command (Node) or the first of its two runs (auto, `...; else exec node ...; fi`; before `exec`, without it).
const OURS = new RegExp(`context-ceiling[^"]*/hook\\.cjs"?\\s+(${HOOK_SPECS.map((s) => s.name).join('|')})(?:\\s*$|;)`);

/** The hook name of a command install wrote (any runtime location), or undefined for anyone else's command. */
export function ourHookName(command: unknown): string | undefined {
  return typeof command === 'string' ? OURS.exec(command)?.[1] : undefined;
}

export type EnvChange = { key: string; value: string; previous: string | undefined };

/** What install created and uninstall may therefore delete once it is empty again. */
export type Created = {
  hooksObject: boolean;
  events: string[];
  envObject: boolean;
  /** The statusLine install replaced (wrapped), restored by uninstall; null when there was none. */
  statusLine?: { previous: unknown } | undefined;
};

export type Plan = { settings: Record<string, unknown>; actions: string[]; env: EnvChange[]; created: Created };

/** What uninstall knows about the install it undoes (from the install record); unknown means "delete what ends up empty". */
export type InstallMemory = { env: readonly EnvChange[]; created?: Created | undefined };

export class SettingsShapeError extends Error {}

type Entry = { matcher?: unknown; hooks?: unknown; [key: string]: unknown };
type Hook = { type?: unknown; command?: unknown; timeout?: unknown; [key: string]: unknown };

/**
 * Add (or update in place) our hook for every event; keep every other key,
 * entry and hook as it was. Running it on its own output changes nothing.
 */
export type InstallOptions = {
  statusLine?: boolean;
  /** What runs the hooks (auto: Bun where installed, else Node, unless Node is asked for). */
  runtime?: HookRuntime;
  /** The env values an earlier install set (its record): kept, updated, or removed when no longer asked for. */
  owned?: readonly EnvChange[];
  /** The earlier install created the "env" object, so it may go once empty. */
  ownedEnvObject?: boolean;
};

/**
 * Add (or update in place) our hook for every event; keep every other key,
 * entry and hook as it was. Running it on its own output changes nothing.
 * `plan.env` is every env value install owns afterwards (what uninstall restores).
 */
export function planInstall(input: unknown, runtimeDir: string, env: Record<string, string>, options: InstallOptions = {}): Plan {
  const settings = structuredClone(asSettings(input));
  const actions: string[] = [];
  const created: Created = { hooksObject: settings.hooks === undefined, events: [], envObject: false };
  const hooks = objectAt(settings, 'hooks');
  for (const spec of HOOK_SPECS) {
    if (hooks[spec.event] === undefined) created.events.push(spec.event);
    const entries = arrayAt(hooks, spec.event);
    const desired: Hook = { type: 'command', command: hookCommand(runtimeDir, spec.name, options.runtime), timeout: spec.timeout };
    const found = findOurs(entries, spec.name);
    if (found.length === 0) {
      entries.push(spec.matcher === undefined ? { hooks: [desired] } : { matcher: spec.matcher, hooks: [desired] });
      actions.push(`+ ${spec.event}${spec.matcher ? ` [${spec.matcher}]` : ''}: ${desired.command}`);
      continue;
    }
    const [first, ...extra] = found;
    const { entry, hook } = first!;
    const sameMatcher = (entry.matcher ?? undefined) === spec.matcher;
    const sameHook = hook.type === desired.type && hook.command === desired.command && hook.timeout === desired.timeout;
    for (const duplicate of extra) removeHook(entries, duplicate.entry, duplicate.hook);
    if (extra.length > 0) actions.push(`- ${spec.event}: ${extra.length} duplicate context-ceiling hook(s) removed`);
    if (sameMatcher && sameHook) continue;
    if (sameMatcher || (entry.hooks as Hook[]).length === 1) {
      Object.assign(hook, desired);
      if (spec.matcher === undefined) delete entry.matcher;
      else entry.matcher = spec.matcher;
    } else {
      removeHook(entries, entry, hook);
      entries.push(spec.matcher === undefined ? { hooks: [desired] } : { matcher: spec.matcher, hooks: [desired] });
    }
    actions.push(`~ ${spec.event}${spec.matcher ? ` [${spec.matcher}]` : ''}: ${desired.command}`);
  }
  const envChanges = planEnv(settings, env, options, actions, created);
  if (options.statusLine) planStatusLine(settings, runtimeDir, options.runtime ?? 'auto', created, actions);
  return { settings, actions, env: envChanges, created };
}

/**
 * Converge the settings' env on `env`: set what is asked for (remembering the
 * user's own earlier value), and undo what an earlier install set and this one
 * no longer asks for, unless the user has changed it since.
 */
function planEnv(
  settings: Record<string, unknown>,
  env: Record<string, string>,
  options: InstallOptions,
  actions: string[],
  created: Created,
): EnvChange[] {
  const ownedList = options.owned ?? [];
  const owned = new Map(ownedList.map((change) => [change.key, change]));
  const result: EnvChange[] = [];
  if (Object.keys(env).length > 0) {
    created.envObject = settings.env === undefined || options.ownedEnvObject === true;
    const target = objectAt(settings, 'env');
    for (const [key, value] of Object.entries(env)) {
      const mine = owned.get(key);
      const current = target[key];
      if (current === value) {
        if (mine?.value === value) result.push(mine);
        continue;
      }
      const previous = mine && current === mine.value ? mine.previous : typeof current === 'string' ? current : undefined;
      result.push({ key, value, previous });
      target[key] = value;
      actions.push(`${current === undefined ? '+' : '~'} env ${key}=${value}`);
    }
  }
  const target = settings.env;
  if (!isObject(target)) return result;
  let removed = false;
  for (const change of ownedList) {
    if (Object.hasOwn(env, change.key) || target[change.key] !== change.value) continue; // asked for again, or the user's value now
    if (change.previous === undefined) delete target[change.key];
    else target[change.key] = change.previous;
    actions.push(change.previous === undefined ? `- env ${change.key}` : `~ env ${change.key}=${change.previous} (restored)`);
    removed = true;
  }
  if (removed && Object.keys(target).length === 0 && options.ownedEnvObject === true) delete settings.env;
  return result;
}

/** Point statusLine at ours; a user's own command is kept running, wrapped, and restored by uninstall. */
function planStatusLine(
  settings: Record<string, unknown>,
  runtimeDir: string,
  runtime: HookRuntime,
  created: Created,
  actions: string[],
): void {
  const current = settings.statusLine;
  if (current !== undefined && !isObject(current)) throw new SettingsShapeError('"statusLine" must be an object');
  let wrap: string | undefined;
  if (isOurStatusLine(current)) {
    wrap = WRAPPED.exec(String((current as Record<string, unknown>).command))?.[1]?.replace(/'\\''/g, "'");
  } else if (current !== undefined) {
    wrap = typeof current.command === 'string' ? current.command : undefined;
    created.statusLine = { previous: structuredClone(current) };
  } else {
    created.statusLine = { previous: null };
  }
  const desired = { type: 'command', command: statusLineCommand(runtimeDir, wrap, runtime) };
  if (isObject(current) && current.type === desired.type && current.command === desired.command) return;
  settings.statusLine = { ...(isObject(current) && isOurStatusLine(current) ? current : {}), ...desired };
  actions.push(`${current === undefined ? '+' : '~'} statusLine: ${desired.command}`);
}

/**
 * Remove every hook install wrote, the entries and event lists that held only
 * those, and the env values it set (restoring what was there before).
 */
export function planUninstall(input: unknown, memory: InstallMemory): Plan {
  const settings = structuredClone(asSettings(input));
  const actions: string[] = [];
  const mayDelete = (created: boolean | undefined) => memory.created === undefined || created === true;
  const hooks = settings.hooks;
  if (isObject(hooks)) {
    for (const [event, list] of Object.entries(hooks)) {
      if (!Array.isArray(list)) continue;
      let removed = 0;
      const kept = list.filter((entry: Entry) => {
        if (!isObject(entry) || !Array.isArray(entry.hooks)) return true;
        const before = entry.hooks.length;
        entry.hooks = entry.hooks.filter((hook: Hook) => !(isObject(hook) && ourHookName(hook.command)));
        removed += before - (entry.hooks as Hook[]).length;
        return !(before > 0 && (entry.hooks as Hook[]).length === 0);
      });
      if (removed === 0) continue;
      actions.push(`- ${event}: ${removed} context-ceiling hook(s)`);
      if (kept.length === 0 && mayDelete(memory.created?.events.includes(event))) delete hooks[event];
      else hooks[event] = kept;
    }
    if (actions.length > 0 && Object.keys(hooks).length === 0 && mayDelete(memory.created?.hooksObject)) delete settings.hooks;
  }
  const target = settings.env;
  if (isObject(target)) {
    for (const change of memory.env) {
      if (target[change.key] !== change.value) continue; // changed since: leave the user's value
      if (change.previous === undefined) delete target[change.key];
      else target[change.key] = change.previous;
      actions.push(`- env ${change.key}`);
    }
    if (memory.env.length > 0 && Object.keys(target).length === 0 && mayDelete(memory.created?.envObject)) delete settings.env;
  }
  if (isOurStatusLine(settings.statusLine)) {
    const previous = memory.created?.statusLine?.previous;
    if (previous !== undefined && previous !== null) settings.statusLine = previous;
    else delete settings.statusLine;
    actions.push(previous ? '~ statusLine: restored the previous command' : '- statusLine');
  }
  return { settings, actions, env: [], created: { hooksObject: false, events: [], envObject: false } };
}

function findOurs(entries: Entry[], name: string): Array<{ entry: Entry; hook: Hook }> {
  const found: Array<{ entry: Entry; hook: Hook }> = [];
  for (const entry of entries) {
    if (!isObject(entry) || !Array.isArray(entry.hooks)) continue;
    for (const hook of entry.hooks as Hook[]) if (isObject(hook) && ourHookName(hook.command) === name) found.push({ entry, hook });
  }
  return found;
}

function removeHook(entries: Entry[], entry: Entry, hook: Hook): void {
  entry.hooks = (entry.hooks as Hook[]).filter((h) => h !== hook);
  if ((entry.hooks as Hook[]).length === 0) entries.splice(entries.indexOf(entry), 1);
}

function asSettings(input: unknown): Record<string, unknown> {
  if (input === undefined) return {};
  if (!isObject(input)) throw new SettingsShapeError('the settings file must hold a JSON object');
  return input;
}

function objectAt(parent: Record<string, unknown>, key: string): Record<string, unknown> {
  const value = parent[key];
  if (value === undefined) {
    const created: Record<string, unknown> = {};
    parent[key] = created;
    return created;
  }
  if (!isObject(value)) throw new SettingsShapeError(`"${key}" must be an object`);
  return value;
}

function arrayAt(parent: Record<string, unknown>, key: string): Entry[] {
  const value = parent[key];
  if (value === undefined) {
    const created: Entry[] = [];
    parent[key] = created;
    return created;
  }
  if (!Array.isArray(value)) throw new SettingsShapeError(`"hooks.${key}" must be an array`);
  return value as Entry[];
}
