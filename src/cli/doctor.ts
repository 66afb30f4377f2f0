/** `context-ceiling doctor`: is everything in place? Each check says what it found and how to fix it. */
import { existsSync, lstatSync } from 'node:fs';
import { basename } from 'node:path';
import { join } from '../io/join-path.js';
import { AUTOCOMPACT_PCT_ENV, AUTOCOMPACT_WINDOW_ENV, describeAutocompact, resolveAutocompact } from '../core/autocompact.js';
import { describeAssumption, describeWindowSource, formatTokens } from '../core/guard-text.js';
import { BUN_PRESENT, HOOK_TABLE as HOOK_SPECS } from '../core/hook-table.js';
import { isOurStatusLine, ourHookName } from '../core/install-plan.js';
import { describeSource } from '../core/policy.js';
import { sanitizeText } from '../core/sanitize.js';
import { findPluginInstall, type PluginInstall, type SettingsFacts } from '../core/settings-env.js';
import type { ResolvedWindow } from '../core/window.js';
import type { LoadedConfig } from '../io/config.js';
import { newestTranscript, projectTranscriptDir } from '../io/locate.js';
import { locatePlugin } from '../io/plugin-install.js';
import { LAST_ERROR_FILE, privateDirForRead, readLastError, resolveStateDir } from '../io/state.js';
import { readRegularText } from '../io/read-safe.js';
import { readOccupancy } from '../io/transcript.js';
import { checkpointRoot, listSessionFolders } from '../checkpoints/store.js';
import { claudeSettingsOf, loadUncheckedConfig, projectDirOf, sessionWindowOf, type ClaudeSettings } from './project.js';
import type { CliIO, Command } from './command.js';
import { UsageError } from './errors.js';
import { parseFlags } from './flags.js';
import { toJsonOutput } from './output.js';
import { cliMessage } from './messages.js';
import { checkRuntime, checkStatusLine, foreignRuntimeFile, hookRunner } from './runtime-check.js';

const usage = 'context-ceiling doctor [--json]';

type Check = { name: string; status: 'ok' | 'warn' | 'fail'; detail: string; fix?: string | undefined };

export const doctorCommand: Command = {
  usage,
  help: `Usage: ${usage}

Checks, each with a fix when something is wrong:
  node      the Node.js version (20 or newer)
  hooks     the context-ceiling plugin enabled in a settings file and the
            folder Claude Code runs it from (which must still be there), or
            which settings files register the hooks, whether every event is
            there and the runtime each command runs works (every bundle is
            loaded and the hook run once on a canned input)
  status    the status line, when the settings' statusLine is ours: run once
            on a canned input by what its command runs here (Bun or Node)
  config    every policy file parses and validates
  window    the window the hooks use for this project's newest session, and
            where it comes from (env, policy, status line, model, learned,
            or assumed: an assumed window only warns)
  strict    strict mode on an assumed window blocks nothing
  compact   where Claude Code itself will compact (CLAUDE_AUTOCOMPACT_PCT_OVERRIDE,
            CLAUDE_CODE_AUTO_COMPACT_WINDOW), a percent of its effective window
  state     the private state directory is ours, private and not a symlink
  checkpoints
            shown only when the project keeps 256 or more sessions'
            checkpoint folders: every session start looks through each
  errors    the last unexpected failure of a hook, if any (it let everything
            through); remove the file it names once fixed

Settings are read as the hooks get them: the "env" blocks of
.claude/settings.local.json, .claude/settings.json and
~/.claude/settings.json applied over the environment, as Claude Code does.

Exit codes: 0 when nothing failed (warnings allowed), 1 otherwise.
`,
  run(args, io) {
    const flags = parseFlags(args, { boolean: ['json'] }, usage);
    if (flags._.length > 0) throw new UsageError(cliMessage('unexpected-argument', { arg: String(flags._[0]) }), usage);
    const checks = runChecks(io);
    if (flags.json) io.out(toJsonOutput({ ok: checks.every((c) => c.status !== 'fail'), checks }));
    else {
      const mark = { ok: '✓', warn: '!', fail: '✗' } as const;
      for (const check of checks) {
        // Details name paths, model ids and settings values: one sanitiser before the terminal.
        io.out(`${mark[check.status]} ${check.name.padEnd(7)} ${sanitizeText(check.detail)}\n`);
        if (check.fix) io.out(`  ${' '.repeat(8)}fix: ${sanitizeText(check.fix)}\n`);
      }
    }
    return checks.some((check) => check.status === 'fail') ? 1 : 0;
  },
};

