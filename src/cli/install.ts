/** `context-ceiling install` / `uninstall`: wire the hooks into a Claude Code settings.json, idempotently. */
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmdirSync, rmSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENV } from '../core/constants.js';
import { planInstall, planUninstall, SettingsShapeError, type Created, type EnvChange, type Plan } from '../core/install-plan.js';
import { writeFileAtomic } from '../io/fs-safe.js';
import { projectDirOf } from './context.js';
import { CliError, parseFlags, UsageError, type CliIO, type Command } from './io.js';

declare const PACKAGE_VERSION: string;

/** The bundles a hook needs at run time; copied as a unit so the hooks survive the package moving (npx). */
export const RUNTIME_FILES = ['hook.cjs', 'hook-events.cjs', 'policy-parse.cjs', 'yaml-parse.cjs', 'statusline.cjs'] as const;

type Scope = 'project' | 'local' | 'user';

type Target = {
  scope: Scope;
  settingsPath: string;
  /** Where the install record lives: what uninstall removes. */
  recordPath: string;
  projectDir: string;
};

type InstallRecord = {
  version: string;
  settingsPath: string;
  runtimeDir: string | null;
  runtimeCopied: boolean;
  env: EnvChange[];
  /** What the first install created (uninstall deletes those once empty). */
  created: Created;
  installedAt: string;
};

const installUsage = 'context-ceiling install [--project | --local | --user] [--strict] [--statusline] [--dry-run] [--json]';
const uninstallUsage = 'context-ceiling uninstall [--project | --local | --user] [--dry-run] [--json]';

const SCOPES_HELP = `Where:
  --project   <project>/.claude/settings.json, shared with the team (default)
  --local     <project>/.claude/settings.local.json, this machine only
  --user      ~/.claude/settings.json, every project of this user
<project> is CLAUDE_PROJECT_DIR, else the current directory.`;

export const installCommand: Command = {
  summary: 'wire the hooks into a Claude Code settings.json',
  usage: installUsage,
  help: `Usage: ${installUsage}

Adds the context-ceiling hooks (PreToolUse, UserPromptSubmit, PreCompact,
SessionStart, PostToolUse) to a Claude Code settings file. Other settings and
hooks are kept as they are; running it again changes nothing; the previous
file is backed up first (settings.json.bak-<time>); a malformed settings file
is reported and never overwritten.

The hooks run a copy of the hook bundles that does not depend on where this
package lives (global, project, npx): <project>/.claude/context-ceiling/runtime
for project scopes (or node_modules/context-ceiling when the package is a
dependency of that project), ~/.claude/context-ceiling/runtime for --user.

${SCOPES_HELP}

Options:
  --strict      also set ${ENV.strict}=on in the settings' "env" (blocks instead of warns)
  --statusline  also make our status line the settings' statusLine: it shows the
                fill and records the session's real window for the hooks; an
                existing statusLine command keeps running, wrapped, and uninstall
                restores it
  --dry-run     show what would change, change nothing
  --json        machine-readable result
`,
  run(args, io) {
    const flags = parseFlags(args, { boolean: ['project', 'local', 'user', 'strict', 'statusline', 'dry-run', 'json'] }, installUsage);
    if (flags._.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(String(flags._[0]))}`, installUsage);
    return install(io, target(io, flags, installUsage), { strict: flags.strict === true, statusLine: flags.statusline === true, dryRun: flags['dry-run'] === true, json: flags.json === true });
  },
};

export const uninstallCommand: Command = {
  summary: 'remove exactly what install added',
  usage: uninstallUsage,
  help: `Usage: ${uninstallUsage}

Removes the context-ceiling hooks install added to the settings file, the
entries and event lists that held only them, the "env" values it set (the
previous value is restored), and the runtime copy it made. Everything else is
left as it is. The previous file is backed up first.

${SCOPES_HELP}

Options:
  --dry-run   show what would change, change nothing
  --json      machine-readable result
`,
  run(args, io) {
    const flags = parseFlags(args, { boolean: ['project', 'local', 'user', 'dry-run', 'json'] }, uninstallUsage);
    if (flags._.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(String(flags._[0]))}`, uninstallUsage);
    return uninstall(io, target(io, flags, uninstallUsage), { dryRun: flags['dry-run'] === true, json: flags.json === true });
  },
};

