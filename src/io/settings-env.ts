/**
 * Reads Claude Code's settings files (user, project, local) for their `env`
 * and `enabledPlugins`. The project's files come from a cloned repository, so
 * each read is bounded: regular files only, size-capped, never blocking on a FIFO.
 */
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { join } from './join-path.js';
import {
  mergeSettingsEnv,
  PATH_VARIABLES,
  settingsFactsOf,
  withoutRepositoryPaths,
  type EffectiveEnv,
  type RepositoryPath,
  type SettingsFacts,
  type SettingsScope,
} from '../core/settings-env.js';
import { claudeConfigDir } from './locate.js';

/** Far above any real settings file; a bigger one is not read. */
export const MAX_SETTINGS_BYTES = 1024 * 1024;

export type SettingsContext = { env: Readonly<Record<string, string | undefined>>; home: string; projectDir: string };

export type SettingsFile = { scope: SettingsScope; path: string; label: string };

export type SettingsReading = { files: SettingsFacts[]; problems: string[] };

export function settingsFilePaths(ctx: SettingsContext): SettingsFile[] {
  const userDir = claudeConfigDir(ctx.env, ctx.home);
  return [
    {
      scope: 'user',
      path: join(userDir, 'settings.json'),
      label: ctx.env.CLAUDE_CONFIG_DIR ? join(userDir, 'settings.json') : '~/.claude/settings.json',
    },
    { scope: 'project', path: join(ctx.projectDir, '.claude', 'settings.json'), label: '.claude/settings.json' },
    { scope: 'local', path: join(ctx.projectDir, '.claude', 'settings.local.json'), label: '.claude/settings.local.json' },
  ];
}

/** Every settings file that exists and parses; the others are named in `problems` (Claude Code skips them too). */
export function readSettings(ctx: SettingsContext, scopes: readonly SettingsScope[] = ['user', 'project', 'local']): SettingsReading {
  const files: SettingsFacts[] = [];
  const problems: string[] = [];
  for (const file of settingsFilePaths(ctx).filter((f) => scopes.includes(f.scope))) {
    const read = readSettingsText(file.path);
    if (read.kind === 'missing') continue;
    if (read.kind === 'error') {
      problems.push(`${file.path}: ${read.reason}`);
      continue;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(read.text);
    } catch (error) {
      problems.push(`${file.path}: not valid JSON (${(error as Error).message})`);
      continue;
    }
    files.push(settingsFactsOf(file.scope, file.label, parsed));
  }
  return { files, problems };
}

/** The environment the hooks see: the settings files' env applied over the process environment. */
export function readEffectiveEnv(ctx: SettingsContext, reading: SettingsReading = readSettings(ctx)): EffectiveEnv {
  return mergeSettingsEnv(ctx.env, reading.files);
}

/**
 * A hook's environment without the path variables the project's own settings files supplied (Claude Code
 * merged them in before the hook ran). The files are read only when a path variable is set at all, and the
 * user's own settings file only when a project file names one of them (it may set the same value: core).
 */
export function hookEnvWithoutRepositoryPaths<E extends Readonly<Record<string, string | undefined>>>(
  env: E,
  projectDir: string,
  home: string,
): { env: E; ignored: RepositoryPath[] } {
  if (!PATH_VARIABLES.some((name) => env[name])) return { env, ignored: [] };
  const ctx = { env, home, projectDir };
  const repository = readSettings(ctx, ['project', 'local']).files;
  const trusted = withoutRepositoryPaths(env, repository);
  if (trusted.ignored.length === 0) return trusted;
  return withoutRepositoryPaths(env, [...readSettings(ctx, ['user']).files, ...repository]);
}

type TextRead = { kind: 'missing' } | { kind: 'error'; reason: string } | { kind: 'ok'; text: string };

function readSettingsText(path: string): TextRead {
  let fd: number;
  try {
    // Ask first so a missing file costs no exception; stat follows a symlink, which is fine for a bounded read.
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat === undefined) return { kind: 'missing' };
    if (!stat.isFile()) return { kind: 'error', reason: 'not a regular file; ignored' };
    // O_NONBLOCK: a FIFO swapped in after the stat must not hang the command.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    return { kind: 'error', reason: `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { kind: 'error', reason: 'not a regular file; ignored' };
    if (stat.size > MAX_SETTINGS_BYTES) return { kind: 'error', reason: `larger than ${MAX_SETTINGS_BYTES} bytes; ignored` };
    const buffer = Buffer.alloc(stat.size);
    let read = 0;
    while (read < buffer.length) {
      const n = readSync(fd, buffer, read, buffer.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return { kind: 'ok', text: buffer.toString(undefined, 0, read) }; // UTF-8, the default: no encoding lookup to compile
  } catch (error) {
    return { kind: 'error', reason: `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  } finally {
    closeSync(fd);
  }
}