function runChecks(io: CliIO): Check[] {
  const projectDir = projectDirOf(io);
  const settings = claudeSettingsOf(io);
  const config = loadUncheckedConfig(io);
  const checks: Check[] = [checkNode(), ...checkHooks(settings, io, projectDir)];
  const statusLine = checkOurStatusLine(settings, projectDir, io.env);
  if (statusLine) checks.push(statusLine);
  checks.push(
    config.problems.length > 0
      ? {
          name: 'config',
          status: 'fail',
          detail: [...config.problems, ...config.warnings].join('; '),
          fix: cliMessage('doctor.config-invalid-fix'),
        }
      : config.warnings.length > 0
        ? { name: 'config', status: 'warn', detail: config.warnings.join('; '), fix: cliMessage('doctor.config-warning-fix') }
        : {
            name: 'config',
            status: 'ok',
            detail: cliMessage('doctor.config-valid', {
              files: config.files
                .filter((f) => f.state === 'loaded')
                .map((f) => f.path)
                .join(', '),
            }),
          },
  );
  const window = hookWindow(io, config, projectDir);
  checks.push(checkWindow(window, config));
  if (config.policy.strict && !window.verified) {
    checks.push({
      name: 'strict',
      status: 'warn',
      detail: cliMessage('doctor.strict-assumed', { from: describeSource(config.sources.strict!) }),
      fix: cliMessage('doctor.strict-assumed-fix'),
    });
  }
  checks.push(checkCompaction(settings, config, window));
  checks.push(checkState(config, claudeSettingsOf(io).env, io.home));
  const folders = checkCheckpointFolders(projectDir);
  if (folders) checks.push(folders);
  checks.push(checkLastError(config, claudeSettingsOf(io).env, io.home));
  return checks;
}

/**
 * From this many session folders in the project's checkpoint folder, doctor advises cleaning: every session start
 * looks through each (~0.1 M instructions a folder; at 256, 1.45× a bare Node start by instructions and 1.26× by wall
 * time under Node 26 on a 2-CPU machine, bench/RESULTS.md).
 */
const MANY_CHECKPOINT_FOLDERS = 256;

/** A row only when the project keeps so many sessions' checkpoints that session starts pay for it; read like SessionStart reads it. */
function checkCheckpointFolders(projectDir: string): Check | undefined {
  const root = checkpointRoot(projectDir);
  const listing = listSessionFolders(root);
  const count = listing?.entries.filter((entry) => entry.isDirectory()).length ?? 0;
  if (count < MANY_CHECKPOINT_FOLDERS) return undefined;
  return {
    name: 'checkpoints',
    status: 'warn',
    detail: cliMessage('doctor.checkpoint-folders-many', { count, more: listing?.more === true, folder: root }),
    fix: cliMessage('doctor.checkpoint-folders-fix'),
  };
}

/** A hook's last unexpected failure (runtime/run.ts keeps it): a hook that failed open must not look like a quiet one. */
function checkLastError(config: LoadedConfig, env: Readonly<Record<string, string | undefined>>, home: string): Check {
  const stateDir = resolveStateDir({ policy: config.policy, env, home });
  const last = readLastError(stateDir);
  if (!last) return { name: 'errors', status: 'ok', detail: cliMessage('doctor.no-errors') };
  return {
    name: 'errors',
    status: 'warn',
    detail: cliMessage('doctor.last-error', last),
    fix: cliMessage('doctor.last-error-fix', { path: join(stateDir, LAST_ERROR_FILE) }),
  };
}