function target(io: CliIO, flags: Record<string, unknown>, usage: string): Target {
  const chosen = (['project', 'local', 'user'] as const).filter((scope) => flags[scope] === true);
  if (chosen.length > 1) throw new UsageError('choose one of --project, --local, --user', usage);
  const scope: Scope = chosen[0] ?? 'project';
  const projectDir = projectDirOf(io);
  const claudeDir = scope === 'user' ? join(io.home, '.claude') : join(projectDir, '.claude');
  const settingsPath = join(claudeDir, scope === 'local' ? 'settings.local.json' : 'settings.json');
  return { scope, settingsPath, projectDir, recordPath: join(claudeDir, 'context-ceiling', `install-${basename(settingsPath, '.json')}.json`) };
}

/** The folder holding this package's bundles (dist/). */
export function packageDistDir(): string {
  return dirname(fileURLToPath(import.meta.url));
}

/** How hooks.json-style commands should name the runtime, and whether a copy is needed. */
function runtimeFor(t: Target): { commandDir: string; realDir: string; copy: boolean } {
  const dist = packageDistDir();
  if (t.scope !== 'user') {
    const insideProject = relative(t.projectDir, dist);
    if (insideProject.split(sep)[0] === 'node_modules' && !insideProject.includes('..')) {
      return { commandDir: `$CLAUDE_PROJECT_DIR/${insideProject.split(sep).join('/')}`, realDir: dist, copy: false };
    }
    return { commandDir: '$CLAUDE_PROJECT_DIR/.claude/context-ceiling/runtime', realDir: join(t.projectDir, '.claude', 'context-ceiling', 'runtime'), copy: true };
  }
  const realDir = join(dirname(t.settingsPath), 'context-ceiling', 'runtime');
  return { commandDir: realDir, realDir, copy: true };
}

type Options = { dryRun: boolean; json: boolean };

function install(io: CliIO, t: Target, options: Options & { strict: boolean; statusLine: boolean }): number {
  const current = readSettings(t.settingsPath);
  const runtime = runtimeFor(t);
  const plan = planOrExplain(t.settingsPath, () => planInstall(current.value, runtime.commandDir, options.strict ? { [ENV.strict]: 'on' } : {}, { statusLine: options.statusLine }));
  const staleRuntime = runtime.copy ? RUNTIME_FILES.filter((file) => !sameFile(join(packageDistDir(), file), join(runtime.realDir, file))) : [];
  const previous = readRecord(t.recordPath);
  const changed = plan.actions.length > 0 || staleRuntime.length > 0;
  let backup: string | undefined;
  if (changed && !options.dryRun) {
    if (staleRuntime.length > 0) copyRuntime(runtime.realDir);
    if (plan.actions.length > 0) backup = writeSettings(t.settingsPath, current, plan.settings);
    const record: InstallRecord = {
      version: PACKAGE_VERSION,
      settingsPath: t.settingsPath,
      runtimeDir: runtime.copy ? runtime.realDir : null,
      runtimeCopied: runtime.copy || previous?.runtimeCopied === true,
      env: mergeEnvRecord(previous?.env ?? [], plan.env),
      created: { ...(previous?.created ?? plan.created), statusLine: previous?.created?.statusLine ?? plan.created.statusLine },
      installedAt: new Date().toISOString(),
    };
    mkdirSync(dirname(t.recordPath), { recursive: true });
    writeFileAtomic(t.recordPath, `${JSON.stringify(record, null, 2)}\n`, 0o644);
  }
  const result = { settingsPath: t.settingsPath, scope: t.scope, changed, dryRun: options.dryRun, actions: plan.actions, runtime: runtime.copy ? { dir: runtime.realDir, updated: staleRuntime } : { dir: runtime.realDir, updated: [] }, backup: backup ?? null };
  if (options.json) io.out(`${JSON.stringify(result, null, 2)}\n`);
  else {
    const verb = options.dryRun ? 'would change' : 'installed into';
    io.out(changed ? `context-ceiling: ${verb} ${t.settingsPath} (${t.scope})\n` : `context-ceiling: already installed in ${t.settingsPath} (${t.scope}); nothing changed\n`);
    for (const action of plan.actions) io.out(`  ${action}\n`);
    if (staleRuntime.length > 0) io.out(`  ${options.dryRun ? 'would copy' : 'copied'} runtime (${staleRuntime.join(', ')}) to ${runtime.realDir}\n`);
    if (backup) io.out(`  backup of the previous file: ${backup}\n`);
  }
  return 0;
}

