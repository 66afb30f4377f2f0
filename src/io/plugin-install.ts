/**
 * Where Claude Code runs an enabled context-ceiling plugin from, read from its own
 * records under ~/.claude/plugins (verified on 2.1.328 and 2.1.331; test/e2e/plugin-routes.test.ts).
 * A marketplace added from a folder runs the plugin from that folder (`<clone>/plugin`; the
 * copy under plugins/cache/ is not used), so moving the folder disables it without a word.
 * One added from a git URL runs the copy under plugins/cache/, and needs its clone under
 * plugins/marketplaces/ too.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { join } from './join-path.js';
import { isObject } from '../core/json-shape.js';
import type { PluginInstall } from '../core/settings-env.js';
import { claudeConfigDir } from './locate.js';
import { readRegularText } from './read-safe.js';

/** Far above any real record; a bigger file is not read. */
const MAX_RECORD_BYTES = 4 * 1024 * 1024;

export type PluginLocation =
  /** `folder` is what CLAUDE_PLUGIN_ROOT will be; `missing` is the first thing it needs that is gone. */
  | {
      kind: 'found';
      from: 'folder' | 'copy';
      folder: string;
      missing: string | undefined;
      /** Where the folder's path came from: Claude Code's records in the user's home, or a settings file's declaration. */
      namedBy: 'records' | 'settings';
    }
  | { kind: 'not-installed'; records: string };

type Env = Readonly<Record<string, string | undefined>>;

/** Claude Code's plugin records: CLAUDE_CODE_PLUGIN_CACHE_DIR, else <config dir>/plugins. */
export function pluginsDir(env: Env, home: string): string {
  return env.CLAUDE_CODE_PLUGIN_CACHE_DIR || join(claudeConfigDir(env, home), 'plugins');
}

export function locatePlugin(plugin: PluginInstall, env: Env, home: string): PluginLocation {
  const records = pluginsDir(env, home);
  const known = readJson(join(records, 'known_marketplaces.json'));
  const entry = isObject(known) ? known[plugin.marketplace] : undefined;
  const source = isObject(entry) ? entry.source : plugin.declaredSource;
  if (isObject(source) && source.source === 'directory' && typeof source.path === 'string')
    return { ...fromFolder(source.path, plugin), namedBy: isObject(entry) ? 'records' : 'settings' };
  const copy = installPathOf(readJson(join(records, 'installed_plugins.json')), plugin.id);
  if (copy === undefined) return { kind: 'not-installed', records };
  const clone = isObject(entry) && typeof entry.installLocation === 'string' ? entry.installLocation : undefined;
  const missing = [clone, copy].find((dir) => dir !== undefined && !existsSync(dir));
  return { kind: 'found', from: 'copy', folder: copy, missing: missing ?? missingHooks(copy), namedBy: 'records' };
}

/** A folder marketplace: the plugin entry's relative `source` inside it (`./plugin`). */
function fromFolder(marketplace: string, plugin: PluginInstall): Omit<PluginLocation & { kind: 'found' }, 'namedBy'> {
  const manifest = readJson(join(marketplace, '.claude-plugin', 'marketplace.json'));
  const plugins = isObject(manifest) && Array.isArray(manifest.plugins) ? manifest.plugins : [];
  const entry = plugins.find((item) => isObject(item) && item.name === plugin.id.split('@')[0]);
  const relative = isObject(entry) && typeof entry.source === 'string' ? entry.source : undefined;
  if (relative === undefined) return { kind: 'found', from: 'folder', folder: marketplace, missing: marketplace };
  const folder = resolve(marketplace, relative);
  return { kind: 'found', from: 'folder', folder, missing: missingHooks(folder) };
}

function missingHooks(folder: string): string | undefined {
  return [join(folder, 'hooks', 'hooks.json'), join(folder, 'dist', 'hook.cjs')].find((file) => !existsSync(file));
}

/** installed_plugins.json: `{plugins: {<id>: [{scope, installPath, ...}]}}`. */
function installPathOf(installed: unknown, id: string): string | undefined {
  const entries = isObject(installed) && isObject(installed.plugins) ? installed.plugins[id] : undefined;
  if (!Array.isArray(entries)) return undefined;
  const withPath = entries.find((item) => isObject(item) && typeof item.installPath === 'string');
  return isObject(withPath) ? (withPath.installPath as string) : undefined;
}

function readJson(path: string): unknown {
  try {
    const text = readRegularText(path, MAX_RECORD_BYTES);
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined; // unreadable or malformed: Claude Code cannot use it either
  }
}