/** The window as the hooks resolve it for this project's newest session (a status line report is per session, a model's per model). */
function hookWindow(io: CliIO, config: LoadedConfig, projectDir: string): ResolvedWindow & { session?: string } {
  const transcript = newestTranscript(projectTranscriptDir(io.env, io.home, projectDir));
  if (!transcript) return sessionWindowOf(io, config, undefined, undefined);
  const measurement = readOccupancy(transcript, { maxScanBytes: config.policy.maxScanBytes });
  return { ...sessionWindowOf(io, config, transcript, measurement), session: basename(transcript, '.jsonl') };
}

function checkWindow(window: ResolvedWindow & { session?: string }, config: LoadedConfig): Check {
  const from = describeWindowSource(window, config.sources.window && describeSource(config.sources.window));
  const basis = window.session === undefined ? '' : cliMessage('doctor.window-basis', { session: window.session });
  if (window.verified)
    return {
      name: 'window',
      status: 'ok',
      detail: cliMessage('doctor.window-known', { tokens: formatTokens(window.tokens), from, basis }),
    };
  // No session yet: each session's window will come from its model; nothing to fix.
  if (window.assumption?.why === 'no-model') return { name: 'window', status: 'ok', detail: cliMessage('doctor.window-per-model') };
  return {
    name: 'window',
    status: 'warn',
    detail: cliMessage('doctor.window-assumed', { tokens: formatTokens(window.tokens), why: describeAssumption(window), basis }),
    fix: cliMessage('doctor.window-assumed-fix'),
  };
}

function checkCompaction(settings: ClaudeSettings, config: LoadedConfig, window: ResolvedWindow): Check {
  const point = resolveAutocompact(settings.env);
  if (point) {
    const origin = [AUTOCOMPACT_PCT_ENV, AUTOCOMPACT_WINDOW_ENV].map((name) => settings.origins[name]).find((label) => label !== undefined);
    return {
      name: 'compact',
      status: 'ok',
      detail: `${describeAutocompact(point, window.tokens)}${origin ? cliMessage('autocompact-set-in', { origin }) : ''}`,
    };
  }
  if (!config.policy.strict) return { name: 'compact', status: 'ok', detail: cliMessage('doctor.compact-default') };
  return {
    name: 'compact',
    status: 'warn',
    detail: cliMessage('doctor.compact-strict'),
    fix: cliMessage('doctor.compact-strict-fix'),
  };
}

/** Looks at the state directory without creating or changing anything (a doctor that chmods is not one). */
function checkState(config: LoadedConfig, env: Readonly<Record<string, string | undefined>>, home: string): Check {
  const stateDir = resolveStateDir({ policy: config.policy, env, home });
  const stat = lstatSync(stateDir, { throwIfNoEntry: false });
  if (!stat) return { name: 'state', status: 'ok', detail: cliMessage('doctor.state-absent', { dir: stateDir }) };
  if (privateDirForRead(stateDir) && (stat.mode & 0o077) === 0)
    return { name: 'state', status: 'ok', detail: cliMessage('doctor.state-ok', { dir: stateDir }) };
  const uid = process.getuid?.();
  const why = stat.isSymbolicLink()
    ? cliMessage('doctor.state-why-link')
    : !stat.isDirectory()
      ? cliMessage('doctor.state-why-not-dir')
      : uid !== undefined && stat.uid !== uid
        ? cliMessage('doctor.state-why-owner', { uid: stat.uid })
        : cliMessage('doctor.state-why-mode', { mode: (stat.mode & 0o777).toString(8).padStart(4, '0') });
  return {
    name: 'state',
    status: 'fail',
    detail: cliMessage('doctor.state-refused', { dir: stateDir, why }),
    fix: cliMessage('doctor.state-fix'),
  };
}

function checkNode(): Check {
  const major = Number(process.versions.node.split('.')[0]);
  return major >= 20
    ? { name: 'node', status: 'ok', detail: cliMessage('doctor.node-ok', { version: process.version }) }
    : {
        name: 'node',
        status: 'fail',
        detail: cliMessage('doctor.node-old', { version: process.version }),
        fix: cliMessage('doctor.node-fix'),
      };
}