function uninstall(io: CliIO, t: Target, options: Options): number {
  const current = readSettings(t.settingsPath);
  const record = readRecord(t.recordPath);
  const plan: Plan =
    current.value === undefined
      ? { settings: {}, actions: [], env: [], created: { hooksObject: false, events: [], envObject: false } }
      : planOrExplain(t.settingsPath, () => planUninstall(current.value, { env: record?.env ?? [], created: record?.created }));
  const runtimeDir = record?.runtimeCopied && record.runtimeDir && existsSync(record.runtimeDir) ? record.runtimeDir : undefined;
  const changed = plan.actions.length > 0 || runtimeDir !== undefined || record !== undefined;
  let backup: string | undefined;
  if (changed && !options.dryRun) {
    if (plan.actions.length > 0) backup = writeSettings(t.settingsPath, current, plan.settings);
    if (runtimeDir) rmSync(runtimeDir, { recursive: true, force: true });
    rmSync(t.recordPath, { force: true });
    removeIfEmpty(dirname(t.recordPath));
  }
  const result = { settingsPath: t.settingsPath, scope: t.scope, changed, dryRun: options.dryRun, actions: plan.actions, runtimeRemoved: runtimeDir ?? null, backup: backup ?? null };
  if (options.json) io.out(`${JSON.stringify(result, null, 2)}\n`);
  else {
    io.out(changed ? `context-ceiling: ${options.dryRun ? 'would remove from' : 'removed from'} ${t.settingsPath} (${t.scope})\n` : `context-ceiling: not installed in ${t.settingsPath} (${t.scope}); nothing changed\n`);
    for (const action of plan.actions) io.out(`  ${action}\n`);
    if (runtimeDir) io.out(`  ${options.dryRun ? 'would remove' : 'removed'} runtime ${runtimeDir}\n`);
    if (backup) io.out(`  backup of the previous file: ${backup}\n`);
  }
  return 0;
}

type SettingsFile = { value: unknown; text: string | undefined; indent: string | number };

function readSettings(path: string): SettingsFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { value: undefined, text: undefined, indent: 2 };
    throw new CliError(`${path}: cannot be read (${code ?? 'error'})`);
  }
  if (text.trim() === '') return { value: undefined, text, indent: 2 };
  try {
    return { value: JSON.parse(text), text, indent: detectIndent(text) };
  } catch (error) {
    throw new CliError(`${path}: not valid JSON (${(error as Error).message}); the file was left unchanged`);
  }
}

function planOrExplain(path: string, plan: () => Plan): Plan {
  try {
    return plan();
  } catch (error) {
    if (error instanceof SettingsShapeError) throw new CliError(`${path}: ${error.message}; the file was left unchanged`);
    throw error;
  }
}

/**
 * Back up the previous file (when there was one), then replace it atomically.
 * A settings.json that is a symlink (dotfiles) is written through to its target,
 * so the link survives. Returns the backup path.
 */
function writeSettings(linkPath: string, current: SettingsFile, settings: Record<string, unknown>): string | undefined {
  const path = current.text !== undefined ? realpathSync(linkPath) : linkPath;
  mkdirSync(dirname(path), { recursive: true });
  let backup: string | undefined;
  if (current.text !== undefined) {
    const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('.', '-');
    backup = `${path}.bak-${stamp}`;
    for (let n = 2; existsSync(backup); n++) backup = `${path}.bak-${stamp}-${n}`; // never replace an earlier backup
    writeFileAtomic(backup, current.text, 0o644);
  }
  writeFileAtomic(path, `${JSON.stringify(settings, null, current.indent)}\n`, 0o644);
  return backup;
}

function copyRuntime(dir: string): void {
  mkdirSync(dir, { recursive: true });
  for (const file of RUNTIME_FILES) writeFileAtomic(join(dir, file), readFileSync(join(packageDistDir(), file)), 0o644);
  writeFileAtomic(join(dir, 'VERSION'), `${PACKAGE_VERSION}\n`, 0o644);
}

function removeIfEmpty(dir: string): void {
  try {
    if (readdirSync(dir).length === 0) rmdirSync(dir);
  } catch {
    // not ours to worry about
  }
}

function sameFile(a: string, b: string): boolean {
  try {
    return readFileSync(a).equals(readFileSync(b));
  } catch {
    return false;
  }
}

function readRecord(path: string): InstallRecord | undefined {
  try {
    const record = JSON.parse(readFileSync(path, 'utf8')) as InstallRecord;
    return typeof record === 'object' && record !== null && Array.isArray(record.env) ? record : undefined;
  } catch {
    return undefined;
  }
}

/** Keep the earliest "previous" value per key, so uninstall restores what was there before the first install. */
function mergeEnvRecord(earlier: EnvChange[], now: EnvChange[]): EnvChange[] {
  const byKey = new Map(earlier.map((change) => [change.key, change]));
  for (const change of now) if (!byKey.has(change.key)) byKey.set(change.key, change);
  return [...byKey.values()];
}

function detectIndent(text: string): string | number {
  const match = /^\{\s*\n([ \t]+)"/.exec(text);
  return match ? (match[1]!.includes('\t') ? '\t' : match[1]!.length) : 2;
}
