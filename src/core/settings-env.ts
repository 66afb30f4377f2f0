/**
 * Claude Code applies the `env` blocks of its settings files to every session
 * (and so to every hook); the CLI merges them the same way so it describes the
 * posture the hooks actually run with. Pure: the files arrive already read.
 */
import { ENV } from './env-names.js';
import { isObject } from './json-shape.js';

/** Settings files Claude Code reads, lowest precedence first (user < project < local). */
export const SETTINGS_SCOPES = ['user', 'project', 'local'] as const;
export type SettingsScope = (typeof SETTINGS_SCOPES)[number];

/** What one settings file says that matters here. `label` names the file as a person would (`.claude/settings.json`). */
export type SettingsFacts = {
  scope: SettingsScope;
  label: string;
  env: Record<string, string>;
  enabledPlugins: Record<string, unknown>;
  /** `extraKnownMarketplaces`: marketplaces the file declares, by name (Claude Code adds them on the next start). */
  marketplaces: Record<string, unknown>;
  /** Every hook command the file registers, for any event. */
  hookCommands: string[];
  /** The file's `statusLine` command, when it has a command status line. */
  statusLineCommand?: string | undefined;
};

/** The environment a hook would see, and for each variable set by a settings file, that file's label. */
export type EffectiveEnv = { env: Record<string, string | undefined>; origins: Record<string, string> };

/** The plugin id prefix of this package in `enabledPlugins` (`context-ceiling@<marketplace>`). */
const PLUGIN_PREFIX = 'context-ceiling@';

/** Read the parts of a parsed settings file we use; anything malformed is left out, as Claude Code would. */
export function settingsFactsOf(scope: SettingsScope, label: string, parsed: unknown): SettingsFacts {
  const root = isObject(parsed) ? parsed : {};
  const env: Record<string, string> = {};
  if (isObject(root.env)) {
    for (const [name, value] of Object.entries(root.env)) {
      // Claude Code coerces scalar values to strings; objects and arrays are not environment values.
      if (typeof value === 'string') env[name] = value;
      else if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean') env[name] = String(value);
    }
  }
  return {
    scope,
    label,
    env,
    enabledPlugins: isObject(root.enabledPlugins) ? root.enabledPlugins : {},
    marketplaces: isObject(root.extraKnownMarketplaces) ? root.extraKnownMarketplaces : {},
    hookCommands: hookCommandsOf(root.hooks),
    statusLineCommand: isObject(root.statusLine) && typeof root.statusLine.command === 'string' ? root.statusLine.command : undefined,
  };
}

function hookCommandsOf(hooks: unknown): string[] {
  if (!isObject(hooks)) return [];
  const entries = Object.values(hooks).flatMap((list) => (Array.isArray(list) ? list : []));
  const handlers = entries.flatMap((entry) => (isObject(entry) && Array.isArray(entry.hooks) ? entry.hooks : []));
  return handlers.flatMap((handler) => (isObject(handler) && typeof handler.command === 'string' ? [handler.command] : []));
}

/**
 * Variables Claude Code takes from the user's settings file but never from a project's or local one: a hook
 * sees the value Claude Code was started with (verified in 2.1.328 and 2.1.331, test/e2e/settings-env.test.ts).
 * They locate the user's home, Claude Code's folder, the XDG state directory and temporary files, so a
 * repository cannot choose where the user's own policy, settings and our state are.
 */
export const USER_SCOPE_ONLY: readonly string[] = ['HOME', 'CLAUDE_CONFIG_DIR', 'XDG_STATE_HOME', 'TMPDIR'];

/**
 * The environment Claude Code gives its hooks: the process environment with
 * the settings files' env applied over it, user < project < local, less what a
 * project or local file may not set (USER_SCOPE_ONLY). Verified in 2.1.328 and
 * 2.1.331 (test/e2e/settings-env.test.ts): a settings value beats the same
 * variable exported in the shell that started Claude Code.
 */
export function mergeSettingsEnv(processEnv: Readonly<Record<string, string | undefined>>, files: readonly SettingsFacts[]): EffectiveEnv {
  const env: Record<string, string | undefined> = {};
  const origins: Record<string, string> = {};
  for (const [name, value] of Object.entries(processEnv)) if (value !== undefined) env[name] = value;
  for (const file of byPrecedence(files)) {
    for (const [name, value] of Object.entries(file.env)) {
      if (file.scope !== 'user' && USER_SCOPE_ONLY.includes(name)) continue;
      env[name] = value;
      origins[name] = file.label;
    }
  }
  return { env, origins };
}