function checkHooks(settings: ClaudeSettings, io: CliIO, projectDir: string): Check[] {
  const checks: Check[] = settings.problems.map((problem) => ({
    name: 'hooks',
    status: 'fail',
    detail: problem,
    fix: cliMessage('doctor.settings-broken-fix'),
  }));
  const plugin = findPluginInstall(settings.files);
  if (plugin) checks.push(checkPlugin(plugin, io));
  const installs = settings.files
    .map((file) => checkSettingsHooks(file, projectDir, io.env))
    .filter((check): check is Check => check !== undefined);
  checks.push(...installs);
  if (!plugin && installs.length === 0) {
    checks.push({ name: 'hooks', status: 'fail', detail: cliMessage('doctor.no-hooks'), fix: cliMessage('doctor.no-hooks-fix') });
  }
  return checks;
}

/**
 * The status line Claude Code runs (the last settings file with one wins: local over project over user), when it is
 * ours: run once by what its command runs here. Someone else's, or none, is not ours to check.
 */
function checkOurStatusLine(settings: ClaudeSettings, projectDir: string, env: CliIO['env']): Check | undefined {
  const file = settings.files.filter((facts) => facts.statusLineCommand !== undefined).at(-1);
  const command = file?.statusLineCommand;
  if (file === undefined || command === undefined || !isOurStatusLine({ command })) return undefined;
  const dir = /"([^"]+)\/statusline\.cjs"/.exec(command)?.[1]?.replace('$CLAUDE_PROJECT_DIR', projectDir);
  if (dir === undefined) return undefined;
  const flag = file.scope === 'user' ? ' --user' : file.scope === 'local' ? ' --local' : '';
  const foreign = file.scope === 'user' ? undefined : foreignRuntimeFile(dir);
  if (foreign !== undefined)
    return {
      name: 'status',
      status: 'warn',
      detail: cliMessage('doctor.runtime-not-run', { what: 'status line', where: file.label, dir, file: foreign }),
      fix: cliMessage('doctor.runtime-not-run-fix', { flag: `${flag} --statusline` }),
    };
  const runner = hookRunner(command.includes(BUN_PRESENT), env);
  const problem = checkStatusLine(dir, env, runner);
  return problem === undefined
    ? { name: 'status', status: 'ok', detail: cliMessage('doctor.statusline-ok', { label: file.label, dir, runner: runner.label }) }
    : {
        name: 'status',
        status: 'fail',
        detail: cliMessage('doctor.statusline-broken', { label: file.label, dir, problem }),
        fix: cliMessage('doctor.reinstall-fix', { flag: `${flag} --statusline` }),
      };
}

/** An enabled plugin runs only while the folder Claude Code runs it from is there (io/plugin-install.ts). */
function checkPlugin(plugin: PluginInstall, io: CliIO): Check {
  const where = { id: plugin.id, label: plugin.label, marketplace: plugin.marketplace };
  const location = locatePlugin(plugin, io.env, io.home);
  if (location.kind === 'not-installed')
    return {
      name: 'hooks',
      status: 'fail',
      detail: cliMessage('doctor.plugin-not-installed', { ...where, records: location.records }),
      fix: cliMessage('doctor.plugin-not-installed-fix', where),
    };
  if (location.missing !== undefined)
    return {
      name: 'hooks',
      status: 'fail',
      detail: cliMessage('doctor.plugin-missing', { ...where, missing: location.missing }),
      fix: cliMessage(location.from === 'folder' ? 'doctor.plugin-folder-fix' : 'doctor.plugin-copy-fix', where),
    };
  const foreign = location.namedBy === 'records' ? undefined : foreignRuntimeFile(join(location.folder, 'dist'));
  if (foreign !== undefined)
    return {
      name: 'hooks',
      status: 'warn',
      detail: cliMessage('doctor.runtime-not-run', {
        what: 'plugin',
        id: plugin.id,
        where: plugin.label,
        dir: join(location.folder, 'dist'),
        file: foreign,
      }),
      fix: cliMessage('doctor.plugin-not-run-fix', where),
    };
  const runner = hookRunner(pluginRunsAuto(location.folder), io.env);
  const problem = checkRuntime(join(location.folder, 'dist'), io.env, runner);
  if (problem !== undefined)
    return {
      name: 'hooks',
      status: 'fail',
      detail: cliMessage('doctor.plugin-broken', { id: plugin.id, folder: location.folder, problem }),
      fix: cliMessage(location.from === 'folder' ? 'doctor.plugin-folder-fix' : 'doctor.plugin-copy-fix', where),
    };
  const detail = location.from === 'folder' ? 'doctor.plugin-folder' : 'doctor.plugin-copy';
  return { name: 'hooks', status: 'ok', detail: cliMessage(detail, { ...where, folder: location.folder, runner: runner.label }) };
}

