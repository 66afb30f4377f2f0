/** Where install and uninstall act: the settings file of a scope, its install record, and the runtime its hooks run. */
import { basename, dirname, relative, sep } from 'node:path';
import { join } from '../io/join-path.js';
import { ENTRY_NAMES, entryBundleFile } from '../core/hook-table.js';
import type { Created, EnvChange } from '../core/install-plan.js';
import { bundleDir } from '../io/bundle-dir.js';
import { projectDirOf } from './project.js';
import type { CliIO } from './command.js';
import { UsageError } from './errors.js';
import { cliMessage } from './messages.js';

/** The bundles a hook needs at run time; copied as a unit so the hooks survive the package moving (npx). */
export const RUNTIME_FILES: readonly string[] = [
  'hook.cjs',
  ...ENTRY_NAMES.map(entryBundleFile),
  'launch-failed.cjs',
  'policy-parse.cjs',
  'yaml-parse.cjs',
  'statusline.cjs',
  'statusline-main.cjs',
];

/** Runtime files earlier versions wrote and this one no longer does: install and uninstall remove them once proven ours. */
export const RETIRED_RUNTIME_FILES: readonly string[] = ['hook-events.cjs', 'guard-voice.cjs'];

export type Scope = 'project' | 'local' | 'user';

export type Target = {
  scope: Scope;
  settingsPath: string;
  /** Where the install record lives: what uninstall removes. */
  recordPath: string;
  projectDir: string;
};

/**
 * What install did, beside the settings it changed. Uninstall trusts none of
 * its paths (a project's record is a committed file): it derives every path
 * from the scope and uses the record only for hashes and earlier values.
 */
export type InstallRecord = {
  version: string;
  settingsPath: string;
  runtimeDir: string | null;
  runtimeCopied: boolean;
  /** sha256 of each runtime file as written, so a later uninstall can prove it wrote them. */
  runtimeHashes?: Record<string, string>;
  /** sha256 of the recovery skill as written; absent when another skill of that name was there. */
  skillHash?: string | undefined;
  env: EnvChange[];
  /** What the first install created (uninstall deletes those once empty). */
  created: Created;
  installedAt: string;
};

/** The scope the flags chose (one at most; project by default) and its files. */
export function target(io: CliIO, flags: Record<string, unknown>, usage: string): Target {
  const chosen = (['project', 'local', 'user'] as const).filter((scope) => flags[scope] === true);
  if (chosen.length > 1) throw new UsageError(cliMessage('install.one-scope'), usage);
  const scope: Scope = chosen[0] ?? 'project';
  const projectDir = projectDirOf(io);
  const claudeDir = scope === 'user' ? join(io.home, '.claude') : join(projectDir, '.claude');
  const settingsPath = join(claudeDir, scope === 'local' ? 'settings.local.json' : 'settings.json');
  return {
    scope,
    settingsPath,
    projectDir,
    recordPath: join(claudeDir, 'context-ceiling', `install-${basename(settingsPath, '.json')}.json`),
  };
}

/** How hooks.json-style commands should name the runtime, and whether a copy is needed. */
export function runtimeFor(t: Target): { commandDir: string; realDir: string; copy: boolean } {
  const dist = bundleDir();
  if (t.scope !== 'user') {
    const insideProject = relative(t.projectDir, dist);
    if (insideProject.split(sep)[0] === 'node_modules' && !insideProject.includes('..')) {
      return { commandDir: `$CLAUDE_PROJECT_DIR/${insideProject.split(sep).join('/')}`, realDir: dist, copy: false };
    }
    return {
      commandDir: '$CLAUDE_PROJECT_DIR/.claude/context-ceiling/runtime',
      realDir: join(t.projectDir, '.claude', 'context-ceiling', 'runtime'),
      copy: true,
    };
  }
  const realDir = join(dirname(t.settingsPath), 'context-ceiling', 'runtime');
  return { commandDir: realDir, realDir, copy: true };
}