/**
 * An enabled context-ceiling plugin: its id, the file enabling it, its marketplace's
 * name and, when a settings file declares that marketplace, the declared `source`.
 */
export type PluginInstall = { id: string; label: string; marketplace: string; declaredSource: unknown };

/** The enabled context-ceiling plugin, if any; a higher scope's `false` turns a lower scope's `true` off. */
export function findPluginInstall(files: readonly SettingsFacts[]): PluginInstall | undefined {
  const merged = new Map<string, { value: unknown; label: string }>();
  const declared = new Map<string, unknown>();
  for (const file of byPrecedence(files)) {
    for (const [id, value] of Object.entries(file.enabledPlugins)) merged.set(id, { value, label: file.label });
    for (const [name, entry] of Object.entries(file.marketplaces)) if (isObject(entry)) declared.set(name, entry.source);
  }
  for (const [id, { value, label }] of merged) {
    if (!id.startsWith(PLUGIN_PREFIX) || value !== true) continue;
    const marketplace = id.slice(PLUGIN_PREFIX.length);
    return { id, label, marketplace, declaredSource: declared.get(marketplace) };
  }
  return undefined;
}

function byPrecedence(files: readonly SettingsFacts[]): SettingsFacts[] {
  return [...files].sort((a, b) => SETTINGS_SCOPES.indexOf(a.scope) - SETTINGS_SCOPES.indexOf(b.scope));
}

/**
 * Variables whose value names a path we write to or read from: the debug log, the state directory, a policy
 * file, the orchestration file, and XDG_STATE_HOME (the default state directory lies under it). Only the
 * process environment or the user's own settings may set them (DESIGN.md, "Trust boundaries"): a repository's
 * settings `env` reaches every hook of the user's.
 */
export const PATH_VARIABLES: readonly string[] = [ENV.debug, ENV.stateDir, ENV.policy, ENV.orchestrationFile, 'XDG_STATE_HOME'];

/** A path variable whose value a project or local settings file supplied, and that file. */
export type RepositoryPath = { name: string; value: string; label: string };

/** True when `name=value` names a path (DEBUG's `1`/`on`/`off` name none). */
function namesPath(name: string, value: string): boolean {
  return name === ENV.debug ? value.startsWith('/') : value !== '';
}

/** Variables that say where the user's own settings file is: a repository setting one could forge that file. */
const LOCATES_USER_SETTINGS: readonly string[] = ['HOME', 'CLAUDE_CONFIG_DIR'];

/**
 * The environment without the path values a repository's settings supplied. Claude Code applies a project's
 * `.claude/settings.json` and `.claude/settings.local.json` env over everything else, so a hook's value that
 * equals one of theirs came from the repository; it is left out (and named). Two cases look the same:
 * - the user's own settings file (`files`' user scope) sets the same value: it is the user's choice, kept —
 *   unless a project file also sets HOME or CLAUDE_CONFIG_DIR, which would let it name that "user" file;
 * - the user exported the same value in the shell: a hook sees only the merged value, so it cannot be told
 *   from the repository's and is left out too (docs/configuration.md says to put it in ~/.claude/settings.json).
 */
export function withoutRepositoryPaths<E extends Readonly<Record<string, string | undefined>>>(
  env: E,
  files: readonly SettingsFacts[],
): { env: E; ignored: RepositoryPath[] } {
  const ignored: RepositoryPath[] = [];
  const repository = byPrecedence(files.filter((file) => file.scope !== 'user')).reverse();
  const userFileTrusted = !repository.some((file) => LOCATES_USER_SETTINGS.some((name) => name in file.env));
  const user = userFileTrusted ? files.find((file) => file.scope === 'user') : undefined;
  for (const name of PATH_VARIABLES) {
    const value = env[name];
    if (value === undefined || !namesPath(name, value)) continue;
    const from = repository.find((file) => file.env[name] === value);
    if (from && user?.env[name] !== value) ignored.push({ name, value, label: from.label });
  }
  if (ignored.length === 0) return { env, ignored };
  const kept: Record<string, string | undefined> = { ...env };
  for (const { name } of ignored) delete kept[name];
  return { env: kept as E, ignored };
}

/** One line per ignored path variable, for the debug channel, `status` and `doctor`. */
export function describeRepositoryPath(p: RepositoryPath): string {
  return `${p.name}=${JSON.stringify(p.value)} ignored: set in ${p.label}; a path is honoured only from the environment or your own settings`;
}