/** The plugin's hooks.json runs Bun where installed (every version since that became the default). */
function pluginRunsAuto(folder: string): boolean {
  try {
    return readRegularText(join(folder, 'hooks', 'hooks.json'), 1024 * 1024)?.includes(BUN_PRESENT) === true;
  } catch {
    return false; // not a regular file, or too large: not ours to trust
  }
}

function checkSettingsHooks(file: SettingsFacts, projectDir: string, env: CliIO['env']): Check | undefined {
  const ours = file.hookCommands.filter((command) => ourHookName(command) !== undefined);
  if (ours.length === 0) return undefined;
  const names = new Set(ours.map((command) => ourHookName(command)));
  const missing = HOOK_SPECS.filter((spec) => !names.has(spec.name)).map((spec) => spec.event);
  const runtimes = [
    ...new Set(ours.map((command) => /"([^"]+)\/hook\.cjs"/.exec(command)?.[1]?.replace('$CLAUDE_PROJECT_DIR', projectDir))),
  ].filter((dir): dir is string => dir !== undefined);
  const absent = runtimes.filter((dir) => !existsSync(join(dir, 'hook.cjs')));
  const flag = file.scope === 'user' ? ' --user' : file.scope === 'local' ? ' --local' : '';
  const where = { label: file.label, scope: file.scope };
  if (absent.length > 0)
    return {
      name: 'hooks',
      status: 'fail',
      detail: cliMessage('doctor.runtime-absent', { ...where, dirs: absent.join(', ') }),
      fix: cliMessage('doctor.reinstall-fix', { flag }),
    };
  // The user's own settings are theirs to trust; a project's name a folder doctor runs only when it holds our code.
  for (const dir of file.scope === 'user' ? [] : runtimes) {
    const foreign = foreignRuntimeFile(dir);
    if (foreign !== undefined)
      return {
        name: 'hooks',
        status: 'warn',
        detail: cliMessage('doctor.runtime-not-run', { what: 'hooks', where: file.label, dir, file: foreign }),
        fix: cliMessage('doctor.runtime-not-run-fix', { flag }),
      };
  }
  const runner = hookRunner(
    ours.some((command) => command.includes(BUN_PRESENT)),
    env,
  );
  const broken = runtimes.map((dir) => ({ dir, problem: checkRuntime(dir, env, runner) })).find((r) => r.problem !== undefined);
  if (broken)
    return {
      name: 'hooks',
      status: 'fail',
      detail: cliMessage('doctor.runtime-broken', { ...where, dir: broken.dir, problem: broken.problem! }),
      fix: cliMessage('doctor.reinstall-fix', { flag }),
    };
  if (missing.length > 0)
    return {
      name: 'hooks',
      status: 'warn',
      detail: cliMessage('doctor.hooks-missing', { ...where, events: missing.join(', ') }),
      fix: cliMessage('doctor.install-fix', { flag }),
    };
  return {
    name: 'hooks',
    status: 'ok',
    detail: cliMessage('doctor.hooks-ok', { ...where, count: HOOK_SPECS.length, dirs: runtimes.join(', '), runner: runner.label }),
  };
}
